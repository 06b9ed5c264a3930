"""A side's statistics and diagnostics for many keys at once.

A large suite (thousands of benchmark × @Param entries) would otherwise spend its time in
per-key numpy calls on arrays of ten values. When keys share a shape (same forks and
iterations per side, as one JMH run produces) their data stack into (keys × forks ×
iterations) arrays and every statistic becomes one array operation. The numbers are those of
a fork-level method's ``summarize``, ``variance.components``, ``variance.cv_of_fork_means`` and
``warmup.is_trending`` key by key; tests compare the two paths. The effect between the sides is
the method's own batch path (:meth:`perfproof.stats.method.Method.compare_rows`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from perfproof.stats.variance import log_components
from perfproof.stats.warmup import may_be_unsettled, trending_rows
from perfproof.stats.welch import t_critical


@dataclass(frozen=True)
class SideBatch:
    """Per key: the estimate (mean of fork means) and its interval, variance components of
    log values, CV of fork means, trend flag, and which forks may start unsettled."""

    value: np.ndarray
    lo: np.ndarray
    hi: np.ndarray
    fork_means_var: np.ndarray
    within: np.ndarray
    between: np.ndarray
    cv: np.ndarray
    trending: np.ndarray
    may_be_unsettled: np.ndarray


def side_batch(values: np.ndarray, confidence: float, worse: str) -> SideBatch:
    """Statistics of one side for positive ``values`` shaped (keys, forks ≥ 2, iterations)."""
    forks = values.shape[1]
    means = values.mean(axis=-1)
    centre = means.mean(axis=-1)
    sd = means.std(axis=-1, ddof=1)
    half = t_critical(confidence, forks - 1) * sd / math.sqrt(forks)
    fm_var, within, between = log_components(values)
    iterations = values.shape[-1]
    unsettled = (
        may_be_unsettled(values, worse)
        if iterations >= 3
        else np.zeros(values.shape[:2], dtype=bool)
    )
    return SideBatch(
        value=centre,
        lo=centre - half,
        hi=centre + half,
        fork_means_var=fm_var,
        within=within,
        between=between,
        cv=sd / np.abs(centre),
        trending=trending_rows(values),
        may_be_unsettled=unsettled,
    )
