"""The family procedures: hand-computed cases, interval/verdict agreement, and seeded
simulations of whole suites (A/A keeps the any-false-alarm rate ≤ α; real effects are found)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from perfproof.stats.family import decide, decide_rows, describe, holm
from perfproof.stats.welch import welch_rows

ALPHA = 0.01


def test_bh_hand_computed() -> None:
    """The q-values SciPy's Benjamini–Hochberg gives, pinned by hand, in one family and in
    the row-wise form the simulations and sequential looks use."""
    p = np.array([0.01, 0.04, 0.03, 0.005])
    # sorted 0.005, 0.01, 0.03, 0.04 -> *4/1..4: 0.02, 0.02, 0.04, 0.04
    adjusted = decide(p, ALPHA, "bh").adjusted
    assert adjusted.tolist() == pytest.approx([0.02, 0.04, 0.04, 0.02])
    assert decide(np.array([]), ALPHA, "bh").adjusted.size == 0
    assert np.all(adjusted <= holm(p) + 1e-15)
    rows = decide_rows(np.stack([p, p[::-1]]), ALPHA, "bh").adjusted
    np.testing.assert_allclose(rows, [[0.02, 0.04, 0.04, 0.02], [0.02, 0.04, 0.04, 0.02]])


def test_bh_selects_and_sets_the_fcr_level() -> None:
    p = np.array([0.001, 0.002, 0.003, 0.5, 0.9])
    d = decide(p, 0.01, "bh")
    assert d.selected.tolist() == [True, True, True, False, False]
    assert d.interval_alpha.tolist() == pytest.approx([3 * 0.01 / 5] * 5)


def test_no_selection_shows_bonferroni_level_intervals() -> None:
    d = decide(np.array([0.2, 0.5, 0.03]), 0.01, "bh")
    assert d.count == 0
    assert d.interval_alpha.tolist() == pytest.approx([0.01 / 3] * 3)


def test_holm_levels_follow_the_step_down() -> None:
    p = np.array([0.003, 0.001, 0.2, 0.0045])
    d = decide(p, 0.01, "holm")
    # sorted 0.001 (α/4), 0.003 (α/3), 0.0045 (α/2): all rejected; 0.2 at α/1
    assert d.selected.tolist() == [True, True, False, True]
    assert d.interval_alpha.tolist() == pytest.approx([0.01 / 3, 0.01 / 4, 0.01, 0.01 / 2])


def test_nan_p_values_are_outside_the_family() -> None:
    d = decide(np.array([0.001, math.nan, 0.002]), 0.01, "bh")
    assert d.selected.tolist() == [True, False, True]
    assert d.interval_alpha[0] == pytest.approx(0.01)


def test_rows_match_one_family_at_a_time() -> None:
    rng = np.random.default_rng(11)
    p = rng.uniform(0, 0.05, size=(200, 12)) ** 2
    for method in ("bh", "holm", "none"):
        rows = decide_rows(p, ALPHA, method)
        for i in range(0, 200, 17):
            one = decide(p[i], ALPHA, method)
            assert rows.selected[i].tolist() == one.selected.tolist()
            assert rows.interval_alpha[i] == pytest.approx(one.interval_alpha)


def test_method_sentence_states_the_counts() -> None:
    text = describe("bh", 0.01, 24, 16)
    assert "24 statistical comparisons" in text and "selected 16" in text
    assert "99.33%" in text
    assert "rejected 3" in describe("holm", 0.01, 24, 3)


def _suite(rng: np.random.Generator, sims: int, effects: np.ndarray, forks: int, sd: float):
    """Log fork means for ``sims`` suites of len(effects) keys; Welch on them, vectorised."""
    keys = effects.size
    base = rng.normal(0.0, sd, size=(sims, keys, forks))
    head = rng.normal(0.0, sd, size=(sims, keys, forks)) + effects[None, :, None]
    return base, head


def _verdict_counts(base, head, method: str, theta: float = 0.01):
    """Improved/regressed per suite, deciding on the interval at each key's family level:
    significant exactly when that interval excludes 1 (what compare shows)."""
    w = welch_rows(base, head, 1 - ALPHA)
    d = decide_rows(w.p_value, ALPHA, method)
    from scipy import stats

    t = stats.t.ppf(1 - d.interval_alpha / 2, w.df)
    lo, hi = w.diff - t * w.se, w.diff + t * w.se
    excludes = (lo > 0) | (hi < 0)
    # the shown interval and the family decision agree, key by key
    assert np.array_equal(excludes, d.selected)
    beyond = np.abs(np.expm1(w.diff)) > theta
    return excludes & beyond & (w.diff > 0), excludes & beyond & (w.diff < 0)


@pytest.mark.parametrize("method", ["bh", "holm"])
def test_aa_suites_keep_any_false_alarm_at_most_alpha(method: str) -> None:
    rng = np.random.default_rng(20261124)
    sims = 20_000
    base, head = _suite(rng, sims, np.zeros(24), forks=3, sd=0.03)
    up, down = _verdict_counts(base, head, method)
    any_false = (up | down).any(axis=1).mean()
    se = math.sqrt(ALPHA * (1 - ALPHA) / sims)
    assert any_false <= ALPHA + 2 * se
    # without an adjustment the same suites alarm far more often: the test can fail
    up_none, down_none = _verdict_counts(base, head, "none")
    assert (up_none | down_none).any(axis=1).mean() > 0.1


def test_large_real_effects_are_not_starved() -> None:
    rng = np.random.default_rng(7)
    sims = 2_000
    effects = np.log(np.linspace(1.30, 2.20, 24))  # +30% … +120%
    base, head = _suite(rng, sims, effects, forks=3, sd=0.045)
    improved_bh, _ = _verdict_counts(base, head, "bh")
    improved_holm, _ = _verdict_counts(base, head, "holm")
    share_bh = improved_bh.mean()
    assert share_bh >= 0.9
    assert share_bh > improved_holm.mean()


def test_mixed_suite_keeps_false_alarms_on_unchanged_keys_rare() -> None:
    """16 keys changed by +30…+120%, 8 unchanged: the unchanged ones are rarely called changed
    (BH controls the false-discovery rate) while the changed ones are found."""
    rng = np.random.default_rng(5)
    sims = 5_000
    effects = np.concatenate([np.log(np.linspace(1.30, 2.20, 16)), np.zeros(8)])
    base, head = _suite(rng, sims, effects, forks=3, sd=0.045)
    up, down = _verdict_counts(base, head, "bh")
    false = (up | down)[:, 16:].sum(axis=1)
    found = (up | down)[:, :16].sum(axis=1)
    fdr = (false / np.maximum(false + found, 1)).mean()
    assert fdr <= ALPHA + 2 * math.sqrt(ALPHA / sims)
    assert up[:, :16].mean() >= 0.9
