"""The round readings on synthetic forks whose truth is known: ratios per round, the rounds as
pairs (coverage), the machine-wide drift test (its A/A false-alarm rate and its power on a
drift like the one a real 24-key run showed) and groups that are the rounds."""

from __future__ import annotations

import math

import numpy as np

from perfproof.stats.rounds import (
    groups_are_rounds,
    lean_of,
    machine_drift,
    paired_rounds,
    round_level,
    round_ratios,
)


def test_each_round_has_the_ratio_of_its_own_forks() -> None:
    base = {1: [100.0], 2: [120.0, 120.0], 3: [90.0]}
    head = {1: [50.0], 2: [60.0], 4: [10.0]}
    got = round_ratios(base, head)
    assert [(r.round, round(r.ratio, 6), r.base_forks, r.head_forks) for r in got] == [
        (1, 0.5, 1, 1),
        (2, 0.5, 2, 1),
    ]


def test_paired_rounds_cover_the_true_ratio_at_their_level() -> None:
    """A drift shared by both sides of a round cancels: the paired interval covers the true
    ratio about as often as its level says (seeded; 400 runs of 4 rounds)."""
    rng = np.random.default_rng(7)
    true, covered = 1.25, 0
    runs = 400
    for _ in range(runs):
        drift = rng.normal(0, 0.15, 4)  # rounds far apart, machine-wide
        base = np.exp(drift + rng.normal(0, 0.03, 4))
        head = np.exp(drift + math.log(true) + rng.normal(0, 0.03, 4))
        p = paired_rounds(list(head / base), 0.9)
        assert p is not None
        covered += p.lo <= true <= p.hi
    assert 0.85 <= covered / runs <= 0.95


def test_paired_rounds_need_two_rounds_and_say_which_way_they_lean() -> None:
    assert paired_rounds([1.3], 0.99) is None
    p = paired_rounds([1.43, 1.53, 1.12, 1.14], 0.99)
    assert p is not None and p.lean == 1 and p.rounds == 4 and p.lo < p.ratio < p.hi
    assert lean_of([0.9, 0.8]) == -1 and lean_of([0.9, 1.1]) == 0 and lean_of([]) == 0


def _levels(
    rng: np.random.Generator, keys: int, rounds: int, shift: list[float]
) -> list[dict[int, float]]:
    out = []
    for _ in range(keys):
        base = rng.normal(0, 1) + np.array(shift) + rng.normal(0, 0.04, rounds)
        head = base + 0.3 + rng.normal(0, 0.04, rounds)
        out.append({r + 1: (base[r] + head[r]) / 2 for r in range(rounds)})
    return out


def test_the_drift_test_keeps_its_false_alarm_rate_when_the_machine_holds_still() -> None:
    rng = np.random.default_rng(11)
    runs = 200
    alarms = sum(
        machine_drift(_levels(rng, 12, 4, [0, 0, 0, 0]), 0.1, 0.0, permutations=199).found  # type: ignore[union-attr]
        for _ in range(runs)
    )
    assert alarms / runs <= 0.15


def test_a_machine_wide_slowdown_of_later_rounds_is_found_and_sized() -> None:
    rng = np.random.default_rng(3)
    slow = math.log(1.17)
    drift = machine_drift(_levels(rng, 24, 4, [0, 0, slow, slow]), 0.01, 0.01)
    assert drift is not None and drift.found and drift.keys == 24
    assert abs(drift.shifts[3] - 0.17) < 0.04 and abs(drift.shifts[2]) < 0.04


def test_keys_that_left_early_count_for_the_rounds_they_ran() -> None:
    levels = [{1: 0.0, 2: 0.01}, {1: 1.0, 2: 1.02, 3: 1.2}, {1: 2.0}]
    drift = machine_drift(levels, 0.01, 0.01)
    assert drift is not None and drift.keys == 2 and set(drift.shifts) == {2, 3}
    assert machine_drift([{1: 0.0, 2: 0.1}], 0.01, 0.01) is None


def test_round_level_is_both_sides_together() -> None:
    level = round_level([100.0], [50.0])
    assert level is not None and math.isclose(level, (math.log(100) + math.log(50)) / 2)
    assert round_level([], [1.0]) is None


def test_groups_are_rounds_only_when_every_round_falls_in_one_group() -> None:
    # rounds 1-2 fast, 3-4 slow, both sides of each round together: drift
    assert groups_are_rounds([True, True, True, True, False, False, False, False],
                             [1, 1, 2, 2, 3, 3, 4, 4])  # fmt: skip
    # a round split between the groups: not the rounds
    assert not groups_are_rounds([True, False, True, True, False, False], [1, 1, 2, 2, 3, 3])
    assert not groups_are_rounds([True, True], [1, 2])
    assert not groups_are_rounds([True, True, True, True], [1, 1, 2, 2])
