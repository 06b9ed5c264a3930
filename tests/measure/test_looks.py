"""Rounds become looks: the design a plan implies, refused before a build when uncalibrated."""

from __future__ import annotations

import pytest

from perfproof.errors import InputError
from perfproof.measure.plan import FIXED, SEQUENTIAL, make_plan
from perfproof.pipeline.looks import design_for, first_look_round, forks_per_step, looker_for
from perfproof.stats.sequential import Schedule


def plan(rounds: int, *options: str, stopping: str = SEQUENTIAL):
    return make_plan(rounds, "abba", None, (), tuple(options), stopping=stopping)


def test_one_fork_per_step_looks_from_round_three() -> None:
    p = plan(10, "-f", "1", "-i", "4")
    assert forks_per_step(p.jmh_options) == 1 and first_look_round(p) == 3
    d = design_for(p)
    assert d.schedule == Schedule(8, 3, 1)
    assert looker_for(p)({}, {}, 2, {}) == {}  # two forks a side: no look yet


def test_two_forks_per_step_look_from_round_two() -> None:
    p = plan(6, "-f", "1", "-f", "2")  # the last -f wins, as in JMH
    d = design_for(p)
    assert first_look_round(p) == 2 and d.schedule == Schedule(5, 4, 2)


def test_the_design_recorded_at_the_start_is_the_one_a_resume_uses() -> None:
    import dataclasses

    p = plan(10, "-f", "1")
    design = design_for(p)
    recorded = dataclasses.replace(
        design, schedule=dataclasses.replace(design.schedule, max_looks=5)
    ).to_block()
    resumed = p.model_copy(update={"design": recorded})
    assert first_look_round(resumed) == 3
    assert looker_for(resumed)({}, {}, 2, {}) == {}


@pytest.mark.parametrize(("rounds", "forks"), [(10, "5"), (40, "1")])
def test_an_uncalibrated_schedule_is_refused_with_the_flags_to_change(rounds, forks) -> None:
    with pytest.raises(InputError, match="--max-rounds") as err:
        design_for(plan(rounds, "-f", forks))
    assert "--rounds N" in str(err.value)


def test_a_fixed_plan_never_stops_a_key() -> None:
    assert looker_for(plan(3, "-f", "1", stopping=FIXED))({}, {}, 3, {}) == {}


def test_ab_stops_hopeless_keys_by_default_and_records_the_bound() -> None:
    """``ab``'s design carries the futility bound into the manifest (a resume keeps it), and
    the command that repeats the run names it when it is not the default."""
    from perfproof.compare.sequential_design import SequentialDesign
    from perfproof.defaults import FUTILITY
    from perfproof.pipeline.ab.options import AbOptions

    p = plan(10, "-f", "1")
    assert design_for(p).futility == FUTILITY > 0
    recorded = design_for(p, 0.0).to_block()
    assert SequentialDesign.from_block(recorded).futility == 0.0
    assert "--futility" not in AbOptions(base="a", head="b").reproduce_argv()
    argv = AbOptions(base="a", head="b", futility=0.0).reproduce_argv()
    assert argv[argv.index("--futility") + 1] == "0"


def test_a_budget_that_ends_before_the_first_look_is_warned_about() -> None:
    """Three rounds of 80 s do not fit in 200 s: every key would end with no interval."""

    from perfproof.pipeline.looks import budget_shortfall

    short = plan(10, "-f", "1").model_copy(update={"budget_s": 200.0})
    warning = budget_shortfall(short, 80.0)
    assert warning is not None
    assert "--budget 3m20s" in warning and "3 rounds of about 1m20s" in warning
    assert "about 4m00s" in warning and "-p" in warning
    assert budget_shortfall(short, 66.0) is None  # 3 × 66 s = 198 s fits
    assert budget_shortfall(short.model_copy(update={"budget_s": None}), 80.0) is None
    fixed = plan(3, "-f", "1", stopping=FIXED).model_copy(update={"budget_s": 200.0})
    assert budget_shortfall(fixed, 80.0) is None
    two_forks = plan(6, "-f", "2").model_copy(update={"budget_s": 200.0})
    assert budget_shortfall(two_forks, 90.0) is None  # the first look is after round 2


def test_a_budget_that_ends_after_one_fork_a_side_leaves_every_key_undecided(tmp_path) -> None:
    """One round fits the budget: the head is 5% slower in every iteration, which iterations
    pooled as if independent would call regressed; with one fork a side no key gets a verdict,
    each says how far the run got, and a gate names them."""
    import io

    from perfproof.compare.undecided import unlooked
    from perfproof.measure.progress import PlainReporter
    from perfproof.measure.rounds import BUDGET, RoundLoop
    from perfproof.model import Verdict
    from perfproof.pipeline.looks import final_comparison

    from .test_rounds import KEYS, FakeJmh, new_store

    store = new_store(tmp_path)
    store.init_steps(store.plan.model_copy(update={"budget_s": 8.0}))
    loop = RoundLoop(
        store,
        FakeJmh(store, []).run_steps,
        lambda step: 10.0,
        KEYS,
        looker_for(store.plan),
        PlainReporter(io.StringIO()),
    )
    state, ended = loop.run()
    assert ended == BUDGET and store.plan.planned_rounds == 1
    result, _ = final_comparison(store, state, ended)
    primary = [c for c in result.comparisons if c.key.metric == "primary"]
    assert primary and all(c.verdict is Verdict.INCONCLUSIVE for c in result.comparisons)
    assert all(c.warnings[0] == "undecided: budget ended after 1 fork a side" for c in primary)
    assert all(c.ratio_ci[0] <= 1.0 <= c.ratio_ci[1] for c in primary)
    assert len(unlooked(result.comparisons)) == len(result.comparisons)
    # the iteration fallback's "interval is too narrow" note goes with the interval it describes
    assert not any("iterations compared as if independent" in w for w in primary[0].warnings)


@pytest.mark.parametrize(
    ("kind", "decided"),
    [
        ("static path", True),
        ("seen in a recording", True),
        ("no static path", False),
        (None, False),
    ],
)
def test_the_looks_use_the_reach_known_before_them(kind, decided) -> None:
    """All base forks slow, all head fast: the reach the run recorded before its first look
    decides whether the looker takes the clean split as the change (a path or a recording) or
    holds it (no static path, or nothing known)."""
    import numpy as np
    from tests.compare.test_sequential import _pairs, _rounds

    from perfproof.model.documents.reach import BenchReach, RunReach
    from perfproof.model.reach import Reach

    rounds = _rounds(np.random.default_rng(1), {"big": 0.6}, 3)
    base = {b.key: b for b, _ in _pairs(rounds, 3)}
    head = {h.key: h for _, h in _pairs(rounds, 3)}
    reach = (
        None
        if kind is None
        else RunReach(benchmarks={"big": BenchReach(benchmark="big", kind=Reach(kind), why="")})
    )
    decisions = looker_for(plan(8, "-f", "1"), reach)(base, head, 3, {})
    assert [d.decided for d in decisions.values()] == [decided]
    failed = RunReach(
        benchmarks={"big": BenchReach(benchmark="big", kind=Reach.STATIC_PATH, why="")},
        error="index failed",
    )
    held = looker_for(plan(8, "-f", "1"), failed)(base, head, 3, {})
    assert [d.decided for d in held.values()] == [False]  # a reach that failed knows nothing
