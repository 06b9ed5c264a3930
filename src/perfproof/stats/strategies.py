"""The three ways perfproof compares one key's two sides, and the rule that picks one.

Like benchstat's assumptions, each strategy is a small object with a ``summarize`` (one
side's estimate and interval) and a ``compare`` (the ratio head/base, its interval and a
p-value), and each states when it applies:

``ForkLevel``
    The default. The fork (JVM invocation) is the unit of replication: iterations inside a
    fork share JIT decisions, heap layout and code alignment, so they are not independent
    and pooling them makes intervals too narrow. Each side is reduced to its fork means;
    the ratio's interval and test are Welch's t on log fork means with Welch–Satterthwaite
    degrees of freedom, which stays calibrated with 2–3 forks per side (the simulation in
    tests/stats shows it; a percentile bootstrap over so few forks does not).
``Exact``
    For bytes per operation when both sides are near-deterministic (every value within
    0.5 B or 0.1% of the side's level). Allocation per op is a property of the compiled
    code, not a noisy measurement; a t-test on values that barely vary would call a
    0.001 B difference "significant". Two sides are equal when their levels are within the
    tolerance, otherwise different, with no p-value beyond 0 or 1.
``IterationLevel``
    The fallback when a side has a single fork: no fork-to-fork variation can be measured,
    so iterations are treated as independent (what JMH's own error does). The interval is
    too narrow by an unknown factor; the result is flagged and should be rerun with forks.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Protocol

import numpy as np

from perfproof.model import Estimate, RatioBounds
from perfproof.model.diagnostics import ComparisonMethod
from perfproof.stats.forks import Forks, fork_means, moments
from perfproof.stats.ratio import ratio_or_difference
from perfproof.stats.welch import mean_interval

BYTES_TOLERANCE_ABS = 0.5
BYTES_TOLERANCE_REL = 0.001


@dataclass(frozen=True)
class Effect:
    """Ratio head/base with its interval and two-sided p-value (unadjusted)."""

    ratio: float
    lo: float
    hi: float
    p_value: float
    df: float

    @property
    def bounds(self) -> RatioBounds:
        """The interval as the type every later layer carries."""
        return RatioBounds(self.lo, self.hi)


class Strategy(Protocol):
    name: ComparisonMethod

    def summarize(self, forks: Forks, confidence: float) -> Estimate: ...

    def compare(self, base: Forks, head: Forks, confidence: float) -> Effect: ...


def _level(forks: Forks) -> float:
    """The side's estimate: the mean of fork means."""
    return moments(fork_means(forks))[1]


def _iterations(forks: Forks) -> int:
    if isinstance(forks, np.ndarray):
        return int(forks.size)
    return int(sum(len(f) for f in forks))


def _ratio_from_logs(x: np.ndarray, y: np.ndarray, confidence: float) -> Effect:
    """The log ratio (:mod:`perfproof.stats.ratio`), or its relative-difference fallback when a
    value is not positive; a baseline mean ≤ 0 has no ratio at all (``nan``, or ``inf`` when
    the head went from nothing to something)."""
    if x.size < 2 or y.size < 2:
        return Effect(_plain_ratio(x, y), 0.0, math.inf, 1.0, 0.0)
    r, non_positive = ratio_or_difference(x, y, confidence)
    if non_positive is None:
        return Effect(r.ratio, r.lo, r.hi, r.p_value, r.df)
    w = r.diff
    assert w is not None
    if w.se == 0.0 and w.diff == 0.0:
        return Effect(1.0, 1.0, 1.0, 1.0, w.df)
    base = float(np.mean(x))
    if base == 0 and float(np.mean(y)) > 0:
        # from nothing to something (e.g. 0 B/op to 24 B/op): no finite ratio, but a direction
        return Effect(math.inf, math.nan, math.nan, w.p_value, w.df)
    if base <= 0:
        return Effect(math.nan, math.nan, math.nan, w.p_value, w.df)
    return Effect(r.ratio, r.lo, r.hi, r.p_value, r.df)


def _plain_ratio(x: np.ndarray, y: np.ndarray) -> float:
    b, h = float(np.mean(x)), float(np.mean(y))
    if b == 0:
        return 1.0 if h == 0 else math.inf
    return h / b


class ForkLevel:
    """Fork means as the unit; Welch on log fork means (needs two forks per side)."""

    name = ComparisonMethod.FORK_LEVEL

    def summarize(self, forks: Forks, confidence: float) -> Estimate:
        mi = mean_interval(fork_means(forks), confidence)
        return Estimate(mi.mean, (mi.lo, mi.hi), len(forks), _iterations(forks))

    def compare(self, base: Forks, head: Forks, confidence: float) -> Effect:
        return _ratio_from_logs(fork_means(base), fork_means(head), confidence)


class IterationLevel:
    """Iterations pooled as if independent; only when a side has one fork. Too narrow."""

    name = ComparisonMethod.ITERATION_LEVEL

    def summarize(self, forks: Forks, confidence: float) -> Estimate:
        mi = mean_interval(np.concatenate(forks), confidence)
        return Estimate(mi.mean, (mi.lo, mi.hi), len(forks), _iterations(forks))

    def compare(self, base: Forks, head: Forks, confidence: float) -> Effect:
        return _ratio_from_logs(np.concatenate(base), np.concatenate(head), confidence)


def bytes_tolerance(level: float) -> float:
    """0.5 B or 0.1% of the level, whichever is larger."""
    return max(BYTES_TOLERANCE_ABS, BYTES_TOLERANCE_REL * abs(level))


def is_near_deterministic(forks: Forks) -> bool:
    """Every value within the bytes tolerance of the side's level."""
    values = np.concatenate(forks)
    level = _level(forks)
    return float(values.max() - values.min()) <= bytes_tolerance(level)


class Exact:
    """Equal within 0.5 B or 0.1%, else different; for near-deterministic bytes/op."""

    name = ComparisonMethod.EXACT

    def summarize(self, forks: Forks, confidence: float) -> Estimate:
        values = np.concatenate(forks)
        level = _level(forks)
        return Estimate(
            level, (float(values.min()), float(values.max())), len(forks), _iterations(forks)
        )

    def compare(self, base: Forks, head: Forks, confidence: float) -> Effect:
        b = _level(base)
        h = _level(head)
        differs = abs(h - b) > bytes_tolerance(max(abs(b), abs(h)))
        ratio = _plain_ratio(np.array([b]), np.array([h]))
        if not differs:
            ratio = 1.0 if b <= BYTES_TOLERANCE_ABS else ratio
        return Effect(ratio, ratio, ratio, 0.0 if differs else 1.0, math.inf)


FORK_LEVEL = ForkLevel()
ITERATION_LEVEL = IterationLevel()
EXACT = Exact()


def choose(base: Forks, head: Forks, is_bytes: bool) -> Strategy:
    """Exact for near-deterministic bytes, fork-level with two or more forks per side,
    otherwise the flagged iteration-level fallback."""
    if is_bytes and is_near_deterministic(base) and is_near_deterministic(head):
        return EXACT
    if len(base) >= 2 and len(head) >= 2:
        return FORK_LEVEL
    return ITERATION_LEVEL
