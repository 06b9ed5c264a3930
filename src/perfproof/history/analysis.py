"""From stored series to what a reader wants: each run's estimate with its fork-level interval,
and the shifts in a key's level with their size, interval and direction.

A run's estimate is the mean of its fork means with a Student-t interval over the fork means,
the same unit of replication ``compare`` uses: iterations inside one JVM share its JIT and
layout decisions, so they do not count as independent evidence.

A shift is found by e-divisive means on the runs' estimates (``edivisive``) and then sized by
Welch's t on the log estimates of the runs on either side, up to the neighbouring change
points. Only shifts whose interval excludes no change and whose size is beyond the practical
threshold are reported, each labelled ``regressed`` or ``improved`` by the metric's direction.
"""

from __future__ import annotations

import math
import zlib
from dataclasses import dataclass
from typing import Literal

import numpy as np

from perfproof import defaults
from perfproof.history import edivisive
from perfproof.history.store import Point, Series
from perfproof.model.bounds import bound_exp
from perfproof.stats.welch import mean_interval, welch
from perfproof.units import Scale, choose_scale


@dataclass(frozen=True)
class PointSummary:
    mean: float
    lo: float | None
    hi: float | None
    forks: int


def summarise(point: Point, confidence: float) -> PointSummary:
    """Mean of fork means with its interval; no interval (None) with a single fork."""
    means = point.fork_means()
    if means.size == 0:
        return PointSummary(math.nan, None, None, 0)
    iv = mean_interval(means, confidence)
    finite = math.isfinite(iv.lo) and math.isfinite(iv.hi)
    return PointSummary(iv.mean, iv.lo if finite else None, iv.hi if finite else None, iv.n)


@dataclass(frozen=True)
class Change:
    """A shift in a key's level that starts at ``points[index]``."""

    series: Series
    index: int
    before: float
    after: float
    ratio: float
    ratio_ci: tuple[float, float]
    p_value: float
    kind: Literal["regressed", "improved"]

    @property
    def point(self) -> Point:
        return self.series.points[self.index]

    @property
    def delta_pct(self) -> float:
        return (self.ratio - 1.0) * 100.0

    @property
    def delta_ci_pct(self) -> tuple[float, float]:
        return ((self.ratio_ci[0] - 1.0) * 100.0, (self.ratio_ci[1] - 1.0) * 100.0)


@dataclass(frozen=True)
class ChangeOptions:
    confidence: float = defaults.CONFIDENCE
    threshold: float = defaults.CHANGE_THRESHOLD
    p_max: float = edivisive.DEFAULT_P_MAX
    permutations: int = edivisive.DEFAULT_PERMUTATIONS
    seed: int = 0


def estimates(series: Series) -> np.ndarray:
    return np.array([float(np.mean(p.fork_means())) for p in series.points], dtype=float)


def key_scale(s: Series) -> Scale:
    """One unit for a key everywhere on the page (index, plot axis, tooltips, runs, shifts):
    the one its latest estimate reads best in."""
    values = [float(v) for v in estimates(s)]
    return choose_scale(s.unit, values[-1] if values else None)


def _series_seed(series: Series, seed: int) -> int:
    """A seed per key, so a key's answer does not depend on which other keys were selected."""
    return (seed * 1_000_003 + zlib.crc32(series.key.label().encode())) % (2**32)


def find_changes(series: Series, options: ChangeOptions) -> list[Change]:
    values = estimates(series)
    if values.size < 2 * edivisive.DEFAULT_MIN_SIZE or not np.all(values > 0):
        return []
    logs = np.log(values)
    splits = edivisive.change_points(
        logs,
        seed=_series_seed(series, options.seed),
        permutations=options.permutations,
        p_max=options.p_max,
    )
    bounds = [0, *(s.index for s in splits), values.size]
    out: list[Change] = []
    for number, split in enumerate(splits, start=1):
        before, after = (
            logs[bounds[number - 1] : split.index],
            logs[split.index : bounds[number + 1]],
        )
        w = welch(before, after, options.confidence)
        if not (math.isfinite(w.lo) and math.isfinite(w.hi)) or w.lo <= 0.0 <= w.hi:
            continue
        ratio = bound_exp(w.diff)
        if abs(ratio - 1.0) < options.threshold:
            continue
        worse = ratio > 1.0 if series.direction == "lower" else ratio < 1.0
        out.append(
            Change(
                series,
                split.index,
                float(np.exp(before.mean())),
                float(np.exp(after.mean())),
                ratio,
                (bound_exp(w.lo), bound_exp(w.hi)),
                split.p_value,
                "regressed" if worse else "improved",
            )
        )
    return out
