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
from typing import Generic, NamedTuple, TypeVar

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


def at_level(
    mean: float, lo: float, hi: float, df: float, confidence: float, level: float
) -> tuple[float, float]:
    """A Student-t interval ``[lo, hi]`` of ``mean`` at ``confidence`` (``df`` degrees of
    freedom) given at ``level`` instead: each side's half-width scaled by the ratio of the two
    critical values. A report shows a side's interval at the level its row was decided at, so
    a reader meets one level per row, not the run's nominal one beside a look's."""
    if not (math.isfinite(lo) and math.isfinite(hi)) or level == confidence:
        return lo, hi
    factor = t_critical(level, df) / t_critical(confidence, df)
    if not math.isfinite(factor):
        return lo, hi
    return mean - (mean - lo) * factor, mean + (hi - mean) * factor


@dataclass(frozen=True)
class WelchStats:
    """Welch's t from summary moments, element-wise: ``diff = mean(y) - mean(x)``, its standard
    error, Welch–Satterthwaite degrees of freedom, t and the two-sided p-value."""

    diff: np.ndarray
    se: np.ndarray
    df: np.ndarray
    t: np.ndarray
    p_value: np.ndarray


V = TypeVar("V", float, np.ndarray)


class SideMoments(NamedTuple, Generic[V]):
    """One side of a two-sample comparison as Welch's t sees it, on scalars (``SideMoments[float]``)
    or element-wise on arrays of many keys or paths (``SideMoments[np.ndarray]``): how many
    values, their mean and sample variance, and the degrees of freedom that variance carries
    (None: n − 1, the sample's own; more when it borrows the spread of other keys,
    :mod:`.moderation`)."""

    n: V
    mean: V
    var: V
    df: V | None = None

    @staticmethod
    def of_rows(x: np.ndarray) -> SideMoments[np.ndarray]:
        """Each row's moments along the last axis of ``x`` (…, n)."""
        return SideMoments(
            np.full(x.shape[:-1], x.shape[-1]), x.mean(axis=-1), x.var(axis=-1, ddof=1)
        )


def welch_df(base: SideMoments[V], head: SideMoments[V]) -> np.ndarray:
    """Welch–Satterthwaite degrees of freedom of the two sides' variances.

    Each variance carries its side's ``df`` (n − 1 when it is the sample's own).
    When neither side varies (the denominator is 0) every df gives the same degenerate answer,
    so the rule is the pooled test's n1 + n2 − 2: finite, and the same in every caller (the
    comparison, the sequential looks, the simulator that calibrates them, the power curve).
    A side of one value contributes no variance term.
    """
    n1, n2 = np.asarray(base.n, dtype=float), np.asarray(head.n, dtype=float)
    d1, d2 = base.df, head.df
    d1a = np.maximum(n1 - 1, 1) if d1 is None else np.maximum(np.asarray(d1, dtype=float), 1e-12)
    d2a = np.maximum(n2 - 1, 1) if d2 is None else np.maximum(np.asarray(d2, dtype=float), 1e-12)
    a = np.asarray(base.var, dtype=float) / n1
    b = np.asarray(head.var, dtype=float) / n2
    denom = np.where(n1 > 1, a * a / d1a, 0.0) + np.where(n2 > 1, b * b / d2a, 0.0)
    flat = denom == 0.0
    return np.asarray(np.where(flat, n1 + n2 - 2, (a + b) ** 2 / np.where(flat, 1.0, denom)))


def welch_moments(base: SideMoments[V], head: SideMoments[V]) -> WelchStats:
    """The one Welch: every two-sample t of perfproof is this, on scalars or arrays;
    ``diff = head.mean - base.mean``.

    When neither side varies the standard error is zero and the difference is exact: p = 0 if
    it is non-zero, 1 if it is zero, t = ±∞ or 0 (never a division by zero). Callers check
    that each side has at least two values.

    Not ``scipy.stats.ttest_ind(..., equal_var=False)`` (which the tests hold this to, t, p,
    df and interval alike): callers have moments, not arrays — the sequential looks and the
    simulator that calibrates them keep running sums over thousands of keys of unequal fork
    counts —, and SciPy answers NaN with a warning where the difference is exact.
    """
    n1a, n2a = np.asarray(base.n, dtype=float), np.asarray(head.n, dtype=float)
    diff = np.asarray(head.mean, dtype=float) - np.asarray(base.mean, dtype=float)
    se = np.sqrt(np.asarray(base.var, dtype=float) / n1a + np.asarray(head.var, dtype=float) / n2a)
    df = welch_df(base, head)
    exact = se == 0.0
    t = np.where(exact, np.copysign(np.inf, diff), diff / np.where(exact, 1.0, se))
    t = np.where(exact & (diff == 0.0), 0.0, t)
    p = np.where(exact, (diff == 0.0).astype(float), 2.0 * _special.stdtr(df, -np.abs(t)))
    return WelchStats(diff=diff, se=se, df=df, t=t, p_value=p)


def welch_where_tested(
    base: SideMoments[np.ndarray], head: SideMoments[np.ndarray]
) -> tuple[WelchStats, np.ndarray]:
    """:func:`welch_moments` for every pair with two values on each side, and which pairs
    those are; any other pair is not tested: p = 1, no se, df or t (its difference stays)."""
    tested = (np.asarray(base.n) >= 2) & (np.asarray(head.n) >= 2)

    def placeholders(side: SideMoments[np.ndarray]) -> SideMoments[np.ndarray]:
        """The side with an untested pair's count, variance and df replaced by values that
        keep its arithmetic finite (its results are replaced below)."""
        return SideMoments(
            np.where(tested, side.n, 2),
            side.mean,
            np.where(tested, side.var, 1.0),
            None if side.df is None else np.where(tested, side.df, 1.0),
        )

    w = welch_moments(placeholders(base), placeholders(head))
    untested = ~tested
    return (
        WelchStats(
            diff=w.diff,
            se=np.where(untested, math.nan, w.se),
            df=np.where(untested, math.nan, w.df),
            t=np.where(untested, math.nan, w.t),
            p_value=np.where(untested, 1.0, w.p_value),
        ),
        tested,
    )


def welch(x: np.ndarray, y: np.ndarray, confidence: float) -> WelchResult:
    """Welch's two-sample t for ``mean(y) - mean(x)``; needs at least two values per side."""
    base = SideMoments[float](*moments(np.asarray(x, dtype=float)))
    head = SideMoments[float](*moments(np.asarray(y, dtype=float)))
    if base.n < 2 or head.n < 2:
        raise ValueError(f"welch needs at least two values per side, got {base.n} and {head.n}")
    w = welch_moments(base, head)
    diff, se, df = float(w.diff), float(w.se), float(w.df)
    half = 0.0 if se == 0.0 else t_critical(confidence, df) * se
    return WelchResult(diff, diff - half, diff + half, df, se, float(w.t), float(w.p_value))


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
    w = welch_moments(SideMoments.of_rows(x), SideMoments.of_rows(y))
    exact = w.se == 0.0
    half = np.where(exact, 0.0, _special.stdtrit(w.df, 0.5 + confidence / 2.0) * w.se)
    return WelchRows(w.diff, w.diff - half, w.diff + half, w.df, w.se, w.t, w.p_value)
