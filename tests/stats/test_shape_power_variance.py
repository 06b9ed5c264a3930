"""Bimodal forks, variance components and the power calculation (checked by simulation)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats as st

from lab.simulate import ForkNoise
from perfproof.stats import power
from perfproof.stats.fork_welch import WelchForks
from perfproof.stats.shape import bimodal_split
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
    comp = components(make_forks(rng, 400, 20, noise=ForkNoise(fork_sd=0.03, iteration_sd=0.01)))
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


def test_small_fork_mde_has_its_power_where_t_plus_t_was_optimistic() -> None:
    """3 vs 3 forks at α = 1%: the MDE is detected 80% of the time by Welch's test on log
    fork means. The old ``(t + t) × se`` shortcut (df 2f − 2) promised an effect about 30%
    smaller, which that test detects only about half the time."""
    forks, alpha, sd = 3, 0.01, 0.03
    variance = sd**2

    def simulated(effect: float, f: int, seed: int, trials: int = 40_000) -> float:
        # Welch's test on log fork means, as the fork-level strategy does
        rng = np.random.default_rng(seed)
        base = rng.normal(0.0, sd, (trials, f))
        head = rng.normal(effect, sd, (trials, f))
        p = st.ttest_ind(head, base, axis=1, equal_var=False).pvalue
        return float(np.mean(p < alpha))

    mde = power.mde_log(variance, forks, alpha)
    df = 2 * forks - 2
    shortcut = (st.t.ppf(1 - alpha / 2, df) + st.t.ppf(0.8, df)) * math.sqrt(2 * variance / forks)
    assert shortcut < 0.75 * mde
    assert simulated(mde, forks, 31) == pytest.approx(0.8, abs=0.01)
    assert simulated(shortcut, forks, 32) < 0.6
    # the forks asked for to resolve 5% are enough, and one fewer is not
    f = power.forks_needed(variance, 0.05, alpha)
    assert f == 11
    assert simulated(math.log1p(0.05), f, 33) >= 0.8
    assert simulated(math.log1p(0.05), f - 1, 34) < 0.77


def test_mde_is_continuous_where_the_exact_integral_hands_over_to_the_noncentral_t() -> None:
    n = power.EXACT_BELOW
    for alpha in (0.05, 0.01):
        below = power.standardised_mde(n - 1, n - 1, 0.5, alpha)
        at = power.standardised_mde(n, n, 0.5, alpha)
        after = power.standardised_mde(n + 1, n + 1, 0.5, alpha)
        # the step down across the boundary exceeds its neighbour's by under 0.1% of the MDE
        assert below > at > after
        assert (below - at) - (at - after) < 0.001 * at
    # unequal variances and sizes: exact integral and simulation agree
    mde = power.minimal_detectable_effect(0.02, 4, 0.06, 6, 0.05)
    assert mde is not None
    rng = np.random.default_rng(41)
    a = rng.normal(0.0, 0.02, (40_000, 4))
    b = rng.normal(mde, 0.06, (40_000, 6))
    hits = np.mean(st.ttest_ind(b, a, axis=1, equal_var=False).pvalue < 0.05)
    assert hits == pytest.approx(0.8, abs=0.01)


@pytest.mark.parametrize("sd_a,sd_b", [(0.03, 0.03), (0.01, 0.08), (0.2, 0.05)])
def test_runs_needed_agrees_with_a_plain_scan(sd_a: float, sd_b: float) -> None:
    """The search starts from the normal guess and walks; it must find the first n that has
    the power, whether the guess was too high (tiny n) or too low."""
    alpha = 0.01
    for effect in (0.6, 0.2, 0.08, 0.03):
        n = power.runs_needed(effect, sd_a, sd_b, alpha)
        first = next(
            m
            for m in range(2, 3000)
            if power.welch_power(effect, sd_a, m, sd_b, m, alpha) >= power.DEFAULT_POWER
        )
        assert n == first, (effect, n, first)


def test_mde_has_the_stated_power(make_forks) -> None:
    """An effect of exactly the MDE is detected about 80% of the time."""
    rng = np.random.default_rng(21)
    forks, iters, alpha = 5, 10, 0.05
    noise = ForkNoise(fork_sd=0.03, iteration_sd=0.01)
    variance = noise.fork_sd**2 + noise.iteration_sd**2 / iters
    effect = math.exp(power.mde_log(variance, forks, alpha))
    strategy = WelchForks()
    hits = 0
    reps = 1500
    for _ in range(reps):
        base = make_forks(rng, forks, iters, noise=noise)
        head = make_forks(rng, forks, iters, level=100 * effect, noise=noise)
        hits += strategy.compare(base, head, 1 - alpha).p_value <= alpha
    assert 0.75 <= hits / reps <= 0.86
