"""The look API the run loop calls after each round: stopping, freezing, re-runs, resume."""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Any

import numpy as np
import pytest

from lab.simulate import ForkNoise, hierarchical
from perfproof.compare import CompareOptions, notes
from perfproof.compare.sequential import SequentialDesign, look, needs_rerun
from perfproof.compare.sequential_design import FIRST_FORKS
from perfproof.compare.sequential_method import methodology
from perfproof.compare.sequential_replay import ReplaySettings, replay
from perfproof.errors import InputError
from perfproof.model import ALLOC_NORM, BenchKey, Direction, Samples, Verdict
from perfproof.model.diagnostics import ComparisonMethod
from perfproof.model.documents.codec import decode_value, encode
from perfproof.model.documents.run_plan import DesignBlock
from perfproof.model.enums import Family
from perfproof.stats.methods import FORK_RANKS
from perfproof.stats.sequential import Schedule
from perfproof.units import change_interval


def _design(
    max_looks: int,
    *,
    first_forks: int = FIRST_FORKS,
    forks_per_look: int = 1,
    futility: float = 0.0,
    **verdict: Any,
) -> SequentialDesign:
    """A design of ``max_looks`` looks judged as ``CompareOptions(**verdict)``."""
    schedule = Schedule(max_looks, first_forks, forks_per_look)
    return SequentialDesign(schedule, CompareOptions(**verdict), futility)


DESIGN = _design(6)


def _side(name: str, forks: list[np.ndarray], metric: str = "primary", unit: str = "ns/op"):
    key = BenchKey(name, "avgt", (("n", "16"),), metric)
    return Samples(key, unit, Direction.LOWER, [np.asarray(f, dtype=float) for f in forks])


def _rounds(
    rng: np.random.Generator, effects: dict[str, float], rounds: int, sd: float = 0.03
) -> list[tuple[dict[BenchKey, Samples], dict[BenchKey, Samples]]]:
    """Per round, one fork per side for each benchmark; ``effects`` maps name → head/base;
    ``sd`` is the fork-to-fork spread (iterations scatter by 1% or ``sd``, the smaller)."""
    noise = ForkNoise(fork_sd=sd, iteration_sd=min(sd, 0.01))
    out = []
    for _ in range(rounds):
        base, head = {}, {}
        for name, ratio in effects.items():
            b = _side(name, hierarchical(rng, 1, 8, 100.0, noise))
            h = _side(name, hierarchical(rng, 1, 8, 100.0 * ratio, noise))
            base[b.key], head[h.key] = b, h
        out.append((base, head))
    return out


def _pairs(rounds, upto: int) -> list[tuple[Samples, Samples]]:
    """Every key's forks of the first ``upto`` rounds, as the run loop would pass them."""
    pairs = []
    for key in rounds[0][0]:
        b = [f for r in rounds[:upto] for f in r[0][key].forks]
        h = [f for r in rounds[:upto] for f in r[1][key].forks]
        pairs.append((replace(rounds[0][0][key], forks=b), replace(rounds[0][1][key], forks=h)))
    return pairs


def test_a_large_change_stops_early_and_stays_decided() -> None:
    rng = np.random.default_rng(1)
    rounds = _rounds(rng, {"big": 0.6, "none": 1.0}, 8)
    decisions: dict = {}
    for k in range(1, DESIGN.schedule.max_looks + 1):
        decisions = look(_pairs(rounds, 2 + k), k, DESIGN, decisions)
        if k == 1:
            first = decisions
        if k == 4:
            fourth = decisions
    big = next(d for d in decisions.values() if d.key.benchmark == "big")
    none = next(d for d in decisions.values() if d.key.benchmark == "none")
    # 3 forks per side, all base forks slow and all head forks fast: two code shapes met by
    # chance would look the same 3% of the time, so the look asks for more forks
    held = first[big.key]
    assert not held.decided and held.comparisons[0].verdict is Verdict.INCONCLUSIVE
    groups = held.comparisons[0].diagnostics.fork_groups
    assert groups is not None and groups.held
    assert (groups.base_low, groups.base_high, groups.head_low, groups.head_high) == (0, 3, 3, 0)
    assert any(
        w.startswith("bimodal: 0 of 3 base forks in the fast group, 3 of 3 head forks")
        and "the fast shape's weight: base 0%, head 100%" in w
        and "more forks before any verdict" in w
        for w in held.comparisons[0].warnings
    )
    # at 6 per side (0.05% by chance) the occupancy is beyond the key's level in a family of
    # two (Benjamini–Hochberg gives it α/2): decided, and kept
    assert fourth[big.key].decided and big.look == 4
    assert big is fourth[big.key]  # carried over unchanged, not judged again
    c = big.comparisons[0]
    assert c.verdict is Verdict.IMPROVED and c.ratio_ci[1] < 1.0
    assert c.diagnostics.fork_groups is not None and not c.diagnostics.fork_groups.held
    assert c.base.forks == 6 and encode(c.diagnostics)["sequential"]["look"] == 4
    # the unchanged entry ran to the last look and says how much change it rules out
    assert none.decided and none.look == DESIGN.schedule.max_looks
    n = none.comparisons[0]
    assert n.verdict is Verdict.INCONCLUSIVE
    lo, hi = n.ratio_ci
    assert lo < 1.0 < hi
    # the bound is the interval itself, on the ratio's own scale: never a ± past -100%
    assert any(f"the change is within {change_interval(lo, hi)}" in w for w in n.warnings)
    assert not any("±" in w and "beyond" in w for w in n.warnings)
    assert "stopped at look 4" in big.note
    text = methodology(DESIGN, decisions)
    assert "1 of 2 entries stopped before the last look" in text
    assert "Benjamini–Hochberg" in text


