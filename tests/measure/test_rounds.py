"""The sequential round loop without a JVM: recorded JMH entries stand in for JMH's output.

A stand-in for JMH writes, for each step, the entries its selection asks for (copied from a
real JMH 1.37 result, with new fork values); a stand-in look decides keys by a fixed rule. That
isolates what the loop must get right: decided keys leave the plan, later rounds select exactly
the undecided keys, nothing on disk is rewritten, and a resumed run takes the same looks again.
"""

from __future__ import annotations

import copy
import dataclasses
import json
from dataclasses import dataclass
from pathlib import Path

import pytest

from perfproof.measure.argv import step_argv
from perfproof.measure.keys import suite_key_of, suite_keys
from perfproof.measure.plan import SEQUENTIAL, Step, make_plan
from perfproof.measure.progress import PlainReporter
from perfproof.measure.rounds import (
    ALL_DECIDED,
    BUDGET,
    MAX_ROUNDS,
    RoundLoop,
    replay,
)
from perfproof.measure.store import DONE, RunStore
from perfproof.model.documents.run import RunManifest
from perfproof.model.documents.suite import SuiteKey

FIXTURE = Path(__file__).parents[1] / "fixtures" / "jmh" / "jmh-1.37-allmodes-gc.json"

LISTING = (
    "Benchmarks: \n"
    + """\
fx.Codes.loopEmpty
  param "n" = {16, 128}
fx.Codes.sum
  param "n" = {16, 128}
"""
)
KEYS = suite_keys(LISTING)
TEMPLATES = {
    (e["benchmark"], e["params"]["n"]): e
    for e in json.loads(FIXTURE.read_text())
    if e["benchmark"] in ("fx.Codes.loopEmpty", "fx.Codes.sum")
}


def entries_for(step: Step, keys: list[SuiteKey]) -> list[dict]:
    """What JMH would write for a step: one entry per key, one fork of two iterations."""
    chosen = step.selection.members() if step.selection else keys
    out = []
    for k in chosen:
        entry = copy.deepcopy(TEMPLATES[(k.benchmark, dict(k.params)["n"])])
        value = 100.0 + step.round + (5.0 if step.side == "head" else 0.0)
        entry["forks"] = 1
        entry["primaryMetric"]["rawData"] = [[value, value + 0.5]]
        out.append(entry)
    return out


@dataclass
class FakeJmh:
    """Runs steps by writing their result files, and records every command line."""

    store: RunStore
    argvs: list[list[str]]
    lock_wait_s: float = 0.0
    """Seconds each step waited for another JMH's lock before its 2 s of JMH."""

    def run_steps(self, steps: list[Step]) -> None:
        plan = self.store.plan
        for step in steps:
            argv = step_argv(["jmh"], plan.benchmarks, plan.jmh_options, "OUT", step.selection)
            self.argvs.append(argv)
            path = self.store.result_path(step)
            path.write_text(json.dumps(entries_for(step, KEYS)))
            self.store.update_step(step, status=DONE, duration_s=2.0 + self.lock_wait_s,
                                   jmh_seconds=2.0, lock_wait_s=self.lock_wait_s)  # fmt: skip


def look_by_rule(stop_after: dict[str, int]):
    """A look that decides a key once each side has its number of forks (by benchmark@n)."""

    @dataclass(frozen=False)
    class Decided:
        key: object
        decided: bool
        look: int
        note: str = ""

    def look(base, head, look_no, previous):
        out = {}
        for k, b in base.items():
            need = stop_after.get(f"{k.benchmark.rsplit('.', 1)[1]}@{dict(k.params)['n']}")
            forks = min(b.fork_count, head[k].fork_count) if k in head else 0
            decided = need is not None and forks >= need
            out[k] = (
                previous.get(k)
                if previous.get(k) and previous[k].decided
                else Decided(k, decided, look_no)
            )
        return out

    return look


def new_store(tmp_path: Path, **plan_kw) -> RunStore:
    store = RunStore.create(tmp_path / "run", RunManifest(id="run", repo="/r"))
    plan_kw.setdefault("stopping", SEQUENTIAL)
    store.init_steps(make_plan(plan_kw.pop("rounds", 5), "abba", None, ("Codes",),
                               ("-f", "1", "-p", "n=16,128"), **plan_kw))  # fmt: skip
    return store


