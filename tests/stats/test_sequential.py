"""The calibrated per-look levels, their inverse, one look of a family, and the unwarmed rule."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

from perfproof.model import Direction, Verdict
from perfproof.stats import sequential as seq
from perfproof.stats import welch_look
from perfproof.stats.verdict import decide
from perfproof.stats.warmup import unwarmed
from perfproof.stats.welch import welch


def test_levels_shrink_with_more_looks_and_grow_with_alpha() -> None:
    levels = [float(seq.per_look_level(0.01, seq.Schedule(k, 3, 1))) for k in (1, 2, 5, 10, 20)]
    assert all(a > b for a, b in itertools.pairwise(levels))
    # never below Bonferroni across looks by much, never above one look's own level
    assert levels[-1] < 0.01
    grid = np.array([1e-4, 1e-3, 0.01, 0.05, 0.2])
    per = seq.per_look_level(grid, seq.Schedule(10, 3, 1))
    assert np.all(np.diff(per) > 0)


def test_sequential_p_inverts_the_level() -> None:
    schedule = seq.Schedule(10, 3, 1)
    for alpha in (2e-4, 0.003, 0.01, 0.05, 0.3):
        level = float(seq.per_look_level(alpha, schedule))
        assert float(seq.sequential_p(level, schedule)) == pytest.approx(alpha, rel=1e-9)
        # a nominal p just below the level rejects at alpha, just above does not
        assert float(seq.sequential_p(level * 0.999, schedule)) <= alpha
        assert float(seq.sequential_p(level * 1.001, schedule)) > alpha


def test_below_the_grid_it_is_bonferroni_across_looks() -> None:
    schedule = seq.Schedule(10, 3, 1)
    assert float(seq.per_look_level(1e-6, schedule)) == pytest.approx(1e-7)
    assert float(seq.sequential_p(1e-8, schedule)) == pytest.approx(1e-7)
    assert float(seq.sequential_p(0.99, schedule)) == 1.0


def test_uncalibrated_schedule_is_refused() -> None:
    with pytest.raises(ValueError, match="no calibrated levels"):
        seq.per_look_level(0.01, seq.Schedule(5, 7, 5))
    with pytest.raises(ValueError, match="beyond 20 looks"):
        seq.per_look_level(0.01, seq.Schedule(21, 3, 1))
    with pytest.raises(ValueError):
        seq.Schedule(5, 1, 1)


def test_look_rows_match_welch() -> None:
    rng = np.random.default_rng(2)
    x, y = rng.normal(0, 0.03, 4), rng.normal(0.05, 0.05, 6)
    rows = welch_look.look_rows([x, x[:1]], [y, y])
    w = welch(x, y, 0.99)
    assert rows.diff[0] == pytest.approx(w.diff)
    assert rows.p_value[0] == pytest.approx(w.p_value)
    assert rows.df[0] == pytest.approx(w.df)
    lo, hi = rows.interval(0.01)
    assert (lo[0], hi[0]) == (pytest.approx(w.lo), pytest.approx(w.hi))
    # one fork on a side: not tested, p = 1, unbounded interval
    assert not rows.tested[1] and rows.p_value[1] == 1.0
    assert lo[1] == -math.inf and hi[1] == math.inf


def test_outcomes_follow_the_verdict_rule() -> None:
    rng = np.random.default_rng(4)
    diff = rng.normal(0, 0.03, 2000)
    half = rng.uniform(0.001, 0.05, 2000)
    lo, hi = diff - half, diff + half
    sig = (lo > 0) | (hi < 0)
    codes = seq.outcomes(diff, lo, hi, sig, 0.01)
    expect = {
        Verdict.IMPROVED: seq.LOWER,
        Verdict.REGRESSED: seq.HIGHER,
        Verdict.NEGLIGIBLE: seq.NEGLIGIBLE,
        Verdict.SAME: seq.SAME,
        Verdict.INCONCLUSIVE: seq.CONTINUE,
    }
    for i in range(diff.size):
        v = decide(
            math.exp(diff[i]), math.exp(lo[i]), math.exp(hi[i]), bool(sig[i]), Direction.LOWER, 0.01
        )
        assert codes[i] == expect[v]


def test_judge_interval_agrees_with_the_family_selection() -> None:
    """Whatever the family procedure, a key's interval excludes 0 exactly when it is selected:
    the interval shown is the one the verdict was decided on."""
    rng = np.random.default_rng(9)
    schedule = seq.Schedule(10, 3, 1)
    keys = 40
    effects = np.where(np.arange(keys) < 15, -0.08, 0.0)
    base = [rng.normal(0, 0.03, 5) for _ in range(keys)]
    head = [rng.normal(e, 0.03, 5) for e in effects]
    rows = welch_look.look_rows(base, head)
    frozen = np.full(keys, np.nan)
    frozen[:3] = 1e-6  # three keys decided at an earlier look keep their place in the family
    for method in ("bh", "holm", "none"):
        j = seq.judge(rows, frozen, schedule, 0.01, method, 0.01)
        excludes = (j.lo > 0) | (j.hi < 0)
        assert np.array_equal(excludes[3:], (j.adjusted <= 0.01)[3:]), method
        assert np.all(j.seq_p[:3] == 1e-6)
    bh = seq.judge(rows, frozen, schedule, 0.01, "bh", 0.01)
    holm = seq.judge(rows, frozen, schedule, 0.01, "holm", 0.01)
    # Benjamini–Hochberg selects at least as many as Holm on the same family
    assert (bh.code[3:] == seq.LOWER).sum() >= (holm.code[3:] == seq.LOWER).sum()


def test_unwarmed_judges_each_fork_alone() -> None:
    rng = np.random.default_rng(1)
    settled = [100.0 * np.exp(rng.normal(0, 0.01, 10)) for _ in range(6)]
    cold = settled[2].copy()
    cold[:3] = [400.0, 390.0, 380.0]
    forks = [settled[0], settled[1], cold, settled[3]]
    assert unwarmed(forks, "above") == [False, False, True, False]
    # the verdict on a fork does not depend on which other forks it is judged with
    assert unwarmed([cold], "above") == [True]
    assert unwarmed([settled[4], cold, settled[5]], "above") == [False, True, False]
    # throughput warms up from below; a time metric's low start is not warm-up
    assert unwarmed([1.0 / cold], "below") == [True]
    assert unwarmed([1.0 / cold], "above") == [False]


def test_unwarmed_rarely_flags_settled_forks() -> None:
    rng = np.random.default_rng(12)
    forks = 100.0 * np.exp(rng.normal(0, 0.02, (4000, 10)))
    assert np.mean(unwarmed(forks, "above")) < 0.002