def test_every_interval_agrees_with_its_verdict() -> None:
    rng = np.random.default_rng(2)
    effects = {f"k{i}": r for i, r in enumerate((0.7, 0.9, 0.97, 1.0, 1.0, 1.03, 1.3, 1.005))}
    rounds = _rounds(rng, effects, 8)
    decisions: dict = {}
    for k in range(1, DESIGN.schedule.max_looks + 1):
        decisions = look(_pairs(rounds, 2 + k), k, DESIGN, decisions)
        for d in decisions.values():
            for c in d.comparisons:
                lo, hi = c.ratio_ci
                excludes = lo > 1.0 or hi < 1.0
                significant = c.verdict in (Verdict.IMPROVED, Verdict.REGRESSED, Verdict.NEGLIGIBLE)
                assert excludes == significant, (c.key, c.verdict, c.ratio_ci)
                # a key held for its fork groups: the interval reaches 1, with the reason
                groups = c.diagnostics.fork_groups
                if groups is not None and groups.held:
                    assert c.verdict is Verdict.INCONCLUSIVE and lo <= 1.0 <= hi
                    assert any(w.startswith("bimodal:") for w in c.warnings)
                if c.verdict is Verdict.SAME:
                    assert lo >= 0.99 and hi <= 1.01


def test_resume_recomputes_the_same_state() -> None:
    """Looks are a pure function of the forks: replaying the rounds after a crash gives the
    decisions the uninterrupted run had."""
    rng = np.random.default_rng(3)
    rounds = _rounds(rng, {"a": 0.8, "b": 1.0, "c": 1.1}, 7)
    live: dict = {}
    for k in range(1, 4):
        live = look(_pairs(rounds, 2 + k), k, DESIGN, live)
    again: dict = {}
    for k in range(1, 4):
        again = look(_pairs(rounds, 2 + k), k, DESIGN, again)
    assert {k: (d.decided, d.look) for k, d in live.items()} == {
        k: (d.decided, d.look) for k, d in again.items()
    }
    for key in live:
        assert [c.ratio_ci for c in live[key].comparisons] == [
            c.ratio_ci for c in again[key].comparisons
        ]
    replayed = replay(rounds[:5], ReplaySettings(max_looks=DESIGN.schedule.max_looks), "test")
    assert {k: (d.decided, d.look) for k, d in replayed.decisions.items()} == {
        k: (d.decided, d.look) for k, d in live.items()
    }


def test_an_unwarmed_fork_counts_with_its_steady_iterations() -> None:
    """A head fork whose first three of eight iterations sit 5x above the rest keeps its
    other five: the look counts it (3 forks a side, nothing to run again) with the mean of its
    steady iterations, and says which iterations it left out."""
    rng = np.random.default_rng(4)
    rounds = _rounds(rng, {"x": 1.0}, 3)
    key = next(iter(rounds[0][0]))
    steady = rounds[1][1][key].forks[0].copy()
    cold = steady.copy()
    cold[:3] = cold[:3] * 5.0  # head fork 2: three iterations far above the rest
    rounds[1][1][key] = replace(rounds[1][1][key], forks=[cold])
    decisions = look(_pairs(rounds, 3), 1, DESIGN, {})
    d = decisions[key]
    assert d.trimmed == {"head": {1: 3}} and d.excluded == {}
    assert needs_rerun(decisions) == {}
    c = d.comparisons[0]
    assert (c.base.forks, c.head.forks) == (3, 3)
    assert any("head fork 2 (3 of 8)" in w and "steady iterations" in w for w in c.warnings)
    # the fork's mean is its steady part's: the same look as with those five alone
    rounds[1][1][key] = replace(rounds[1][1][key], forks=[steady[3:]])
    alone = look(_pairs(rounds, 3), 1, DESIGN, {})[key].comparisons[0]
    assert alone.ratio_ci == c.ratio_ci and alone.head == c.head