def loop_for(store: RunStore, argvs: list, rule: dict[str, int]) -> RoundLoop:
    import io

    return RoundLoop(
        store,
        FakeJmh(store, argvs).run_steps,
        lambda step: 10.0,
        KEYS,
        look_by_rule(rule),
        PlainReporter(io.StringIO()),
    )


RULE = {"loopEmpty@16": 2, "loopEmpty@128": 2, "sum@16": 3}


def test_decided_keys_leave_the_plan_and_later_rounds_select_the_rest(tmp_path: Path) -> None:
    store = new_store(tmp_path)
    argvs: list[list[str]] = []
    state, ended = loop_for(store, argvs, RULE).run()
    assert ended == f"{MAX_ROUNDS}: 1 key undecided after the last look"
    plan = store.plan
    by_round = {r: [s for s in plan.steps if s.round == r] for r in range(1, plan.rounds + 1)}
    # round 1 runs the suite as the user selected it; rounds 2 and 3 all four keys still
    # (no key has 2 forks a side before round 2 ends)
    assert [s.id for s in by_round[1]] == ["01-base", "01-head"]
    assert by_round[1][0].selection is None and "Codes" in argvs[0]
    assert {k.label() for k in by_round[2][0].selection.members()} == {k.label() for k in KEYS}
    # after round 2 both loopEmpty keys are decided: round 3 runs only fx.Codes.sum
    r3 = by_round[3][0].selection
    assert r3.benchmarks == ("fx.Codes.sum",) and r3.params == (("n", ("16", "128")),)
    # after round 3 sum@16 is decided too: rounds 4 and 5 run sum@128 alone
    assert [k.label() for k in by_round[4][0].selection.members()] == ["fx.Codes.sum(n=128)"]
    argv4 = argvs[6]
    assert argv4[1] == r"^fx\.Codes\.sum$" and argv4[argv4.index("-p") + 1] == "n=128"
    assert argv4.count("-p") == 1 and "Codes" not in argv4  # the user's regex and -p replaced
    assert [s.id for s in by_round[4]] == ["04-head", "04-base"]  # ABBA kept
    stopped = {k.label(): r for k, r in state.stopped.items()}
    assert stopped == {"fx.Codes.loopEmpty(n=128)": 2, "fx.Codes.loopEmpty(n=16)": 2,
                       "fx.Codes.sum(n=16)": 3}  # fmt: skip
    doc = state.to_block(KEYS, ended)
    rows = {e.key: e for e in doc.keys}
    assert rows["fx.Codes.sum(n=128)"].stopped_round is None
    assert not rows["fx.Codes.sum(n=128)"].decided and doc.looks == 5
    # every fork is kept: each key has one fork per side for every round it ran
    head = json.loads((store.path / "jmh" / "05-head.json").read_text())
    assert [e["benchmark"] for e in head] == ["fx.Codes.sum"]
    assert len(list((store.path / "jmh").glob("*.json"))) == 10


def test_the_loop_ends_when_every_key_is_decided(tmp_path: Path) -> None:
    store = new_store(tmp_path, rounds=10)
    rule = {"loopEmpty@16": 2, "loopEmpty@128": 2, "sum@16": 2, "sum@128": 3}
    state, ended = loop_for(store, [], rule).run()
    assert ended == ALL_DECIDED and store.plan.planned_rounds == 3
    assert set(state.stopped) == set(KEYS)


def test_keys_that_ran_out_of_looks_are_not_called_decided(tmp_path: Path) -> None:
    """The last look stops every key; one still without a verdict (not ``settled``) makes the
    run end "1 key undecided after the last look", and the manifest does not call it decided."""
    store = new_store(tmp_path, rounds=3)
    rule = {"loopEmpty@16": 2, "loopEmpty@128": 2, "sum@16": 2, "sum@128": 3}
    inner = look_by_rule(rule)

    @dataclass
    class OutOfLooks:
        key: object
        decided: bool
        look: int
        settled: bool
        note: str = ""

    def look(base, head, look_no, previous):
        out = inner(base, head, look_no, previous)
        return {
            k: OutOfLooks(k, d.decided, d.look, d.decided and "sum" not in k.benchmark)
            if not isinstance(d, OutOfLooks)
            else d
            for k, d in out.items()
        }

    loop = loop_for(store, [], rule)
    loop.looker = look
    state, ended = loop.run()
    assert ended == "2 keys undecided after the last look"
    rows = {e.key: e for e in state.to_block(KEYS, ended).keys}
    assert rows["fx.Codes.sum(n=16)"].stopped_round is not None
    assert not rows["fx.Codes.sum(n=16)"].decided
    assert rows["fx.Codes.loopEmpty(n=16)"].decided


