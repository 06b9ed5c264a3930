"""Futility for keys the bimodal-forks rule holds (stats.bimodal_futility), on synthetic forks.

A held key's Welch look already decides, so the ordinary futility stop never ends it; the
continuation of its two groups says whether the whole rule could. A chance occupancy that no
remaining fork can make significant stops; a clean split by side, which the occupancy test
decides after a few more forks, keeps running; stopping never adds a verdict.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from lab.sequential_sim import paths_from_streams, play, simulate
from lab.simulate import ForkNoise
from perfproof.stats import bimodal, welch_look
from perfproof.stats import sequential as seq

DESIGN = seq.Schedule(max_looks=8, first_forks=3, forks_per_look=1)

# an A/A key at look 7 (9 forks a side) whose forks fell in two code shapes 10% apart, 7 of 9
# base forks in the low one and 8 of 9 head forks in the high one: Welch decides, Boschloo's
# p (0.005) does not reach the per-look level, and one more fork a side cannot change that
CHANCE_BASE = [0.0031, 0.0026, 0.0146, 0.0069, 0.0115, 0.0019, 0.0913, 0.1018, 0.0026]
CHANCE_HEAD = [0.0931, 0.1102, 0.1002, 0.1097, 0.1079, 0.1059, 0.0039, 0.1037, 0.0889]


def _judge(base: list[float], head: list[float], look: int, futility: float) -> seq.Judgement:
    b, h = [np.array(base)], [np.array(head)]
    return seq.judge(
        welch_look.look_rows(b, h), np.array([np.nan]), DESIGN, 0.01, "bh", 0.01, look, futility,
        bimodal.fork_rows(b, h), np.array([False]),
    )  # fmt: skip


def test_a_chance_occupancy_no_remaining_fork_can_confirm_is_stopped() -> None:
    held = _judge(CHANCE_BASE, CHANCE_HEAD, 7, 0.0)
    assert held.support is not None and held.support.held[0]
    assert held.code[0] == seq.CONTINUE
    stopped = _judge(CHANCE_BASE, CHANCE_HEAD, 7, 0.05)
    assert stopped.code[0] == seq.FUTILE
    assert stopped.predictive_power is not None and stopped.predictive_power[0] < 0.05


def test_a_clean_split_by_side_keeps_running_until_the_occupancy_test_decides() -> None:
    """1.35× with tight forks, all base forks slow and all head forks fast, on a key the
    change does not reach: held at 3 forks a side (Boschloo's p 0.031), and the continuation
    says the occupancy test will decide, so the futility stop leaves it running."""
    rng = np.random.default_rng(3)
    base = list(rng.normal(0.0, 0.01, 3))
    head = list(rng.normal(0.3, 0.01, 3))
    j = _judge(base, head, 1, 0.05)
    assert j.support is not None and j.support.held[0]
    assert j.code[0] == seq.CONTINUE
    assert j.predictive_power is not None and j.predictive_power[0] > 0.5


def test_the_same_forks_give_the_same_chance() -> None:
    first = _judge(CHANCE_BASE, CHANCE_HEAD, 6, 0.05).predictive_power
    again = _judge(CHANCE_BASE, CHANCE_HEAD, 6, 0.05).predictive_power
    assert first is not None and again is not None and first[0] == again[0]


@pytest.mark.slow
def test_real_clean_splits_lose_nothing_and_bimodal_aa_only_stops_earlier() -> None:
    """Real 1.5× changes held until the occupancy test decides are all still decided; on an
    A/A of two code shapes the stop adds futility stops and never a verdict."""
    rng = np.random.default_rng(2)
    paths = simulate(rng, 2000, DESIGN, 1.0, -math.log(1.5), ForkNoise(0.01))
    played = play(paths, 1, DESIGN, 0.01, "bh", 0.01, 0.05, reached=False)
    assert np.mean(played.code == seq.LOWER) == 1.0
    shapes = [
        rng.standard_normal((DESIGN.forks_at(DESIGN.max_looks), 4000)) * 0.01
        + np.where(rng.random((DESIGN.forks_at(DESIGN.max_looks), 4000)) < 0.5, 0.1, 0.0)
        for _ in range(2)
    ]
    aa = paths_from_streams((shapes[0], None), (shapes[1], None), DESIGN)
    with_stop = play(aa, 1, DESIGN, 0.01, "bh", 0.01, 0.05)
    without = play(aa, 1, DESIGN, 0.01, "bh", 0.01, 0.0)
    false_with = np.isin(with_stop.code, (seq.LOWER, seq.HIGHER))
    false_without = np.isin(without.code, (seq.LOWER, seq.HIGHER))
    assert not np.any(false_with & ~false_without)