def test_exact_bytes_decide_at_the_first_look_and_stay() -> None:
    rng = np.random.default_rng(5)
    rounds = _rounds(rng, {"y": 1.0}, 6)
    key = next(iter(rounds[0][0]))
    alloc = key.with_metric(ALLOC_NORM)
    for r in rounds:
        for side, level in ((r[0], 48.0), (r[1], 24.0)):
            side[alloc] = replace(_side("y", [np.full(8, level)], ALLOC_NORM, "B/op"), key=alloc)
    decisions = look(_pairs(rounds, 3), 1, DESIGN, {})
    d = decisions[key]
    by_metric = {c.key.metric: c for c in d.comparisons}
    assert by_metric[ALLOC_NORM].verdict is Verdict.IMPROVED
    assert encode(by_metric[ALLOC_NORM].diagnostics)["sequential"]["decided"]
    assert not d.decided  # time is still open
    later = look(_pairs(rounds, 4), 2, DESIGN, decisions)
    kept = {c.key.metric: c for c in later[key].comparisons}[ALLOC_NORM]
    assert kept is by_metric[ALLOC_NORM]
    assert kept.base.forks == 3  # frozen at the look that decided it


def test_bad_looks_and_designs_are_refused() -> None:
    with pytest.raises(ValueError, match="outside"):
        look([], 7, DESIGN, {})
    with pytest.raises(ValueError, match="no calibrated levels"):
        _design(4, first_forks=9)
    # the family is the enum from the door and from a recorded design on: a plan's word
    # that names no procedure is refused when the plan is read
    written = DESIGN.to_block().dump() | {"family": "bonferroni"}
    with pytest.raises(InputError, match="'family' is not one of bh, holm, none"):
        DesignBlock.read(written, "manifest.json")
    assert math.isclose(DESIGN.alpha, 0.01)


def test_quiet_keys_stop_as_same_or_negligible() -> None:
    """With little fork-to-fork spread, an unchanged key is ``same`` and a 0.5% change
    ``negligible`` (θ = 1%) long before the last look."""
    rng = np.random.default_rng(6)
    rounds = _rounds(rng, {"flat": 1.0, "tiny": 1.005}, 8, sd=0.0005)
    decisions: dict = {}
    for k in range(1, DESIGN.schedule.max_looks + 1):
        decisions = look(_pairs(rounds, 2 + k), k, DESIGN, decisions)
    verdicts = {d.key.benchmark: (d.comparisons[0].verdict, d.look) for d in decisions.values()}
    assert verdicts["flat"][0] is Verdict.SAME and verdicts["flat"][1] < DESIGN.schedule.max_looks
    assert (
        verdicts["tiny"][0] is Verdict.NEGLIGIBLE
        and verdicts["tiny"][1] < DESIGN.schedule.max_looks
    )


def test_throughput_higher_is_better() -> None:
    rng = np.random.default_rng(7)
    rounds = _rounds(rng, {"thr": 1.5}, 5)
    for r in rounds:
        for side in r:
            for key, s in side.items():
                side[key] = replace(s, unit="ops/s", direction=Direction.HIGHER)
    decisions = look(_pairs(rounds, 3), 1, DESIGN, {})
    (d,) = decisions.values()
    # higher is better: the fast group is the high one, where every head fork is
    assert (
        d.comparisons[0]
        .warnings[0]
        .startswith("bimodal: 0 of 3 base forks in the fast group, 3 of 3 head forks")
    )
    for k in (2, 3):
        decisions = look(_pairs(rounds, 2 + k), k, DESIGN, decisions)
    (d,) = decisions.values()
    c = d.comparisons[0]
    assert c.verdict is Verdict.IMPROVED and c.ratio_ci[0] > 1.0