def test_a_not_cross_product_round_runs_several_parts(tmp_path: Path) -> None:
    store = new_store(tmp_path, rounds=3)
    # left undecided after round 2: loopEmpty@128 and sum@16 (an "L" is not one -p product)
    rule = {"loopEmpty@16": 2, "sum@128": 2}
    argvs: list[list[str]] = []
    loop_for(store, argvs, rule).run()
    r3 = [s for s in store.plan.steps if s.round == 3]
    assert [s.id for s in r3] == ["03-base", "03-head", "03-base-2", "03-head-2"]
    selected = sorted(k.label() for s in r3 if s.side == "base" for k in s.selection.members())
    assert selected == ["fx.Codes.loopEmpty(n=128)", "fx.Codes.sum(n=16)"]


def test_resume_takes_the_same_looks_again_from_the_forks_on_disk(tmp_path: Path) -> None:
    store = new_store(tmp_path)
    argvs: list[list[str]] = []
    first, _ = loop_for(store, argvs, RULE).run()
    files = {p.name: p.read_bytes() for p in (store.path / "jmh").glob("*.json")}
    again = RunStore.open(store.path)
    state = replay(again, KEYS, look_by_rule(RULE))
    assert state.stopped == first.stopped and state.looks == first.looks
    # a run stopped in round 4: its last steps are missing; resuming runs only those
    (store.path / "jmh" / "04-base.json").unlink()
    (store.path / "jmh" / "05-head.json").unlink()
    (store.path / "jmh" / "05-base.json").unlink()
    resumed = RunStore.open(store.path)
    more: list[list[str]] = []
    state, _ = loop_for(resumed, more, RULE).run()
    assert len(more) == 3 and state.stopped == first.stopped
    for name, data in files.items():  # untouched files are byte for byte the same
        if name not in ("04-base.json", "05-head.json", "05-base.json"):
            assert (store.path / "jmh" / name).read_bytes() == data


@dataclass
class SlowStartJmh(FakeJmh):
    """Forks of four iterations; in round 1 every ``sum`` fork starts far from its level for
    two iterations (the slow side of the entry's mode)."""

    def run_steps(self, steps: list[Step]) -> None:
        for step in steps:
            entries = entries_for(step, KEYS)
            for e in entries:
                level = e["primaryMetric"]["rawData"][0][0]
                fork = [level, level * 1.002, level * 0.998, level * 1.001]
                if step.round == 1 and e["benchmark"].endswith(".sum"):
                    slow = 0.5 if e["mode"] == "thrpt" else 2.0
                    fork[:2] = [level * slow, level * slow]
                e["primaryMetric"]["rawData"] = [fork]
            self.argvs.append([step.id, str(step.warmup_iterations)])
            self.store.result_path(step).write_text(json.dumps(entries))
            self.store.update_step(step, status=DONE, duration_s=2.0, jmh_seconds=2.0)


def test_later_rounds_warm_up_longer_where_round_one_started_unsettled(tmp_path: Path) -> None:
    import io

    store = RunStore.create(tmp_path / "run", RunManifest(id="run", repo="/r"))
    store.init_steps(make_plan(3, "abba", None, ("Codes",),
                               ("-f", "1", "-wi", "3", "-w", "500ms", "-i", "4", "-r", "500ms",
                                "-p", "n=16,128"), stopping=SEQUENTIAL))  # fmt: skip
    said = io.StringIO()
    argvs: list[list[str]] = []
    never = look_by_rule({})
    RoundLoop(store, SlowStartJmh(store, argvs).run_steps, lambda s: 10.0, KEYS, never,
              PlainReporter(said)).run()  # fmt: skip
    r2 = [s for s in store.plan.steps if s.round == 2]
    by_bench = {b: s.warmup_iterations for s in r2 for b in s.selection.benchmarks}
    # two unsettled 0.5 s iterations: two more 0.5 s warm-up iterations, both sides alike
    assert by_bench == {"fx.Codes.loopEmpty": None, "fx.Codes.sum": 5}
    assert sorted(s.side for s in r2 if s.warmup_iterations == 5) == ["base", "head"]
    assert said.getvalue().count("warm-up from round 1's traces") == 1


