"""Fork-to-fork and iteration-to-iteration variation of one side, in relative (log) terms.

Kalibera and Jones model a JVM benchmark as two nested random levels: each fork (JVM
invocation) draws its own level from JIT decisions, heap layout and code alignment, and the
iterations inside it scatter around that level. Which level dominates decides what to buy
more of: iterations cannot average away a fork effect. Working in logs makes the components
relative, so they mean the same for a 2 ns and a 2 ms benchmark.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from perfproof.stats.forks import fork_means, moments, stack


@dataclass(frozen=True)
class Components:
    """Variance components of log values.

    ``fork_means_var`` is the observed variance of log fork means (what the fork-level test
    uses); ``within`` the pooled within-fork variance of log iterations; ``between`` the
    fork-level component left after removing the iteration noise that fork means carry.
    """

    forks: int
    iterations: float
    fork_means_var: float
    within: float
    between: float

    @property
    def between_share(self) -> float:
        """Share of the total (single-iteration) variance that is between forks."""
        total = self.between + self.within
        return self.between / total if total > 0 else 0.0


def log_fork_means(forks: list[np.ndarray]) -> np.ndarray:
    """Log of each fork's mean (the fork-level unit of a ratio comparison)."""
    return np.asarray(np.log(fork_means(forks)))


def components(forks: list[np.ndarray]) -> Components:
    """One-way random-effects decomposition of log iteration values (method of moments)."""
    matrix = stack(forks)
    if matrix is None:
        forks = [f for f in forks if len(f)]
    k = len(forks)
    if matrix is not None and k >= 2:
        rows = log_components(matrix)
        return Components(k, float(matrix.shape[1]), *(float(x) for x in rows))
    if matrix is not None:
        logs = np.log(matrix)
        n_bar = float(matrix.shape[1])
        dof_within = float(k * (matrix.shape[1] - 1))
        ss_within = float(((logs - logs.mean(axis=1, keepdims=True)) ** 2).sum())
    else:
        sizes = np.array([len(f) for f in forks], dtype=float)
        n_bar = float(sizes.mean()) if k else 0.0
        dof_within = float((sizes - 1).sum())
        ss_within = float(sum(((np.log(f) - np.log(f).mean()) ** 2).sum() for f in forks))
    within = ss_within / dof_within if dof_within > 0 else 0.0
    if k >= 2:
        fm_var = moments(log_fork_means(forks))[2]
        between = max(0.0, fm_var - within / n_bar)
    else:
        fm_var = math.nan
        between = math.nan
    return Components(k, n_bar, fm_var, within, between)


def log_components(values: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(fork-means variance, within, between) in logs for positive values shaped
    (…, forks, iterations), at least two forks; vectorised over the leading axes."""
    forks, n = values.shape[-2], values.shape[-1]
    logs = np.log(values)
    if n > 1:
        centred = logs - logs.mean(axis=-1, keepdims=True)
        within = (centred * centred).sum(axis=(-2, -1)) / (forks * (n - 1))
    else:
        within = np.zeros(values.shape[:-2])
    fm_var = np.log(values.mean(axis=-1)).var(axis=-1, ddof=1)
    return fm_var, within, np.maximum(0.0, fm_var - within / n)


def cv_of_fork_means(forks: list[np.ndarray]) -> float:
    """Coefficient of variation of fork means (sd / mean); NaN with fewer than two forks."""
    means = fork_means(forks)
    if means.size < 2:
        return math.nan
    _, centre, var = moments(means)
    return math.sqrt(var) / abs(centre) if centre else math.nan