def test_design_round_trips_through_json() -> None:
    design = _design(8, confidence=0.95, family=Family.HOLM, forks_per_look=2)
    assert SequentialDesign.from_block(design.to_block()) == design


@pytest.mark.parametrize("run", ["kryo-24-keys-defaults", "demo-aa-control", "kryo-merged"])
def test_a_recorded_design_is_made_again_and_written_as_it_was(run: str) -> None:
    """The design a real run's plan recorded: made again as the design it was, it writes the
    entries it was read with, in their order and with their values (a plan written before the
    looks' method was recorded gains that entry only, at the end, as any rewrite of it does)."""
    import json
    from pathlib import Path

    path = Path(__file__).resolve().parents[1] / "fixtures" / "runs" / run / "manifest.json"
    recorded = json.loads(path.read_text())["plan"]["design"]
    block = DesignBlock.read(recorded, run)
    written = SequentialDesign.from_block(block).to_block().dump()
    assert json.dumps(written) == json.dumps(block.dump())
    assert list(written)[: len(recorded)] == list(recorded)
    assert {k: written[k] for k in recorded} == recorded


def test_futility_stops_an_unchanged_entry_without_a_verdict() -> None:
    rng = np.random.default_rng(8)
    rounds = _rounds(rng, {"big": 0.6, "none": 1.0}, 8)
    design = _design(6, futility=0.05)
    decisions: dict = {}
    for k in range(1, design.schedule.max_looks + 1):
        decisions = look(_pairs(rounds, 2 + k), k, design, decisions)
        if all(d.decided for d in decisions.values()):
            break
    none = next(d for d in decisions.values() if d.key.benchmark == "none")
    assert none.decided and none.look < design.schedule.max_looks
    c = none.comparisons[0]
    assert c.verdict is Verdict.INCONCLUSIVE and c.ratio_ci[0] < 1.0 < c.ratio_ci[1]
    assert encode(c.diagnostics)["sequential"]["futile"]
    said = encode(c.diagnostics)["sequential"]
    assert said["futility_rule"] in ("equivalence", "predictive")
    if said["futility_rule"] == "predictive":
        assert said["predictive_power"] < 0.05
    assert any("without a verdict" in w for w in c.warnings)
    assert "cannot add false alarms" in methodology(design, decisions)
    with pytest.raises(ValueError, match="futility"):
        _design(4, futility=1.5)


def test_a_fork_that_started_unsettled_costs_the_futility_stop_nothing() -> None:
    """A fork whose first iterations had not settled counts with its steady ones, so an entry
    is judged on the forks the plan says and the futility stop comes at the same look as
    without the cold start (before, the fork was left out and the stop waited for its
    replacement: a fork of JVM time, and a round, for nothing)."""
    rng = np.random.default_rng(8)
    rounds = _rounds(rng, {"none": 1.0}, 8)
    design = _design(6, futility=0.05)
    key = next(iter(rounds[0][0]))
    plain: dict = {}
    for k in range(1, design.schedule.max_looks + 1):
        plain = look(_pairs(rounds, 2 + k), k, design, plain)
        if plain[key].decided:
            break
    stopped_at = plain[key].look
    assert encode(plain[key].comparisons[0].diagnostics)["sequential"]["futile"]
    cold = rounds[0][0][key].forks[0].copy()
    cold[:3] = cold[:3] * 5.0  # base fork 1 had not warmed up for three iterations
    rounds[0][0][key] = replace(rounds[0][0][key], forks=[cold])
    decisions: dict = {}
    for k in range(1, stopped_at + 1):
        decisions = look(_pairs(rounds, 2 + k), k, design, decisions)
    d = decisions[key]
    assert d.trimmed == {"base": {0: 3}} and d.decided and not needs_rerun(decisions)
    assert encode(d.comparisons[0].diagnostics)["sequential"]["futile"]


def test_a_huge_bound_is_said_in_words_not_numbers() -> None:
    rng = np.random.default_rng(3)
    rounds = _rounds(rng, {"x": 1.0}, 3, sd=3.0)
    design = _design(1)
    d = next(iter(look(_pairs(rounds, 3), 1, design, {}).values()))
    notes = [w for w in d.comparisons[0].warnings if "inconclusive after" in w]
    assert notes and all(len(w) < 260 for w in notes)
    assert all("too wide to bound the change" in w for w in notes)
    assert all("only a change past a thousand-fold" in w for w in notes)
    assert not any(">999" in w or "±" in w for w in notes)


