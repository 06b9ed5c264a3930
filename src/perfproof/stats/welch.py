"""Student-t intervals for one mean and Welch's t for a difference of two means.

These are the building blocks every strategy uses. Welch's test does not assume the two
sides share a variance, and its Welch–Satterthwaite degrees of freedom keep the interval
honest with as few as two or three observations per side, which is the usual number of
JVM forks. Callers that want a ratio pass logarithms: a difference of log means is a log
ratio, so ``exp`` of the interval is the ratio's interval.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

import numpy as np
from scipy import special as _special

from perfproof.stats.forks import moments


@dataclass(frozen=True)
class MeanInterval:
    """The mean of a sample with its two-sided Student-t interval."""

    mean: float
    lo: float
    hi: float
    df: float
    se: float
    n: int


@dataclass(frozen=True)
class WelchResult:
    """``diff = mean(y) - mean(x)`` with its Welch interval and two-sided p-value."""

    diff: float
    lo: float
    hi: float
    df: float
    se: float
    t: float
    p_value: float


def t_critical(confidence: float, df: float) -> float:
    """Two-sided Student-t critical value; infinite when there is no degree of freedom.

    The check below is the quantile's own domain, for internal levels (family-adjusted,
    sequential, JMH's 99.9%); a user's level is checked once by ``verdict.check_confidence``.
    """
    if not 0.0 < confidence < 1.0:
        raise ValueError(f"confidence must be in (0, 1), got {confidence}")
    if not df > 0 or math.isnan(df):
        return math.inf
    return t_quantile(0.5 + confidence / 2.0, float(df))


@functools.lru_cache(maxsize=4096)
def t_quantile(p: float, df: float) -> float:
    """Student-t quantile, cached: inverting the t distribution is slow, and a suite asks for
    the same few (level, degrees of freedom) pairs thousands of times."""
    return float(_special.stdtrit(df, p))


def mean_interval(x: np.ndarray, confidence: float) -> MeanInterval:
    """Mean with a Student-t interval; with one value the interval is unbounded, not zero-wide."""
    n, mean, var = moments(np.asarray(x, dtype=float))
    if n == 0:
        raise ValueError("mean_interval needs at least one value")
    if n == 1:
        return MeanInterval(mean, -math.inf, math.inf, 0.0, math.inf, 1)
    se = math.sqrt(var / n)
    df = float(n - 1)
    half = t_critical(confidence, df) * se
    return MeanInterval(mean, mean - half, mean + half, df, se, n)


def welch_df(v1: float, n1: int, v2: float, n2: int) -> float:
    """Welch–Satterthwaite degrees of freedom for variances ``v1``, ``v2`` of samples n1, n2."""
    a = v1 / n1
    b = v2 / n2
    denom = (a * a / (n1 - 1) if n1 > 1 else 0.0) + (b * b / (n2 - 1) if n2 > 1 else 0.0)
    if denom == 0.0:
        # Both sides without spread: any df gives the same (degenerate) answer.
        return float(n1 + n2 - 2)
    return (a + b) ** 2 / denom


def welch(x: np.ndarray, y: np.ndarray, confidence: float) -> WelchResult:
    """Welch's two-sample t for ``mean(y) - mean(x)``; needs at least two values per side.

    When neither side varies at all the standard error is zero: the difference is then
    exact (p = 0 if it is non-zero, 1 if it is zero) rather than a division by zero.
    """
    n1, m1, v1 = moments(np.asarray(x, dtype=float))
    n2, m2, v2 = moments(np.asarray(y, dtype=float))
    if n1 < 2 or n2 < 2:
        raise ValueError(f"welch needs at least two values per side, got {n1} and {n2}")
    diff = m2 - m1
    se = math.sqrt(v1 / n1 + v2 / n2)
    df = welch_df(v1, n1, v2, n2)
    if se == 0.0:
        p = 1.0 if diff == 0.0 else 0.0
        t = 0.0 if diff == 0.0 else math.copysign(math.inf, diff)
        return WelchResult(diff, diff, diff, df, 0.0, t, p)
    t = diff / se
    half = t_critical(confidence, df) * se
    p = float(2.0 * _special.stdtr(df, -abs(t)))
    return WelchResult(diff, diff - half, diff + half, df, se, t, p)


@dataclass(frozen=True)
class WelchRows:
    """``welch`` for many pairs at once: each field is an array over the leading axes."""

    diff: np.ndarray
    lo: np.ndarray
    hi: np.ndarray
    df: np.ndarray
    se: np.ndarray
    t: np.ndarray
    p_value: np.ndarray


def welch_rows(x: np.ndarray, y: np.ndarray, confidence: float) -> WelchRows:
    """Welch's t along the last axis for every row pair of ``x`` (…, n1) and ``y`` (…, n2).

    The same answers as ``welch`` row by row (tests check it), computed as whole-array
    operations so that a suite of thousands of keys costs a few milliseconds.
    """
    x = np.asarray(x, dtype=float)
    y = np.asarray(y, dtype=float)
    n1, n2 = x.shape[-1], y.shape[-1]
    if n1 < 2 or n2 < 2:
        raise ValueError(f"welch needs at least two values per side, got {n1} and {n2}")
    a = x.var(axis=-1, ddof=1) / n1
    b = y.var(axis=-1, ddof=1) / n2
    diff = y.mean(axis=-1) - x.mean(axis=-1)
    se = np.sqrt(a + b)
    denom = a * a / (n1 - 1) + b * b / (n2 - 1)
    flat = denom == 0.0
    df = np.where(flat, float(n1 + n2 - 2), (a + b) ** 2 / np.where(flat, 1.0, denom))
    exact = se == 0.0
    t = np.where(exact, np.copysign(np.inf, diff), diff / np.where(exact, 1.0, se))
    t = np.where(exact & (diff == 0.0), 0.0, t)
    p = np.where(exact, (diff == 0.0).astype(float), 2.0 * _special.stdtr(df, -np.abs(t)))
    half = np.where(exact, 0.0, _special.stdtrit(df, 0.5 + confidence / 2.0) * se)
    return WelchRows(diff, diff - half, diff + half, df, se, t, p)
