"""Measurement iterations that were still warming up, and slow drifts inside forks.

JMH's warm-up count is a guess; when it is too short the first measurement iterations of a
fork sit far from the rest (real runs show 16 µs/op for three iterations, then 0.4 µs/op),
and a fork mean that includes them says more about the JIT than about the code. The step
detector finds the longest leading run of iterations that all lie on one side of, and far
from, the rest of the fork, using robust statistics of the rest so the outliers themselves
do not widen the yardstick. The trend detector looks for a consistent drift across forks.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence

import numpy as np

from perfproof.stats.forks import stack

MAX_PREFIX_FRACTION = 0.5
ROBUST_SDS = 6.0
MIN_RELATIVE_STEP = 0.10
MIN_RELATIVE_NOISE = 0.005


def worse_for(higher_is_better: bool) -> str:
    """The side of the settled level a warm-up iteration lies on: below it for throughput
    (higher is better), above it for time and bytes per op."""
    return "below" if higher_is_better else "above"


def unsettled_prefix(fork: np.ndarray, worse: str = "either") -> int:
    """Number of leading iterations that all lie beyond every later iteration, and far away.

    "Far" means more than six robust standard deviations and more than 10% from the median
    of the later iterations. ``worse`` restricts the side: ``"above"`` for lower-is-better
    metrics (warm-up makes time per op high), ``"below"`` for throughput, ``"either"``.
    At most half the fork can be unsettled; a shorter rest says nothing about a level.
    Plain Python on purpose: forks are short and this runs for every fork of every key.
    """
    x = [float(v) for v in fork]
    n = len(x)
    k_max = int(n * MAX_PREFIX_FRACTION)
    if n < 3 or k_max < 1:
        return 0
    tail = x[k_max:]
    # any unsettled prefix starts with a value beyond the whole second half
    may_be_above = worse != "below" and x[0] > max(tail)
    may_be_below = worse != "above" and x[0] < min(tail)
    if not (may_be_above or may_be_below):
        return 0
    # running extremes: head_min[k] = min(x[:k]), rest_max[k] = max(x[k:]), and so on
    head_min, head_max = list(itertools.accumulate(x, min)), list(itertools.accumulate(x, max))
    rest_max = list(itertools.accumulate(reversed(x), max))[::-1]
    rest_min = list(itertools.accumulate(reversed(x), min))[::-1]
    for k in range(k_max, 0, -1):
        above = may_be_above and head_min[k - 1] > rest_max[k]
        below = may_be_below and head_max[k - 1] < rest_min[k]
        if not (above or below):
            continue
        rest = x[k:]
        centre = _median(rest)
        if centre == 0:
            continue
        mad = _median([abs(v - centre) for v in rest]) * 1.4826
        spread = max(mad, MIN_RELATIVE_NOISE * abs(centre))
        gap = max(ROBUST_SDS * spread, MIN_RELATIVE_STEP * abs(centre))
        if (above and head_min[k - 1] - centre > gap) or (below and centre - head_max[k - 1] > gap):
            return k
    return 0


def _median(values: list[float]) -> float:
    s = sorted(values)
    mid = len(s) // 2
    return s[mid] if len(s) % 2 else (s[mid - 1] + s[mid]) / 2.0


def may_be_unsettled(values: np.ndarray, worse: str = "either") -> np.ndarray:
    """Forks (rows of (…, forks, iterations), at least 3 iterations) whose first iteration
    lies beyond their whole second half: the only ones that can have an unsettled prefix."""
    k_max = int(values.shape[-1] * MAX_PREFIX_FRACTION)
    first, tail = values[..., 0], values[..., k_max:]
    candidate = np.zeros(first.shape, dtype=bool)
    if worse != "below":
        candidate |= first > tail.max(axis=-1)
    if worse != "above":
        candidate |= first < tail.min(axis=-1)
    return candidate


def unsettled_prefixes(forks: list[np.ndarray] | np.ndarray, worse: str = "either") -> list[int]:
    """``unsettled_prefix`` of every fork, skipping at once the forks whose first iteration
    is not beyond their whole second half (a necessary condition, checked as one array op)."""
    matrix = stack(forks)
    if matrix is None or matrix.shape[1] < 3:
        return [unsettled_prefix(f, worse) for f in forks]
    candidate = may_be_unsettled(matrix, worse)
    return [
        unsettled_prefix(row, worse) if c else 0 for row, c in zip(matrix, candidate, strict=True)
    ]


def unwarmed(forks: list[np.ndarray] | np.ndarray, worse: str = "either") -> list[bool]:
    """Per fork: did it start unsettled (a leading run of iterations far from the rest)?

    The sequential design leaves such a fork out of its look and runs it again. The judgement
    uses nothing but the fork's own iteration trace, never the other forks of its side or the
    other side: a rule blind to the side cannot favour one, so under A/A the forks it drops
    are a random subset of both sides and the error guarantee of the design is kept (the
    simulations in tests/stats/test_sequential_sim.py drop 5% and 10% of forks this way, and
    run this very detector on iteration traces with planted slow starts).
    """
    return [k > 0 for k in unsettled_prefixes(forks, worse)]


def warmed_before(warmup: Sequence[float], steady: float, higher_is_better: bool) -> bool:
    """Whether a fork's warm-up had reached its steady level before it measured: its last
    warm-up iteration no further than :data:`MIN_RELATIVE_STEP` on the worse side of the
    ``steady`` level (the median of its settled measurement iterations). Such a fork's slow
    first measurement iterations are a dip after warm-up (a GC, a deoptimisation, another
    process), not the warm-up the step detector takes them for."""
    if not warmup or not math.isfinite(steady) or steady <= 0:
        return False
    last = float(warmup[-1])
    if higher_is_better:
        return last >= steady * (1.0 - MIN_RELATIVE_STEP)
    return last <= steady * (1.0 + MIN_RELATIVE_STEP)


def trim(forks: list[np.ndarray], prefixes: list[int]) -> list[np.ndarray]:
    """The forks without their unsettled leading iterations."""
    return [np.asarray(f)[k:] for f, k in zip(forks, prefixes, strict=True)]


MIN_TREND_ITERATIONS = 5
MIN_DRIFT = 0.02
MIN_SLOPE_T = 3.0


def slopes(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Relative drift over each fork (log slope × span) and |t| of the slope, along the last
    axis of positive ``values`` shaped (…, iterations); vectorised over leading axes."""
    y = np.log(values)
    n = y.shape[-1]
    x = np.arange(n, dtype=float) - (n - 1) / 2.0
    sxx = float((x * x).sum())
    yc = y - y.mean(axis=-1, keepdims=True)
    slope = (yc * x).sum(axis=-1) / sxx
    resid = yc - slope[..., None] * x
    se = np.sqrt((resid * resid).sum(axis=-1) / (n - 2) / sxx)
    # a perfect line has no residual: its slope is certain (|t| = inf)
    t = np.divide(np.abs(slope), se, out=np.full_like(se, math.inf), where=se > 0)
    return slope * (n - 1), t