def test_aa_forks_in_two_code_shapes_split_by_side_at_first_are_never_called_changed() -> None:
    """The JCTools case: one commit against itself, forks in two shapes 10% apart. The first
    three forks of base landed in the slow shape and those of head in the fast one (Welch
    alone would call that improved); later forks land evenly. Every look holds the key or
    leaves it undecided, and at the last it is inconclusive with the groups, not changed."""
    rng = np.random.default_rng(12)
    design = _design(4)

    def fork(slow: bool) -> np.ndarray:
        return (
            100.0 * (1.1 if slow else 1.0) * np.exp(rng.normal(0, 0.01) + rng.normal(0, 0.003, 6))
        )

    slow_base = [True, True, True, False, True, False]
    slow_head = [False, False, False, True, False, True]
    base = [fork(s) for s in slow_base]
    head = [fork(s) for s in slow_head]
    decisions: dict = {}
    for k in range(1, design.schedule.max_looks + 1):
        n = design.schedule.forks_at(k)
        pairs = [(_side("jct", base[:n]), _side("jct", head[:n]))]
        decisions = look(pairs, k, design, decisions)
        (d,) = decisions.values()
        c = d.comparisons[0]
        assert c.verdict not in (Verdict.IMPROVED, Verdict.REGRESSED), (k, c.warnings)
        if k == 1:
            groups = c.diagnostics.fork_groups
            assert groups is not None and groups.held and not d.decided
            assert (groups.base_high, groups.head_low) == (3, 3)
    assert d.decided and c.verdict is Verdict.INCONCLUSIVE
    assert c.ratio_ci[0] <= 1.0 <= c.ratio_ci[1]
    assert any(
        w.startswith("bimodal: 2 of 6 base forks in the fast group, 4 of 6 head")
        for w in c.warnings
    )


@pytest.mark.parametrize("reached", [True, False, None])
def test_a_clean_split_is_decided_at_the_first_look_only_where_the_change_reaches(reached):
    """The same forks as above (all base slow, all head fast, 3 a side): decided at the first
    look when the change reaches the benchmark, held when no call path reaches it or reach is
    not known (files compared without a repository), each saying which applied."""
    rng = np.random.default_rng(1)
    rounds = _rounds(rng, {"big": 0.6, "none": 1.0}, 8)
    reach = None if reached is None else {"big": reached, "none": False}
    first = look(_pairs(rounds, 3), 1, DESIGN, {}, reach)
    big = next(d for d in first.values() if d.key.benchmark == "big")
    c = big.comparisons[0]
    groups = c.diagnostics.fork_groups
    assert groups is not None and groups.reached is reached
    assert big.decided is bool(reached) and notes.explained(groups) is bool(reached)
    assert groups.held is not bool(reached)
    said = next(w for w in c.warnings if w.startswith("bimodal:"))
    if reached:
        assert c.verdict is Verdict.IMPROVED and c.ratio_ci[1] < 1.0
        assert "the change reaches this benchmark" in said
        assert "1 decided as the change's clean split" in methodology(DESIGN, first)
    else:
        assert c.verdict is Verdict.INCONCLUSIVE
        why = "no static call path" if reached is False else "reach is not known"
        assert why in said
    back = decode_value(type(c.diagnostics), encode(c.diagnostics))
    assert back.fork_groups == groups


def test_a_fork_left_out_once_does_not_hold_back_the_futility_stop_for_good() -> None:
    """An unchanged key whose first base fork started unsettled (its first iterations left out
    of its mean): futility may stop it, and the stop says the smallest change the run could
    have seen. Before, one fork left out in round 1 kept the key running to the last look."""
    rng = np.random.default_rng(5)
    design = _design(8, futility=0.05)
    rounds = _rounds(rng, {"none": 1.0}, 11)
    key = next(iter(rounds[0][0]))
    cold = rounds[0][0][key].forks[0].copy()
    cold[:3] *= 4.0  # the first iterations far from the rest of their own fork
    rounds[0][0][key] = replace(rounds[0][0][key], forks=[cold])
    decisions: dict = {}
    for k in range(1, design.schedule.max_looks + 1):
        decisions = look(_pairs(rounds, 2 + k), k, design, decisions)
        if decisions[key].decided:
            break
    d = decisions[key]
    assert d.trimmed == {"base": {0: 3}} and d.excluded == {}
    assert d.decided and d.look < design.schedule.max_looks and d.settled
    c = d.comparisons[0]
    assert c.verdict is Verdict.INCONCLUSIVE and c.diagnostics.sequential.futile
    said = next(w for w in c.warnings if w.startswith("stopped at look"))
    assert "it would have seen a change outside -" in said and "±" not in said.split(";")[0]
    assert "more forks a side" in said
    assert c.mde_pct is not None and 0 < c.mde_pct < 50