def test_the_budget_stops_before_a_round_that_would_overrun(tmp_path: Path) -> None:
    # every step takes 2 s against an estimate of 10 s: the estimate is scaled by at most
    # 0.5, so a round of two steps is expected to take 10 s; after round 1 (4 s) round 2 fits
    # in 15 s, after round 2 (8 s) round 3 does not
    store = new_store(tmp_path, rounds=10, budget_s=15.0)
    _, ended = loop_for(store, [], RULE).run()
    assert ended == BUDGET and store.plan.planned_rounds == 2


def test_waiting_for_the_jmh_lock_is_not_charged_to_the_budget(tmp_path: Path) -> None:
    """Each step waits 60 s for another job's JMH, then runs 2 s: the budget of 15 s still
    buys the same two rounds as on a quiet machine, and the run says what was not counted."""
    import io

    store = new_store(tmp_path, rounds=10, budget_s=15.0)
    said = io.StringIO()
    loop = RoundLoop(store, FakeJmh(store, [], lock_wait_s=60.0).run_steps, lambda s: 10.0,
                     KEYS, look_by_rule(RULE), PlainReporter(said))  # fmt: skip
    _, ended = loop.run()
    assert ended == BUDGET and store.plan.planned_rounds == 2
    assert (
        "budget: 8s of --budget 15s measured (the time JMH ran; 4m00s waiting for the JMH "
        "lock not counted)" in said.getvalue()
    )


def test_an_unwarmed_fork_is_run_again_in_the_next_round(tmp_path: Path) -> None:
    store = new_store(tmp_path, rounds=3)
    base_look = look_by_rule({"loopEmpty@16": 2, "loopEmpty@128": 2, "sum@16": 2,
                              "sum@128": 2})  # fmt: skip

    def look(base, head, look_no, previous):
        out = base_look(base, head, look_no, previous)
        for k, d in out.items():
            if look_no == 2 and suite_key_of(k).label() == "fx.Codes.sum(n=16)":
                # its round-2 head fork never warmed up: left out of the look, run again
                out[k] = dataclasses.replace(d, decided=False)
                out[k].rerun = {"head": 1}
        return out

    import io

    argvs: list[list[str]] = []
    loop = RoundLoop(store, FakeJmh(store, argvs).run_steps, lambda s: 10.0, KEYS, look,
                     PlainReporter(io.StringIO()))  # fmt: skip
    state, ended = loop.run()
    r3 = [s for s in store.plan.steps if s.round == 3]
    # the round's own pair of forks, plus one catch-up fork on the head side
    assert [(s.id, s.forks) for s in r3] == [("03-base", None), ("03-head", None),
                                              ("03-head-2", 1)]  # fmt: skip
    assert all([k.label() for k in s.selection.members()] == ["fx.Codes.sum(n=16)"] for s in r3)
    assert argvs[-1][argvs[-1].index("-f") + 1] == "1"
    assert (
        ended == ALL_DECIDED
        and state.stopped[SuiteKey(benchmark="fx.Codes.sum", params=(("n", "16"),))] == 3
    )
    # the left-out fork stays in the record: nothing was deleted
    assert (store.path / "jmh" / "02-head.json").is_file()


def test_listing_fixture_matches_the_templates() -> None:
    assert {(k.benchmark, dict(k.params)["n"]) for k in KEYS} == set(TEMPLATES)


