"""Power of the e2e design (checked by simulation) and the Amdahl ceiling."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats as st

from perfproof.stats.amdahl import amdahl_ceiling, amdahl_message
from perfproof.stats.power import minimal_detectable_effect, runs_needed, welch_power


def _simulated_power(
    effect: float, sd_a: float, sd_b: float, n: int, alpha: float, trials: int, seed: int
) -> float:
    """Fraction of simulated experiments where Welch's test rejects (vectorised)."""
    rng = np.random.default_rng(seed)
    a = rng.normal(0.0, sd_a, (trials, n))
    b = rng.normal(effect, sd_b, (trials, n))
    p = st.ttest_ind(b, a, axis=1, equal_var=False).pvalue
    return float(np.mean(p < alpha))


def test_mde_has_the_promised_power_in_simulation() -> None:
    sd_a, sd_b, n, alpha = 0.03, 0.05, 8, 0.01
    mde = minimal_detectable_effect(sd_a, n, sd_b, n, alpha)
    assert mde is not None
    assert welch_power(mde, sd_a, n, sd_b, n, alpha) == pytest.approx(0.8, abs=1e-6)
    sim = _simulated_power(mde, sd_a, sd_b, n, alpha, trials=20_000, seed=1)
    assert sim == pytest.approx(0.8, abs=0.02)
    # the null: the test keeps its level
    assert _simulated_power(0.0, sd_a, sd_b, n, alpha, 20_000, 2) == pytest.approx(alpha, abs=0.004)


def test_runs_needed_is_the_smallest_n_with_enough_power() -> None:
    sd, effect, alpha = 0.05, math.log(1.03), 0.01
    n = runs_needed(effect, sd, sd, alpha)
    assert n is not None and 20 < n < 200
    assert welch_power(effect, sd, n, sd, n, alpha) >= 0.8
    assert welch_power(effect, sd, n - 1, sd, n - 1, alpha) < 0.8
    sim = _simulated_power(effect, sd, sd, n, alpha, trials=8_000, seed=3)
    assert sim == pytest.approx(0.8, abs=0.03)
    # a quarter of the effect needs about sixteen times the runs
    n4 = runs_needed(effect / 4, sd, sd, alpha)
    assert n4 is not None and 14 * n < n4 < 18 * n


def test_power_edge_cases() -> None:
    assert minimal_detectable_effect(0.1, 1, 0.1, 5, 0.05) is None
    assert minimal_detectable_effect(0.0, 5, 0.0, 5, 0.05) == 0.0
    assert runs_needed(0.0, 0.1, 0.1, 0.05) is None
    assert runs_needed(1e-9, 1.0, 1.0, 0.01) is None  # beyond any practical number


def test_amdahl_ceiling_definition() -> None:
    c = amdahl_ceiling(0.10, 0.25)
    new_time = 0.9 + 0.1 / 1.25
    assert c.time_cut == pytest.approx(1 - new_time)
    assert c.speedup == pytest.approx(1 / new_time - 1)
    assert c.log_effect == pytest.approx(-math.log(new_time))
    # the whole program can never gain more than its hot spot, nor more than 1/(1-s)
    assert c.speedup < 0.25
    assert amdahl_ceiling(0.5, 1e9).speedup == pytest.approx(1.0, rel=1e-6)
    assert amdahl_ceiling(1.0, 0.3).speedup == pytest.approx(0.3)
    with pytest.raises(ValueError):
        amdahl_ceiling(0.0, 0.1)
    with pytest.raises(ValueError):
        amdahl_ceiling(0.5, -1.0)


def test_amdahl_message_inconclusive_by_design_and_visible() -> None:
    c = amdahl_ceiling(0.02, 0.19)  # about 0.32%
    assert c.speedup * 100 == pytest.approx(0.320, abs=0.005)
    msg = amdahl_message(c, 6.5, 4200, 10)
    assert "Ceiling 0.32% < detectable 6.5% with 10 runs per side" in msg
    assert "inconclusive by design; about 4200 runs per side would be needed" in msg
    ok = amdahl_message(amdahl_ceiling(0.5, 0.5), 6.5, 8, 10)
    assert "Ceiling 20.00% ≥ detectable 6.5%" in ok and "can see it" in ok
    assert "no practical number" in amdahl_message(c, 6.5, None, 10)
    assert "cannot make the program faster" in amdahl_message(amdahl_ceiling(0.5, -0.1), 1, 2, 3)
