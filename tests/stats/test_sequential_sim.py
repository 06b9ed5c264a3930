"""The sequential design keeps its promise under optional stopping, by simulation.

A/A paths (nothing changed) at fork-variance ratios 1, 2 and 3 between the sides, with 0%, 5%
and 10% of forks left out as unwarmed and re-run: the share of paths that ever end
``improved``/``regressed`` must stay within α plus two standard errors. The decisions go
through the same ``judge`` a real run uses. Power: a −30% change stops as soon as each side has
5 forks: before, its forks fall in two groups split by side, which 3 or 4 forks per side cannot
tell from two code shapes met by chance (``stats.bimodal``).
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from lab.sequential_sim import ForkStreams, Paths, play, simulate, trace_stream
from lab.simulate import ForkNoise
from perfproof.stats import sequential as seq

ALPHA = 0.01
THETA = 0.01
NOISE = ForkNoise(fork_sd=0.03)
DESIGN = seq.Schedule(max_looks=10, first_forks=3, forks_per_look=1)
PATHS = 10_000
"""A/A paths per condition (9 conditions). The band: α + 2 SE = 1% + 2·√(0.01·0.99/10⁴) = 1.2%,
at most 119 false alarms. A design with twice the false-alarm rate (2%) has 200 on average
(sd √(10⁴·0.02·0.98) = 14): Φ((119.5 − 200)/14) = Φ(−5.7), it fails every condition. The long
runs: ``benchmarks/calibrate_sequential.py`` (400,000 paths per schedule and ratio) and
``benchmarks/sequential_power.py --paths N``."""
FAMILIES_OF_TEN = 6000
"""Families of ten keys for the family guarantee: the band 1% + 2·√(0.01·0.99/6000) = 1.26%,
at most 75 families; at twice the rate 120 on average (sd 10.8), Φ((75.5 − 120)/10.8) = Φ(−4.1)."""


def _false_alarms(played_code: np.ndarray) -> np.ndarray:
    return np.isin(played_code, (seq.LOWER, seq.HIGHER))


@pytest.mark.slow
def test_aa_false_alarms_stay_within_alpha_for_every_ratio_and_unwarmed_share() -> None:
    rng = np.random.default_rng(20261124)
    se = math.sqrt(ALPHA * (1 - ALPHA) / PATHS)
    pooled: dict[float, list[float]] = {}
    for ratio in (1.0, 2.0, 3.0):
        for share in (0.0, 0.05, 0.10):
            paths = simulate(rng, PATHS, DESIGN, ratio, noise=NOISE, unwarmed=share)
            if share:
                # forks were really left out: fewer usable forks than run at the first look
                assert (paths.n_base[:, 0] < DESIGN.first_forks).mean() > share
            played = play(paths, 1, DESIGN, ALPHA, "bh", THETA)
            rate = float(_false_alarms(played.code).mean())
            assert rate <= ALPHA + 2 * se, (ratio, share, rate)
            pooled.setdefault(ratio, []).append(rate)
    # the calibration is not wastefully conservative either: near α at the worst ratio
    assert np.mean(pooled[3.0]) > ALPHA / 2


@pytest.mark.slow
def test_aa_family_of_ten_keeps_the_family_guarantee() -> None:
    """Benjamini–Hochberg at every look on sequential p-values: when nothing changed, the
    chance that any of ten keys ever ends improved/regressed stays within α (+2 SE)."""
    rng = np.random.default_rng(7)
    families, keys = FAMILIES_OF_TEN, 10
    for ratio, share in ((1.0, 0.0), (3.0, 0.10)):
        paths = simulate(rng, families * keys, DESIGN, ratio, noise=NOISE, unwarmed=share)
        played = play(paths, keys, DESIGN, ALPHA, "bh", THETA)
        rate = float(_false_alarms(played.code).any(axis=1).mean())
        assert rate <= ALPHA + 2 * math.sqrt(ALPHA * (1 - ALPHA) / families), (ratio, share)


def test_a_30_percent_change_stops_once_each_side_has_five_forks() -> None:
    """Forks 3% apart, sides 36% apart: the pooled forks are two groups split by side. At 3 and
    4 forks per side that split has a chance of 3% and 0.8% under two code shapes met at an
    even share, so the look holds it; at 5 per side (0.2%) the occupancy decides."""
    rng = np.random.default_rng(3)
    paths = simulate(rng, 4000, DESIGN, 1.0, effect=math.log(0.7), noise=NOISE)
    played = play(paths, 1, DESIGN, ALPHA, "bh", THETA)
    improved = played.code == seq.LOWER
    assert improved.mean() > 0.99
    assert (improved & (played.look <= 3)).mean() > 0.99
    # the paths decided earlier are those whose forks do not split by side
    assert (improved & (played.look == 1)).mean() < 0.2
    without = play(paths, 1, DESIGN, ALPHA, "bh", THETA, bimodal_rule=False)
    assert ((without.code == seq.LOWER) & (without.look == 1)).mean() > 0.7


def test_a_suite_full_of_real_effects_is_not_starved() -> None:
    """16 of 24 keys really changed by −30%: BH on sequential p-values finds nearly all of
    them by the fourth look (6 forks per side), and the share of false ones among the keys it
    calls changed (the false-discovery rate BH controls when some keys really changed) stays
    within α."""
    rng = np.random.default_rng(5)
    families, keys = 400, 24
    changed = np.arange(keys) < 16
    moved = simulate(rng, families * 16, DESIGN, 1.0, effect=math.log(0.7), noise=NOISE)
    still = simulate(rng, families * 8, DESIGN, 1.0, noise=NOISE)
    merged = _side_by_side(moved, still, families)
    played = play(merged, keys, DESIGN, ALPHA, "bh", THETA)
    # 6 forks per side: the occupancy test runs at each key's family-adjusted level
    found = (played.code[:, changed] == seq.LOWER) & (played.look[:, changed] <= 4)
    assert found.mean() > 0.9
    false = _false_alarms(played.code[:, ~changed]).sum(axis=1)
    called = false + (played.code[:, changed] != seq.CONTINUE).sum(axis=1)
    fdp = false / np.maximum(called, 1)
    assert fdp.mean() <= ALPHA + 2 * fdp.std() / math.sqrt(families)


def _side_by_side(a: Paths, b: Paths, families: int) -> Paths:
    """Families whose first keys come from ``a`` and the rest from ``b``."""

    def join(x: np.ndarray, y: np.ndarray) -> np.ndarray:
        looks = x.shape[1]
        both = np.concatenate(
            [x.reshape(families, -1, looks), y.reshape(families, -1, looks)], axis=1
        )
        return both.reshape(-1, looks)

    assert a.forks is not None and b.forks is not None
    forks = ForkStreams(
        *(join(getattr(a.forks, f).T, getattr(b.forks, f).T).T for f in ("base", "head")),
        *(join(getattr(a.forks, f), getattr(b.forks, f)) for f in ("base_ran", "head_ran")),
    )
    fields = [f for f in Paths.__dataclass_fields__ if f != "forks"]
    return Paths(
        **{f: join(getattr(a, f), getattr(b, f)) for f in fields if getattr(a, f) is not None},
        forks=forks,
    )


@pytest.mark.slow
def test_aa_with_the_real_detector_on_iteration_traces() -> None:
    """Forks as 5-iteration traces, 10% of them starting 1.5–5× slow: the real detector judges
    each trace alone, the flagged forks are left out and re-run, and A/A stays within α."""
    rng = np.random.default_rng(8)
    _, cold, flagged = trace_stream(rng, 4000, 12, NOISE, 0.0, 0.10, 5)
    assert (flagged & cold).sum() / cold.sum() > 0.95
    assert (flagged & ~cold).sum() / (~cold).sum() < 0.01
    paths_n = 20_000
    paths = simulate(rng, paths_n, DESIGN, 3.0, noise=NOISE, unwarmed=0.10, iterations=5)
    played = play(paths, 1, DESIGN, ALPHA, "bh", THETA)
    rate = float(_false_alarms(played.code).mean())
    assert rate <= ALPHA + 2 * math.sqrt(ALPHA * (1 - ALPHA) / paths_n)


@pytest.mark.slow
def test_aa_with_unsettled_starts_trimmed_instead_of_forks_dropped() -> None:
    """The same traces, each fork counting with its steady iterations (what a look does now):
    the detector is blind to the side, so A/A stays within α; and a trimmed cold fork's mean
    sits on its own level like a warm fork's, where keeping the slow start would bias it."""
    rng = np.random.default_rng(9)
    (values, usable), cold, flagged = trace_stream(rng, 4000, 12, NOISE, 0.0, 0.10, 5, trim=True)
    assert usable is None  # no fork is left out
    again = np.random.default_rng(9)
    level = NOISE.levels(again, (12, 4000))  # the same draws: each fork's level
    error = np.abs(values - np.log(100.0) - level)
    assert float(np.median(error[cold & flagged])) < 2 * float(np.median(error[~cold]))
    paths_n = 20_000
    paths = simulate(rng, paths_n, DESIGN, 3.0, noise=NOISE, unwarmed=0.10, iterations=5,
                     trim=True)  # fmt: skip
    played = play(paths, 1, DESIGN, ALPHA, "bh", THETA)
    rate = float(_false_alarms(played.code).mean())
    assert rate <= ALPHA + 2 * math.sqrt(ALPHA * (1 - ALPHA) / paths_n)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("first", "step", "looks"), [(3, 1, 3), (3, 1, 20), (2, 1, 10), (4, 2, 8), (3, 3, 6)]
)
def test_aa_other_schedules_at_the_worst_ratio(first: int, step: int, looks: int) -> None:
    """Every calibrated schedule the run loop can pick (forks per step 1, 2 or 3) keeps A/A
    within α at a variance ratio of 3, with a fresh seed (not the calibration's)."""
    rng = np.random.default_rng(first * 100 + step * 10 + looks)
    design = seq.Schedule(looks, first, step)
    n = 30_000
    paths = simulate(rng, n, design, 3.0, noise=NOISE, unwarmed=0.05)
    rate = float(_false_alarms(play(paths, 1, design, ALPHA, "bh", THETA).code).mean())
    assert rate <= ALPHA + 2 * math.sqrt(ALPHA * (1 - ALPHA) / n), rate


