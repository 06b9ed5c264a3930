"""The one log-ratio statistic: head/base from Welch's t on logarithms, and its fallback.

A ratio of two positive quantities becomes a difference of logs, so Welch's two-sample t on the
logs (Welch–Satterthwaite degrees of freedom, no shared variance assumed) gives the ratio of
geometric means with an interval that stays honest with 2–3 observations per side. ``compare``
applies it to fork means, ``e2e`` to whole-program runs: one function, so the two verdicts mean
the same thing.

A logarithm needs positive values. A time or a throughput cannot be zero or negative, but a
metric read out of a program's output can be (a balance, a temperature, a count of zero), so
:func:`log_ratio` raises :class:`NonPositiveValues` instead of returning a wrong number; the
caller either refuses the input (exit 2) or falls back to :func:`relative_difference` with a
warning. The fallback divides the difference of means by the *magnitude* of the baseline mean,
so a metric going from −5 to −3 is +40% (up), never −40%; with a baseline mean of exactly zero
no relative figure exists and only the difference and its direction are reported.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from perfproof.model.bounds import RatioBounds, bound_exp
from perfproof.stats.welch import WelchResult, mean_interval, welch, welch_rows


def bound_exp_rows(log_values: np.ndarray) -> np.ndarray:
    """:func:`~perfproof.model.bounds.bound_exp` for whole arrays, without numpy's overflow
    warning on stderr."""
    with np.errstate(over="ignore", under="ignore"):
        return np.asarray(np.exp(log_values))


class NonPositiveValues(ValueError):
    """A side holds values ≤ 0, so no log ratio exists: refuse, or use the fallback."""

    def __init__(self, side: str, count: int, total: int) -> None:
        super().__init__(f"{count} of {total} {side} values are <= 0; a log ratio needs values > 0")
        self.side = side
        self.count = count
        self.total = total


@dataclass(frozen=True)
class RatioEstimate:
    """head/base with its interval, two-sided p-value and Welch degrees of freedom.

    ``log_se`` is the standard error of the log ratio (``nan`` for the fallback). For the
    fallback with a zero baseline mean ``ratio``, ``lo`` and ``hi`` are ``nan``: the
    difference (in ``diff``) is then all there is.
    """

    ratio: float
    lo: float
    hi: float
    p_value: float
    df: float
    log_se: float
    diff: WelchResult | None = None
    """The difference of means (fallback only)."""

    @property
    def relative(self) -> bool:
        """Whether a ratio exists (false only for the fallback over a zero baseline)."""
        return not math.isnan(self.ratio)


def check_positive(base: np.ndarray, head: np.ndarray) -> None:
    """Raise :class:`NonPositiveValues` naming the first side that has a value ≤ 0."""
    for side, values in (("base", base), ("head", head)):
        bad = int(np.count_nonzero(~(values > 0)))
        if bad:
            raise NonPositiveValues(side, bad, int(values.size))


def log_ratio(base: np.ndarray, head: np.ndarray, confidence: float) -> RatioEstimate:
    """Ratio of geometric means head/base: Welch on logs, exponentiated.

    Needs two values per side (``ValueError`` otherwise) and every value > 0
    (:class:`NonPositiveValues` otherwise).
    """
    x = np.asarray(base, dtype=float)
    y = np.asarray(head, dtype=float)
    check_positive(x, y)
    w = welch(np.log(x), np.log(y), confidence)
    lo, hi = RatioBounds.of_logs(w.lo, w.hi)
    return RatioEstimate(bound_exp(w.diff), lo, hi, w.p_value, w.df, w.se)


@dataclass(frozen=True)
class RatioRows:
    """:func:`log_ratio` for many keys at once: each field is an array over the leading axes."""

    ratio: np.ndarray
    lo: np.ndarray
    hi: np.ndarray
    p_value: np.ndarray
    df: np.ndarray
    log_se: np.ndarray


def log_ratio_rows(base: np.ndarray, head: np.ndarray, confidence: float) -> RatioRows:
    """:func:`log_ratio` along the last axis of (…, n1) and (…, n2) arrays of values > 0.

    The same numbers as the one-key function (tests check it), as whole-array operations so a
    suite of thousands of keys costs milliseconds.
    """
    x = np.asarray(base, dtype=float)
    y = np.asarray(head, dtype=float)
    check_positive(x, y)
    w = welch_rows(np.log(x), np.log(y), confidence)
    return RatioRows(
        bound_exp_rows(w.diff), bound_exp_rows(w.lo), bound_exp_rows(w.hi), w.p_value, w.df, w.se
    )


def relative_difference(base: np.ndarray, head: np.ndarray, confidence: float) -> RatioEstimate:
    """The fallback for values ≤ 0: Welch on the raw values, relative to |mean(base)|.

    ``1 + diff/|m|`` keeps the sign of the change whatever the sign of the baseline, so a
    lower-is-better metric that went up is never called improved. With ``m == 0``, or a
    baseline mean whose own interval includes 0 (a balance around zero: dividing by it turns
    a small difference into +31,000 %), the ratio and its interval are ``nan`` and ``diff``
    carries the answer.
    """
    x = np.asarray(base, dtype=float)
    y = np.asarray(head, dtype=float)
    w = welch(x, y, confidence)
    scale = abs(float(np.mean(x)))
    if scale == 0.0 or not math.isfinite(scale) or baseline_spans_zero(x, confidence):
        nan = math.nan
        return RatioEstimate(nan, nan, nan, w.p_value, w.df, nan, diff=w)
    return RatioEstimate(
        1.0 + w.diff / scale,
        1.0 + w.lo / scale,
        1.0 + w.hi / scale,
        w.p_value,
        w.df,
        math.nan,
        diff=w,
    )


def baseline_spans_zero(base: np.ndarray, confidence: float) -> bool:
    """Whether the baseline mean's own interval includes 0: no percentage of it is defined."""
    x = np.asarray(base, dtype=float)
    if x.size < 2:
        return False
    mi = mean_interval(x, confidence)
    return mi.lo <= 0.0 <= mi.hi


def ratio_or_difference(
    base: np.ndarray, head: np.ndarray, confidence: float
) -> tuple[RatioEstimate, NonPositiveValues | None]:
    """:func:`log_ratio`, or :func:`relative_difference` with the reason it was needed."""
    try:
        return log_ratio(base, head, confidence), None
    except NonPositiveValues as exc:
        return relative_difference(base, head, confidence), exc
