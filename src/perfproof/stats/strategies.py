"""The rules beside the fork-level methods: exact bytes/op, and the one-fork fallback.

Each is a comparison method of the protocol (:mod:`perfproof.stats.method`) that a sequential
design never looks with (the design looks with its fork-level method) and that has no batch
path or power of its own:

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

The fork-level methods (Welch's t on log fork means, :mod:`perfproof.stats.fork_welch`; the
rank method, :mod:`perfproof.stats.fork_ranks`) share :func:`ratio_from_logs` and
:func:`iterations` from here.
"""

from __future__ import annotations

import math

import numpy as np

from perfproof.model import Estimate
from perfproof.model.bounds import log_bound
from perfproof.model.diagnostics import ComparisonMethod, Note
from perfproof.stats import method_notes
from perfproof.stats.forks import Forks, fork_means, moments
from perfproof.stats.method import Effect, LookStats
from perfproof.stats.ratio import ratio_or_difference
from perfproof.stats.sequential_levels import Levels, Schedule
from perfproof.stats.welch import at_level, mean_interval, t_critical

BYTES_TOLERANCE_ABS = 0.5
BYTES_TOLERANCE_REL = 0.001


def _level(forks: Forks) -> float:
    """The side's estimate: the mean of fork means."""
    return moments(fork_means(forks))[1]


def iterations(forks: Forks) -> int:
    """Measurement iterations of a side, all forks together."""
    if isinstance(forks, np.ndarray):
        return int(forks.size)
    return int(sum(len(f) for f in forks))


def ratio_from_logs(x: np.ndarray, y: np.ndarray, confidence: float) -> Effect:
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


def welch_at_level(effect: Effect, nominal: float, confidence: float) -> Effect:
    """A Welch effect computed at ``nominal`` with its interval at ``confidence``.

    Both the log ratio (an interval symmetric in log space) and the relative-difference
    fallback (symmetric in linear space) are Welch intervals, so widening is a ratio of two t
    quantiles at the same degrees of freedom; which space applies is read off the interval.
    """
    e = effect
    values = (e.ratio, e.lo, e.hi, e.df)
    if math.isclose(confidence, nominal) or not all(math.isfinite(v) for v in values):
        return e
    if e.df <= 0 or e.hi <= e.lo:
        return e
    scale = t_critical(confidence, e.df) / t_critical(nominal, e.df)
    if e.lo > 0 and e.ratio > 0:
        log_lo, log_hi = e.bounds.logs()
        if math.isclose((log_lo + log_hi) / 2, log_bound(e.ratio), rel_tol=1e-9, abs_tol=1e-12):
            lo, hi = e.bounds.widened(e.ratio, scale)
            return Effect(e.ratio, lo, hi, e.p_value, e.df)
    half = (e.hi - e.lo) / 2 * scale
    return Effect(e.ratio, e.ratio - half, e.ratio + half, e.p_value, e.df)


class WithoutLooks:
    """What a rule that never looks, has no batch path and no power says to those questions:
    a sequential design looks with its fork-level method, so these are never asked of it."""

    in_family = True
    plain = False
    describes_ratio = False
    has_power = False

    def compare_rows(
        self, base: np.ndarray, head: np.ndarray, confidence: float
    ) -> list[Effect] | None:
        return None

    def look(
        self,
        log_base: list[np.ndarray],
        log_head: list[np.ndarray],
        groups: list[str] | None,
        schedule: Schedule,
    ) -> LookStats:
        raise TypeError(f"{self} does not look: a design looks with its fork-level method")

    def levels(self, schedule: Schedule) -> Levels:
        raise TypeError(f"{self} does not look: a design looks with its fork-level method")

    def mde_log(self, fork_var: float, forks: int, alpha: float) -> float:
        return math.inf

    def forks_needed(self, fork_var: float, threshold: float, alpha: float) -> int:
        raise TypeError(f"{self} has no power analysis")

    def fork_var_for(self, mde_log: float, forks: int, alpha: float) -> float:
        return math.inf

    def words(self) -> str:
        return ""

    def interval_words(self) -> str:
        return ""

    def look_words(self, alpha: float, schedule: Schedule) -> str:
        return ""

    def caveat(self, count: int) -> str:
        return ""


def t_side_at_level(side: Estimate, n: int, nominal: float, level: float) -> tuple[float, float]:
    """A side's Student-t interval over ``n`` values (fork means, or pooled iterations) at
    ``level`` instead of ``nominal``; as it is with fewer than two values."""
    if n < 2:
        return side.ci
    return at_level(side.value, side.ci[0], side.ci[1], float(n - 1), nominal, level)


def _plain_ratio(x: np.ndarray, y: np.ndarray) -> float:
    b, h = float(np.mean(x)), float(np.mean(y))
    if b == 0:
        return 1.0 if h == 0 else math.inf
    return h / b