def test_futility_stops_unchanged_keys_early_and_keeps_the_guarantee() -> None:
    """With futility at 5%, unchanged keys stop after about 5 forks per side instead of 12 (a
    stop needs a bound within ±50% and a small predictive chance, not a small estimate of
    three forks), never more often improved/regressed; a −30% change is still found as soon as
    the occupancy of its two groups (the sides) is beyond chance, at 5 forks per side."""
    rng = np.random.default_rng(21)
    n = PATHS  # the band of PATHS: a design at twice the rate leaves it
    null = simulate(rng, n, DESIGN, 3.0, noise=NOISE)
    plain = play(null, 1, DESIGN, ALPHA, "bh", THETA)
    futile = play(null, 1, DESIGN, ALPHA, "bh", THETA, futility=0.05)
    # the same paths: stopping without a verdict can only remove alarms
    assert _false_alarms(futile.code).sum() <= _false_alarms(plain.code).sum()
    assert _false_alarms(futile.code).mean() <= ALPHA + 2 * math.sqrt(ALPHA * (1 - ALPHA) / n)
    forks = DESIGN.first_forks + (futile.look - 1) * DESIGN.forks_per_look
    assert forks.mean() < 5.5
    assert (futile.code == seq.FUTILE).mean() > 0.9
    # 1,000 paths: a design that found the change in time on only 98% of them would show
    # above 990 with probability Φ((980 − 990.5)/4.43) = 0.9% (each held key's chance is a
    # Monte Carlo of its own, the costliest part of this test)
    big = simulate(rng, 1000, DESIGN, 1.0, effect=math.log(0.7), noise=NOISE)
    found = play(big, 1, DESIGN, ALPHA, "bh", THETA, futility=0.05)
    assert ((found.code == seq.LOWER) & (found.look <= 3)).mean() > 0.99