@pytest.mark.parametrize("futility", [0.0, 0.05])
def test_the_real_design_stops_a_large_effect_early_and_never_judges_aa_keys(
    tmp_path: Path, futility: float
) -> None:
    """The loop driven by the calibrated sequential look: forks with a known truth. Without
    the futility stop the A/A keys run to the last round; with ``ab``'s default one they may
    stop earlier, but only ever without a verdict. The planted change splits the forks in two
    groups by side, which is beyond chance in a family of keys from 6 forks per side on."""
    import numpy as np

    from perfproof.pipeline.looks import design_for, looker_for

    rng = np.random.default_rng(20261124)

    class Noisy(FakeJmh):
        def run_steps(self, steps: list[Step]) -> None:
            for step in steps:
                entries = entries_for(step, KEYS)
                for e in entries:
                    truth = 100.0
                    if e["benchmark"].endswith("sum") and e["params"]["n"] == "16":
                        truth = 50.0 if step.side == "head" else 100.0  # planted: −50 %
                    fork = truth * np.exp(rng.normal(0, 0.03)) * np.exp(rng.normal(0, 0.005, 4))
                    e["primaryMetric"]["rawData"] = [[float(x) for x in fork]]
                    e["secondaryMetrics"] = {}
                self.store.result_path(step).write_text(json.dumps(entries))
                self.store.update_step(step, status=DONE, duration_s=2.0 + self.lock_wait_s,
                                   jmh_seconds=2.0, lock_wait_s=self.lock_wait_s)  # fmt: skip

    import io

    plan = make_plan(8, "abba", None, ("Codes",), ("-f", "1", "-p", "n=16,128"),
                     stopping=SEQUENTIAL)  # fmt: skip
    plan = plan.model_copy(update={"design": design_for(plan, futility).to_block()})
    store = RunStore.create(tmp_path / "run", RunManifest(id="run", repo="/r"))
    store.init_steps(plan)
    loop = RoundLoop(store, Noisy(store, []).run_steps, lambda s: 10.0, KEYS,
                     looker_for(store.plan), PlainReporter(io.StringIO()))  # fmt: skip
    state, _ = loop.run()
    planted = SuiteKey(benchmark="fx.Codes.sum", params=(("n", "16"),))
    assert state.stopped[planted] < 8  # decided before the last round
    others = [state.stopped.get(k) for k in KEYS if k != planted]
    later = [s for s in store.plan.steps if s.round > state.stopped[planted]]
    assert all(planted not in s.selection.members() for s in later)
    if futility == 0.0:
        assert all(r == 8 for r in others) and later  # ran to the end
    else:  # the futility stop ends unchanged keys early too, on evidence only: one whose
        # estimate wanders near 2 se keeps a real chance of a verdict and may run to the end
        assert sum(r is not None and r < 8 for r in others) >= len(others) - 1, others
    verdicts = {suite_key_of(k): d.comparisons[0].verdict for k, d in state.decisions.items()}
    assert verdicts[planted] == "improved"
    assert not {verdicts[k] for k in KEYS if k != planted} & {"improved", "regressed"}


def test_a_budget_cuts_the_keys_measured_last_first(tmp_path: Path) -> None:
    """``prove`` measures last the benchmarks only dynamic dispatch reaches: when a round of
    every undecided key would overrun the budget, those keys are left undecided and the round
    runs the others; without them the loop stops at the budget a round earlier."""
    import io

    def estimate(step) -> float:  # 2.5 s a key, as JMH's time grows with the keys a step runs
        return 2.5 * (len(step.selection.members()) if step.selection is not None else len(KEYS))

    ran = {}
    for last in (frozenset(), frozenset({"fx.Codes.sum"})):
        store = new_store(tmp_path / str(len(last)), rounds=10, budget_s=16.0)
        loop = RoundLoop(store, FakeJmh(store, []).run_steps, estimate, KEYS, look_by_rule({}),
                         PlainReporter(io.StringIO()), last=last)  # fmt: skip
        state, ended = loop.run()
        assert ended == BUDGET
        ran[last] = (store.plan, state)
    plain, _ = ran[frozenset()]
    assert plain.planned_rounds == 2
    cut, state = ran[frozenset({"fx.Codes.sum"})]
    assert cut.planned_rounds == 3
    r3 = {k.label() for s in cut.steps if s.round == 3 for k in s.selection.members()}
    assert r3 == {"fx.Codes.loopEmpty(n=16)", "fx.Codes.loopEmpty(n=128)"}
    assert {k.benchmark for k in state.undecided(KEYS)} == {"fx.Codes.loopEmpty", "fx.Codes.sum"}