class IterationLevel(WithoutLooks):
    """Iterations pooled as if independent; only when a side has one fork. Too narrow."""

    name = ComparisonMethod.ITERATION_LEVEL
    summary = "iterations pooled as if independent, when a side has one fork (too narrow)"
    at_looks = ComparisonMethod.ITERATION_LEVEL_SEQUENTIAL

    def summarize(self, forks: Forks, confidence: float) -> Estimate:
        mi = mean_interval(np.concatenate(forks), confidence)
        return Estimate(mi.mean, (mi.lo, mi.hi), len(forks), iterations(forks))

    def compare(self, base: Forks, head: Forks, confidence: float) -> Effect:
        return ratio_from_logs(np.concatenate(base), np.concatenate(head), confidence)

    def at_level(self, effect: Effect, nominal: float, confidence: float) -> Effect:
        return welch_at_level(effect, nominal, confidence)

    def side_at_level(self, side: Estimate, nominal: float, level: float) -> tuple[float, float]:
        return t_side_at_level(side, side.iterations, nominal, level)

    def notes(self, base_forks: int, head_forks: int, is_bytes: bool, alpha: float) -> list[Note]:
        return [method_notes.one_fork(base_forks, head_forks)]

    def tag(self, fewest_forks: int) -> str | None:
        return "1 fork"

    def caveat(self, count: int) -> str:
        if not count:
            return ""
        return (
            f" {count} comparison{'s' if count != 1 else ''} had a single fork on a side,"
            " so iterations were pooled as if independent; those intervals are too narrow and"
            " are flagged under Warnings."
        )


def bytes_tolerance(level: float) -> float:
    """0.5 B or 0.1% of the level, whichever is larger."""
    return max(BYTES_TOLERANCE_ABS, BYTES_TOLERANCE_REL * abs(level))


def is_near_deterministic(forks: Forks, rel: float = BYTES_TOLERANCE_REL) -> bool:
    """Every value within the bytes tolerance (``rel`` of the side's level, at least 0.5 B) of
    the side's level."""
    values = np.concatenate(forks)
    level = _level(forks)
    return float(values.max() - values.min()) <= max(BYTES_TOLERANCE_ABS, rel * abs(level))


SETTLED_BESIDE_ZERO_REL = 0.01
"""How far a side's bytes/op may spread and still be compared exactly with a side that allocates
nothing. JMH amortises its own per-iteration allocations over the iteration's operations, so on
a loaded machine (fewer operations an iteration) a 6,400 B/op benchmark reads 6,401–6,417 and an
allocation-free one 0.0007–0.035: on a log scale the second side's forks spread ×50, and a
fork-level interval of ×2e-9…×80 would leave 6,400 → 0 undecided."""


def is_allocation_free(forks: Forks) -> bool:
    """Every value within 0.5 B of nothing."""
    return float(np.abs(np.concatenate(forks)).max()) <= BYTES_TOLERANCE_ABS


def exact_applies(base: Forks, head: Forks) -> bool:
    """Bytes/op compared by the exact rule: both sides near-deterministic, or one side
    allocating nothing and the other settled within 1% of its level."""
    if is_near_deterministic(base) and is_near_deterministic(head):
        return True
    return any(
        is_allocation_free(free) and is_near_deterministic(other, SETTLED_BESIDE_ZERO_REL)
        for free, other in ((base, head), (head, base))
    )


class Exact(WithoutLooks):
    """Equal within 0.5 B or 0.1%, else different; for near-deterministic bytes/op."""

    name = ComparisonMethod.EXACT
    summary = "equal within 0.5 B or 0.1%, else different, for near-deterministic bytes/op"
    at_looks = ComparisonMethod.EXACT
    in_family = False
    plain = True

    def summarize(self, forks: Forks, confidence: float) -> Estimate:
        values = np.concatenate(forks)
        level = _level(forks)
        return Estimate(
            level, (float(values.min()), float(values.max())), len(forks), iterations(forks)
        )

    def compare(self, base: Forks, head: Forks, confidence: float) -> Effect:
        b = _level(base)
        h = _level(head)
        differs = abs(h - b) > bytes_tolerance(max(abs(b), abs(h)))
        ratio = _plain_ratio(np.array([b]), np.array([h]))
        if not differs:
            ratio = 1.0 if b <= BYTES_TOLERANCE_ABS else ratio
        return Effect(ratio, ratio, ratio, 0.0 if differs else 1.0, math.inf)

    def at_level(self, effect: Effect, nominal: float, confidence: float) -> Effect:
        return effect

    def side_at_level(self, side: Estimate, nominal: float, level: float) -> tuple[float, float]:
        return side.ci

    def notes(self, base_forks: int, head_forks: int, is_bytes: bool, alpha: float) -> list[Note]:
        return [method_notes.exact()]

    def tag(self, fewest_forks: int) -> str | None:
        return "exact"


ITERATION_LEVEL = IterationLevel()
EXACT = Exact()