def test_a_key_out_of_looks_says_what_it_could_have_seen_and_is_not_settled() -> None:
    rng = np.random.default_rng(6)
    design = _design(2)
    rounds = _rounds(rng, {"none": 1.0}, 4, sd=0.2)
    decisions: dict = {}
    for k in (1, 2):
        decisions = look(_pairs(rounds, 2 + k), k, design, decisions)
    d = next(iter(decisions.values()))
    assert d.decided and not d.settled
    c = d.comparisons[0]
    # results.json says the same: the look stopped it, but nothing was decided
    assert encode(c.diagnostics)["sequential"]["decided"] is False
    assert any(
        w.startswith("inconclusive after 2 looks") and "would have seen a change outside" in w
        for w in c.warnings
    )


def test_a_replay_with_the_runs_reach_decides_a_clean_split_at_the_first_look() -> None:
    """Recorded rounds replayed as ``compare --sequential`` does (no reach: held) and with the
    reach an ``ab`` run recorded before its first look (decided at round 3)."""
    rounds = _rounds(np.random.default_rng(1), {"big": 0.6}, 6)
    held = replay(rounds, ReplaySettings(max_looks=4), "test")
    reached = replay(rounds, ReplaySettings(max_looks=4, reach={"big": True}), "test")
    (h,), (r,) = held.decisions.values(), reached.decisions.values()
    assert r.decided and held.stopped_at_round(h) > reached.stopped_at_round(r) == 3


def test_a_looks_interval_names_the_level_it_was_decided_at() -> None:
    """The repeated interval of a look is at the look's own level, stricter than the run's
    nominal one: the comparison says so (``interval_confidence``), so every report, JSON and
    export names the level the interval was computed at."""
    rng = np.random.default_rng(5)
    rounds = _rounds(rng, {"a": 0.8, "b": 1.0}, 4)
    decisions = look(_pairs(rounds, 3), 1, DESIGN, {})
    checked = 0
    for d in decisions.values():
        for c in d.comparisons:
            seq_look = c.diagnostics.sequential
            if seq_look is None or seq_look.per_look_level is None:
                continue
            checked += 1
            assert c.interval_confidence == pytest.approx(1.0 - seq_look.per_look_level)
            assert c.interval_confidence > 1.0 - DESIGN.alpha
            assert c.decided_level == c.interval_confidence
    assert checked >= 2


def test_the_rank_method_judges_the_looks_and_says_so() -> None:
    """The second fork-level method through the protocol alone: every look's interval is the
    ranks' own at Bonferroni's level across the looks, the comparisons record the method, the
    methodology says it, and a resumed run's design keeps it."""
    design = _design(6, method=ComparisonMethod.FORK_RANKS)
    assert design.method is FORK_RANKS
    assert design.per_look_level() == pytest.approx(design.alpha / 6)
    rounds = _rounds(np.random.default_rng(7), {"big": 0.7, "none": 1.0}, 8)
    decisions: dict = {}
    for k in range(1, design.schedule.max_looks + 1):
        decisions = look(_pairs(rounds, 2 + k), k, design, decisions)
        if k == 1:  # three forks a side: no rank test reaches a p below 0.1
            assert not any(d.decided for d in decisions.values())
    by_name = {d.key.benchmark: d for d in decisions.values()}
    big, none = by_name["big"], by_name["none"]
    c = big.comparisons[0]
    assert big.decided and c.verdict is Verdict.IMPROVED and c.ratio_ci[1] < 1.0
    # seven forks a side are the fewest whose exact p-value can pass α/6 in a family of two
    assert c.base.forks >= 7 and 1.0 - c.interval_confidence <= design.alpha / 6
    seq_look = c.diagnostics.sequential
    assert seq_look is not None and seq_look.per_look_level is not None
    assert c.interval_confidence == pytest.approx(1.0 - seq_look.per_look_level)
    assert none.comparisons[0].verdict not in (Verdict.IMPROVED, Verdict.REGRESSED)
    assert {c.method for d in decisions.values() for c in d.comparisons} == {
        ComparisonMethod.FORK_RANKS_SEQUENTIAL
    }
    assert "Bonferroni across the 6 looks" in methodology(design, decisions)
    assert SequentialDesign.from_block(design.to_block()).method is FORK_RANKS
