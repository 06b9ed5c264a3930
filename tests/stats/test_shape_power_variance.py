"""Bimodal forks, variance components and the power calculation (checked by simulation)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from perfproof.stats import power
from perfproof.stats.shape import bimodal_split
from perfproof.stats.strategies import ForkLevel
from perfproof.stats.variance import components, cv_of_fork_means


def test_bimodal_fork_means() -> None:
    split = bimodal_split(np.array([100.0, 100.5, 99.8, 130.0, 131.0, 129.5]))
    assert split is not None
    assert (split.low_count, split.high_count) == (3, 3)
    assert split.low_level == pytest.approx(100.1, rel=1e-2)
    assert split.high_level == pytest.approx(130.2, rel=1e-2)


def test_unimodal_noise_is_not_bimodal() -> None:
    rng = np.random.default_rng(4)
    flagged = sum(
        bimodal_split(100 * np.exp(rng.normal(0, 0.03, 10))) is not None for _ in range(500)
    )
    assert flagged <= 5
    # one outlying fork is not a second mode
    assert bimodal_split(np.array([100.0, 101.0, 99.0, 100.5, 140.0])) is None


def test_variance_components_recover_truth(make_forks) -> None:
    rng = np.random.default_rng(8)
    comp = components(make_forks(rng, 400, 20, fork_sd=0.03, iteration_sd=0.01))
    assert comp.between == pytest.approx(0.03**2, rel=0.2)
    assert comp.within == pytest.approx(0.01**2, rel=0.05)
    assert comp.between_share == pytest.approx(0.9, abs=0.03)
    forks = [np.array([1.0, 2.0]), np.array([3.0, 3.0])]
    assert cv_of_fork_means(forks) == pytest.approx(np.std([1.5, 3.0], ddof=1) / 2.25)
    assert math.isnan(cv_of_fork_means(forks[:1]))


def test_mde_shrinks_with_forks_and_forks_needed_is_minimal() -> None:
    var, alpha = 0.03**2, 0.01
    assert power.mde_pct(var, 10, alpha) < power.mde_pct(var, 3, alpha)
    f = power.forks_needed(var, 0.01, alpha)
    assert power.mde_log(var, f, alpha) <= math.log1p(0.01)
    assert power.mde_log(var, f - 1, alpha) > math.log1p(0.01)
    assert power.forks_needed(0.0, 0.01, alpha) == 2
    assert power.forks_needed(math.nan, 0.01, alpha) == power.MAX_FORKS


def test_mde_has_the_stated_power(make_forks) -> None:
    """An effect of exactly the MDE is detected about 80% of the time."""
    rng = np.random.default_rng(21)
    forks, iters, fork_sd, it_sd, alpha = 5, 10, 0.03, 0.01, 0.05
    variance = fork_sd**2 + it_sd**2 / iters
    effect = math.exp(power.mde_log(variance, forks, alpha))
    strategy = ForkLevel()
    hits = 0
    reps = 1500
    for _ in range(reps):
        base = make_forks(rng, forks, iters, fork_sd=fork_sd, iteration_sd=it_sd)
        head = make_forks(
            rng, forks, iters, level=100 * effect, fork_sd=fork_sd, iteration_sd=it_sd
        )
        hits += strategy.compare(base, head, 1 - alpha).p_value <= alpha
    assert 0.75 <= hits / reps <= 0.86
