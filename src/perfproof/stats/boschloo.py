"""Boschloo's exact test on a 2×2 table, two-sided, as SciPy defines it, in milliseconds.

Boschloo's p-value is the largest chance, over the nuisance share π both columns draw from
under the null, of a table whose one-sided Fisher p-value is at most the observed one; the
two-sided p-value is twice the smaller one-sided one (clipped to 1), SciPy's convention
(:func:`scipy.stats.boschloo_exact`). SciPy finds the largest chance with a general global
optimiser (``shgo``), about 50 ms a table; the bimodal rule asks it of every distinct table a
look meets, and the simulations behind its calibration meet thousands. Here the chance is a
polynomial in π, ``Σ_k w_k π^k (1 − π)^(N − k)`` with ``w_k`` summed over the tables in the
region, so it is evaluated on a fine grid of π at once and its highest peaks are refined by zooming
in: the same maximum to about 10⁻¹² of its value, in about a millisecond.
"""

from __future__ import annotations

import functools
import math

import numpy as np

GRID = 513
"""Points of π in [0, 1] the chance is evaluated at before its peaks are refined: a column of
a few dozen forks gives a peak about 0.1 wide, dozens of points across."""
PEAKS = 3
"""Separate local maxima of the grid refined, highest first."""
ZOOMS = 3
"""Refinements of each peak, each 128 times finer: 1/256 of [0, 1] down to about 10⁻⁹, where
the chance is flat to about 10⁻¹⁵ of its value."""
NEAR_BEST = 0.9
"""A grid peak below this share of the highest grid point is not refined: for columns of up
to a few hundred forks the grid is fine enough that refining lifts a peak by less than 10%."""
FISHER_TIE = 1e-13
"""Relative tolerance under which two Fisher p-values count as equal (SciPy's guard)."""


def boschloo_two_sided(table: tuple[int, int, int, int]) -> float:
    """Two-sided Boschloo p-value of ``[[a, c], [b, d]]`` given as ``(a, b, c, d)``: column
    one is ``(a, b)``, column two ``(c, d)``; NaN when a column is empty, as SciPy says."""
    a, b, c, d = table
    n1, n2 = a + b, c + d
    if n1 == 0 or n2 == 0:
        return math.nan
    less, greater, weights = _fisher_one_sided(n1, n2)
    one_sided = min(
        _largest_chance(less <= less[a, c] * (1 + FISHER_TIE), weights),
        _largest_chance(greater <= greater[a, c] * (1 + FISHER_TIE), weights),
    )
    return float(np.clip(2 * one_sided, 0.0, 1.0))


def _fisher_one_sided(n1: int, n2: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For every table ``[x1, x2]`` with column sums ``n1``, ``n2``: Fisher's one-sided
    p-values (the hypergeometric chance, given the row sum ``x1 + x2``, of ``x1`` or fewer,
    and of ``x1`` or more) and the binomial weight ``C(n1, x1)·C(n2, x2)`` of the table."""
    comb1 = np.array([math.comb(n1, k) for k in range(n1 + 1)], dtype=float)
    comb2 = np.array([math.comb(n2, k) for k in range(n2 + 1)], dtype=float)
    weights = comb1[:, None] * comb2[None, :]
    total = n1 + n2
    rows = np.arange(n1 + 1)[:, None]
    drawn = rows + np.arange(n2 + 1)[None, :]  # the row sum x1 + x2 of each table
    # by_sum[x1, m]: the weight of the table with x1 in column one and row sum m (0 if none)
    by_sum = np.zeros((n1 + 1, total + 1))
    by_sum[np.broadcast_to(rows, drawn.shape), drawn] = weights
    by_sum /= by_sum.sum(axis=0, keepdims=True)  # the hypergeometric law of x1 given m
    at_most = np.cumsum(by_sum, axis=0)
    at_least = np.cumsum(by_sum[::-1], axis=0)[::-1]
    cols = np.broadcast_to(rows, drawn.shape)
    return at_most[cols, drawn], at_least[cols, drawn], weights


def _largest_chance(region: np.ndarray, weights: np.ndarray) -> float:
    """The largest chance over π of the tables in ``region`` (a mask over ``[x1, x2]``): each
    table has the chance ``weight · π^(x1+x2) · (1 − π)^(N − x1 − x2)``."""
    n1, n2 = region.shape[0] - 1, region.shape[1] - 1
    total = n1 + n2
    drawn = np.arange(n1 + 1)[:, None] + np.arange(n2 + 1)[None, :]
    w = np.bincount(drawn.ravel(), weights=np.where(region, weights, 0.0).ravel(),
                    minlength=total + 1)  # fmt: skip
    k = np.arange(total + 1)

    def chance(pi: np.ndarray) -> np.ndarray:
        terms: np.ndarray = pi[:, None] ** k * (1.0 - pi[:, None]) ** (total - k)
        return terms @ w

    grid = np.linspace(0.0, 1.0, GRID)
    values = _basis(total) @ w
    # the grid's local maxima, highest first; a region's chance may have two peaks
    inner = np.flatnonzero((values[1:-1] > values[:-2]) & (values[1:-1] >= values[2:])) + 1
    peaks = sorted({0, GRID - 1, *inner.tolist()}, key=lambda i: -values[i])
    best = float(values[peaks[0]])
    refined: list[int] = []
    for i in peaks:
        if len(refined) == PEAKS or best >= 1.0:
            break
        if values[i] < NEAR_BEST * values[peaks[0]] or any(abs(i - j) <= 2 for j in refined):
            continue  # far below the best, or a wiggle of a peak already refined
        refined.append(i)
        lo, hi = grid[max(i - 1, 0)], grid[min(i + 1, GRID - 1)]
        for _ in range(ZOOMS):  # each zoom narrows the bracket of the peak 128-fold
            pts = np.linspace(lo, hi, 257)
            vals = chance(pts)
            j = int(np.argmax(vals))
            best = max(best, float(vals[j]))
            lo, hi = pts[max(j - 1, 0)], pts[min(j + 1, 256)]
    return min(best, 1.0)


@functools.lru_cache(maxsize=128)
def _basis(total: int) -> np.ndarray:
    """``π^k (1 − π)^(total − k)`` on the grid of π (rows) for every k (columns)."""
    pi = np.linspace(0.0, 1.0, GRID)[:, None]
    k = np.arange(total + 1)[None, :]
    return pi**k * (1.0 - pi) ** (total - k)
