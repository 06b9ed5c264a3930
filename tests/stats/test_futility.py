"""Futility on evidence (stats.futility): a key stops without a verdict only when its interval
lies inside the equivalence margin, or a verdict by the last look is improbable *and* its
interval bounds the change; never from the point estimate of a few forks."""

from __future__ import annotations

import math

import numpy as np
from scipy import special

from perfproof.stats import bimodal, welch_look
from perfproof.stats import futility as fut
from perfproof.stats import sequential as seq
from perfproof.stats.futility import FutilityRule

DESIGN = seq.Schedule(max_looks=8, first_forks=3, forks_per_look=1)
LEVEL = float(seq.per_look_level(0.01, DESIGN))

# the issue's key: look 2 of 8 (4 forks a side), interval ×[0.52, 3.23] at the per-look level,
# 9 degrees of freedom (the suite's spread borrowed): a real 1.3× effect on noisy forks
ISSUE_LO, ISSUE_HI, ISSUE_DF = math.log(0.52), math.log(3.23), 9.0
ISSUE_DIFF = (ISSUE_LO + ISSUE_HI) / 2
ISSUE_SE = (ISSUE_HI - ISSUE_LO) / 2 / float(special.stdtrit(ISSUE_DF, 1 - LEVEL / 2))


def _old_conditional_power(diff: float, se: float, df: float, now: int, end: int) -> float:
    """The rule this replaces: the estimate of a few forks taken as the truth."""
    g = end / now
    z = abs(diff / se)
    c = float(special.stdtrit(df * (end - 1) / (now - 1), 1 - LEVEL / 2))
    sd = math.sqrt(1 - 1 / g)
    return float(
        special.ndtr((z * math.sqrt(g) - c) / sd) + special.ndtr((-z * math.sqrt(g) - c) / sd)
    )


def _rows(diff: float, se: float, df: float) -> welch_look.LookRows:
    a = np.array
    return welch_look.LookRows(a([diff]), a([se]), a([df]), a([0.5]), a([True]))


def test_the_issues_real_effect_is_not_stopped_where_the_old_rule_stopped_it() -> None:
    assert _old_conditional_power(ISSUE_DIFF, ISSUE_SE, ISSUE_DF, 4, 10) < 0.05
    pp = fut.predictive_power(
        np.array([ISSUE_DIFF]), np.array([ISSUE_SE]), np.array([ISSUE_DF]), 4, 10, LEVEL,
        math.log(2.0),
    )  # fmt: skip
    assert pp[0] > 0.05
    # and even were the chance small, an interval of ×0.52…×3.23 bounds nothing
    rule = fut.stop_rule(
        np.array([ISSUE_LO]), np.array([ISSUE_HI]), np.array([0.0]), np.array([True]),
        FutilityRule(0.05),
    )  # fmt: skip
    assert rule[0] == fut.NONE
    j = seq.judge(_rows(ISSUE_DIFF, ISSUE_SE, ISSUE_DF), np.array([np.nan]), DESIGN, 0.01, "bh",
                  0.01, 2, 0.05)  # fmt: skip
    assert j.code[0] == seq.CONTINUE


def test_an_interval_inside_the_margin_stops_by_equivalence() -> None:
    j = seq.judge(_rows(0.004, 0.004, 20.0), np.array([np.nan]), DESIGN, 0.01, "bh", 0.01, 1, 0.05)
    assert j.code[0] == seq.FUTILE
    assert j.futility_rule is not None and j.futility_rule[0] == fut.EQUIVALENCE
    assert math.log(1 / 1.05) <= j.lo[0] and j.hi[0] <= math.log(1.05)


def test_an_improbable_verdict_stops_only_with_a_bound_that_means_something() -> None:
    tight = seq.judge(_rows(0.01, 0.06, 20.0), np.array([np.nan]), DESIGN, 0.01, "bh", 0.01, 2,
                      0.05)  # fmt: skip
    assert tight.code[0] == seq.FUTILE
    assert tight.futility_rule is not None and tight.futility_rule[0] == fut.PREDICTIVE
    assert tight.predictive_power is not None and tight.predictive_power[0] < 0.05
    # the interval shown is the one the stop was judged on: the key's own at the overall α
    assert tight.interval_alpha[0] == 0.01 and math.isclose(tight.per_look[0], LEVEL)
    assert math.log(0.5) <= tight.lo[0] and tight.hi[0] <= math.log(1.5)  # -50%…+50%
    # the same estimate on forks three times as noisy: improbable too, but ±50% is not ruled out
    wide = seq.judge(_rows(0.01, 0.18, 20.0), np.array([np.nan]), DESIGN, 0.01, "bh", 0.01, 2,
                     0.05)  # fmt: skip
    assert wide.predictive_power is not None and wide.predictive_power[0] < 0.05
    assert wide.code[0] == seq.CONTINUE


def test_an_unchanged_key_has_a_small_chance_whatever_its_spread() -> None:
    se = np.array([0.02, 0.1, 0.3])
    pp = fut.predictive_power(np.zeros(3), se, np.full(3, 4.0), 3, 10, LEVEL, math.log(2.0))
    assert np.all(pp < 0.05)
    # a real twofold change keeps its chance at three forks a side
    big = fut.predictive_power(np.full(3, math.log(2.0)), se, np.full(3, 4.0), 3, 10, LEVEL, 0.69)
    assert np.all(big[:2] > 0.9)


def test_two_code_shapes_on_a_reached_key_get_their_forks_rather_than_a_stop() -> None:
    """Forks in two shapes 10% apart, 7 of 9 base forks in the low one and 8 of 9 head forks in
    the high one, at look 7 of 8: the pooled look decides, the occupancy does not, so the key is
    held. Where the change does not reach the benchmark, continuing its groups says no fork
    left can confirm them and it stops; where it reaches it, it keeps its forks."""
    base = [np.array([0.0031, 0.0026, 0.0146, 0.0069, 0.0115, 0.0019, 0.0913, 0.1018, 0.0026])]
    head = [np.array([0.0931, 0.1102, 0.1002, 0.1097, 0.1079, 0.1059, 0.0039, 0.1037, 0.0889])]
    rows = welch_look.look_rows(base, head)
    forks = bimodal.fork_rows(base, head)
    codes = {}
    for reached in (True, False):
        j = seq.judge(rows, np.array([np.nan]), DESIGN, 0.01, "bh", 0.01, 7, 0.05, forks,
                      np.array([reached]))  # fmt: skip
        assert j.support is not None and j.support.held[0]
        codes[reached] = j.code[0]
        if reached:
            assert j.predictive_power is not None and j.predictive_power[0] == 1.0
    assert codes == {True: seq.CONTINUE, False: seq.FUTILE}


def test_futility_off_stops_nothing() -> None:
    j = seq.judge(_rows(0.0, 0.004, 20.0), np.array([np.nan]), DESIGN, 0.01, "bh", 0.01, 1, 0.0)
    assert j.code[0] != seq.FUTILE and j.futility_rule is None