def trending_rows(
    values: np.ndarray, min_drift: float = MIN_DRIFT, min_t: float = MIN_SLOPE_T
) -> np.ndarray:
    """``is_trending`` for positive values shaped (…, forks, iterations), over leading axes."""
    forks, n = values.shape[-2], values.shape[-1]
    if forks < 2 or n < MIN_TREND_ITERATIONS:
        return np.zeros(values.shape[:-2], dtype=bool)
    d, t = slopes(values)
    same_sign = (d > 0).all(axis=-1) | (d < 0).all(axis=-1)
    drifting = same_sign & (np.abs(np.median(d, axis=-1)) > min_drift)
    return np.asarray(drifting & (np.median(t, axis=-1) > min_t))


def drift(forks: list[np.ndarray]) -> tuple[float, float] | None:
    """Median relative drift over a fork and median |t| of the per-fork slopes.

    Returns ``None`` when fewer than two forks have at least five positive iterations or
    when the forks disagree on the drift's sign (then it is noise, not warm-up).
    """
    usable = [
        np.asarray(f, dtype=float)
        for f in forks
        if len(f) >= MIN_TREND_ITERATIONS and np.all(np.asarray(f) > 0)
    ]
    if len(usable) < 2:
        return None
    pairs = [slopes(f) for f in usable]
    d = np.array([float(p[0]) for p in pairs])
    if not (np.all(d > 0) or np.all(d < 0)):
        return None
    return float(np.median(d)), float(np.median([float(p[1]) for p in pairs]))


def is_trending(
    forks: list[np.ndarray], min_drift: float = MIN_DRIFT, min_t: float = MIN_SLOPE_T
) -> bool:
    """Every fork drifts the same way by more than 2% with a clear slope (median |t| > 3)."""
    matrix = stack(forks)
    if matrix is not None and bool((matrix > 0).all()):
        return bool(trending_rows(matrix, min_drift, min_t))
    result = drift(forks)
    if result is None:
        return False
    d, t = result
    return abs(d) > min_drift and t > min_t
