"""E-divisive means: where a series' distribution shifts, with a permutation test (numpy only).

The statistic (Matteson & James, 2014, with exponent 1) compares, for a split of a segment
into left and right, the mean distance across the split with the mean distances inside each
side; it is large where the two sides differ in level and it needs no assumption about the
noise's shape, which suits benchmark results whose run-to-run spread is skewed by noisy CI
machines. Splits are found one at a time (the segment with the strongest split first) and each
is kept only if a permutation test says a split that strong is rare when the segment's values
are shuffled; the first split that fails ends the search.

The permutations are drawn from a seeded generator: the same series always gives the same
change points, which a nightly job comparing yesterday's answer with today's relies on.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import numpy as np

DEFAULT_PERMUTATIONS = 199
DEFAULT_P_MAX = 0.01
DEFAULT_MIN_SIZE = 3
_CELLS = 4_000_000
"""Most matrix cells one batch of shuffled distance matrices may hold (≈ 32 MB of floats)."""


@dataclass(frozen=True)
class Split:
    """A change point: the index of the first value after the shift, and its test."""

    index: int
    statistic: float
    p_value: float


def split_statistics(x: np.ndarray, min_size: int = DEFAULT_MIN_SIZE) -> np.ndarray:
    """The e-divisive statistic of every split τ of ``x`` (NaN where a side is too short).

    Uses 2-D prefix sums of the distance matrix, so all splits cost one O(n²) pass.
    """
    return _statistics(np.abs(x[:, None] - x[None, :]), min_size)


def _statistics(dist: np.ndarray, min_size: int) -> np.ndarray:
    """The statistic of every split for one distance matrix ``(n, n)`` or a stack ``(r, n, n)``
    (the permutations, all at once); NaN where a side would be shorter than ``min_size``."""
    n = dist.shape[-1]
    out = np.full((*dist.shape[:-2], n + 1), np.nan)
    if n < 2 * min_size:
        return out
    prefix = np.zeros((*dist.shape[:-2], n + 1, n + 1))
    prefix[..., 1:, 1:] = dist.cumsum(axis=-2).cumsum(axis=-1)
    tau = np.arange(min_size, n - min_size + 1)
    m = tau.astype(float)
    k = (n - tau).astype(float)
    left = prefix[..., tau, tau]
    across = prefix[..., tau, n]
    cross = across - left
    right = prefix[..., n, n][..., None] - 2.0 * across + left
    out[..., tau] = (m * k / (m + k)) * (
        2.0 * cross / (m * k) - left / (m * (m - 1.0)) - right / (k * (k - 1.0))
    )
    return out


def _best(dist: np.ndarray, min_size: int) -> tuple[int, float]:
    stats = _statistics(dist, min_size)
    if np.all(np.isnan(stats)):
        return -1, float("nan")
    index = int(np.nanargmax(stats))
    return index, float(stats[index])


def _permutation_p(
    x: np.ndarray, observed: float, min_size: int, permutations: int, rng: np.random.Generator
) -> float:
    """Share of shuffles whose best split is at least as strong (counting the data itself)."""
    dist = np.abs(x[:, None] - x[None, :])
    orders = np.argsort(rng.random((permutations, x.size)), axis=1)
    chunk = max(1, _CELLS // (x.size + 1) ** 2)  # bounded memory for long series
    hits = 0
    for start in range(0, permutations, chunk):
        part = orders[start : start + chunk]
        shuffled = dist[part[:, :, None], part[:, None, :]]
        best = np.nanmax(_statistics(shuffled, min_size), axis=1)
        hits += int(np.count_nonzero(best >= observed - 1e-12 * abs(observed)))
    return (hits + 1) / (permutations + 1)


def change_points(
    values: np.ndarray,
    *,
    seed: int = 0,
    permutations: int = DEFAULT_PERMUTATIONS,
    p_max: float = DEFAULT_P_MAX,
    min_size: int = DEFAULT_MIN_SIZE,
) -> list[Split]:
    """The significant change points of ``values``, sorted by index."""
    x = np.asarray(values, dtype=float)
    rng = np.random.default_rng(seed)
    bounds = [0, x.size]
    found: list[Split] = []
    while True:
        best: tuple[float, int, int, int] | None = None  # (statistic, split, start, end)
        for start, end in itertools.pairwise(bounds):
            segment = x[start:end]
            index, stat = _best(np.abs(segment[:, None] - segment[None, :]), min_size)
            if index >= 0 and np.isfinite(stat) and (best is None or stat > best[0]):
                best = (stat, start + index, start, end)
        if best is None:
            return sorted(found, key=lambda s: s.index)
        stat, index, start, end = best
        p = _permutation_p(x[start:end], stat, min_size, permutations, rng)
        if p > p_max:
            return sorted(found, key=lambda s: s.index)
        found.append(Split(index, stat, p))
        bounds = sorted([*bounds, index])
