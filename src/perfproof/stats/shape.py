"""Measurements that fall into two groups (bimodal forks or iterations).

A JIT can settle into one of two code shapes per JVM (inlined or not, a different loop
unrolling), so fork means sometimes cluster around two levels. A mean of fork means is then
an average of two different programs, and its interval depends on how many forks landed in
each group by chance. Detecting the split lets the report say so instead of hiding it.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

SPLIT_MIN_VALUES = 4
"""Values (fork means, or a side's iterations) below which no split into two groups is looked
for: two groups of :data:`MIN_GROUP` each."""
MIN_GROUP = 2
MIN_SEPARATION = 5.0
MIN_RELATIVE_GAP = 0.03
ITERATION_RELATIVE_GAP = 0.5
"""Iterations are noisier than fork means: only a jump of 50% or more counts as two levels."""


@dataclass(frozen=True)
class Split:
    low_level: float
    high_level: float
    low_count: int
    high_count: int


def bimodal_split(values: np.ndarray, min_relative_gap: float = MIN_RELATIVE_GAP) -> Split | None:
    """The split at the widest gap of sorted log values, if it is clearly two groups.

    Used on fork means (forks that settled into two code shapes) and on all iterations of a
    side (iterations that jump between two levels inside forks). Two groups means: each has
    at least two values, the gap is more than ``min_relative_gap`` (3% by default) and more
    than five times the spread inside the groups.
    """
    means = np.sort(np.asarray(values, dtype=float))
    if means.size < SPLIT_MIN_VALUES or means[0] <= 0:
        return None
    if means[-1] <= means[0] * (1.0 + min_relative_gap):
        return None  # the whole range is narrower than the smallest gap that counts
    logs = np.log(means)
    gaps = np.diff(logs)
    # only splits that leave at least MIN_GROUP forks on each side
    candidates = gaps[MIN_GROUP - 1 : logs.size - MIN_GROUP]
    if candidates.size == 0:
        return None
    i = int(np.argmax(candidates)) + MIN_GROUP - 1
    low, high = logs[: i + 1], logs[i + 1 :]
    dof = low.size + high.size - 2
    pooled = np.sqrt((((low - low.mean()) ** 2).sum() + ((high - high.mean()) ** 2).sum()) / dof)
    gap = float(gaps[i])
    if gap < np.log1p(min_relative_gap) or gap < MIN_SEPARATION * max(float(pooled), 1e-3):
        return None
    return Split(
        float(np.exp(low.mean())), float(np.exp(high.mean())), int(low.size), int(high.size)
    )
