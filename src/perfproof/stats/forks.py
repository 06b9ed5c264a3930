"""Fast views of a side's forks: the fork means and, when forks are equally long, a matrix.

A large suite compares thousands of keys, each with a handful of short forks; per-fork
numpy calls dominate the run time there, so the common case (every fork has the same number
of iterations) is handled as one 2-D array.
"""

from __future__ import annotations

import math

import numpy as np

Forks = list[np.ndarray] | np.ndarray
"""A side's forks: a list of iteration arrays, or a (forks × iterations) matrix whose rows are
the forks (what ``compare`` passes when every fork has the same length)."""


def stack(forks: Forks) -> np.ndarray | None:
    """Forks as a (forks × iterations) array, or None when their lengths differ."""
    if isinstance(forks, np.ndarray) and forks.ndim == 2:
        return forks
    if not len(forks):
        return None
    n = len(forks[0])
    if any(len(f) != n for f in forks):
        return None
    return np.array(forks, dtype=float)


def fork_means(forks: Forks) -> np.ndarray:
    """The mean of each fork."""
    matrix = stack(forks)
    if matrix is not None:
        return np.asarray(matrix.sum(axis=1) / matrix.shape[1], dtype=float)
    return np.array([float(np.mean(f)) for f in forks], dtype=float)


def moments(x: np.ndarray) -> tuple[int, float, float]:
    """Size, mean and sample variance (ddof=1; 0 for one value) with few array operations:
    this runs several times for every key of a large suite, on arrays of a few values."""
    n = int(x.size)
    if n == 0:
        return 0, math.nan, math.nan
    mean = float(x.sum()) / n
    if n == 1:
        return 1, mean, 0.0
    d = x - mean
    return n, mean, float(np.dot(d, d)) / (n - 1)


def as_matrix_or_list(forks: Forks) -> Forks:
    """The matrix form when the forks allow it (one array op per statistic), else the list."""
    matrix = stack(forks)
    return matrix if matrix is not None else list(forks)
