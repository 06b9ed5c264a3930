"""Static reach measured against recordings: recall and precision on data whose truth is known."""

from __future__ import annotations

import random

import pytest

from lab.reach_accuracy import (
    DIRECT,
    DISPATCH,
    NONE,
    Seen,
    accuracy,
    seen_by_benchmark,
    seen_in,
)
from perfproof.model.documents.prove_stages import BenchmarksResult, ReachedBenchmark
from perfproof.profile.stacks import Profile

RUNNER = ("org.openjdk.jmh.runner.BenchmarkHandler$BenchmarkTask.call",)
CHANGED = ("acme.Codec$Inner.pack",)


def _found(direct: list[str], dispatch: list[str]) -> BenchmarksResult:
    changed = "Codec.Inner.pack()"
    reached = [ReachedBenchmark(benchmark=b, path=(b, changed), changed=changed) for b in direct]
    reached += [
        ReachedBenchmark(
            benchmark=b, path=(b, changed), changed=changed, via_dispatch=True, dispatch="x → y"
        )
        for b in dispatch
    ]
    return BenchmarksResult(source="call graph", depth=6, reached=tuple(reached))


def _stack(bench: str, *frames: str) -> tuple[str, ...]:
    return (*RUNNER, f"acme.bench.{bench}", *frames)


def test_a_nested_class_frame_is_matched_and_the_jvms_own_work_is_not_the_benchmarks():
    p = Profile(
        "fork-1",
        cpu={
            _stack("B.run", "acme.Codec$Inner.pack"): 7,
            _stack("B.run", "acme.Codec.other"): 13,
            ("java.lang.ClassLoader.loadClass", "acme.Codec$Inner.pack"): 50,
        },
        alloc={(_stack("B.run", "acme.Codec$Inner.pack"), "byte[]"): 640},
    )
    s = seen_in([p], ["acme.Codec.Inner.pack"])  # the source index spells nested classes so
    assert (s.samples, s.changed_samples, s.changed_bytes) == (20, 7, 640)
    assert s.methods == ("acme.Codec.Inner.pack",) and s.runs


def test_an_allocation_alone_shows_the_change_and_no_sample_at_all_judges_nothing():
    only_alloc = Profile("f", cpu={_stack("B.run"): 9}, alloc={(_stack("B.run", *CHANGED), "X"): 8})
    assert seen_in([only_alloc], CHANGED).runs
    empty = seen_in([Profile("f")], CHANGED)
    assert not empty.runs and not empty.judged


def test_param_keys_of_one_benchmark_are_one_benchmark():
    shows = Profile("a", cpu={_stack("B.run", *CHANGED): 1})
    quiet = Profile("b", cpu={_stack("B.run"): 99})
    seen = seen_by_benchmark(
        [("acme.bench.B.run(n=1) [avgt]", [quiet]), ("acme.bench.B.run(n=2) [avgt]", [shows])],
        CHANGED,
    )
    assert list(seen) == ["acme.bench.B.run"] and seen["acme.bench.B.run"].runs


def test_recall_and_precision_count_each_kind_of_benchmark_once():
    runs, quiet = Seen(100, 5), Seen(100, 0)
    found = _found(direct=["d.hit", "d.over"], dispatch=["v.hit", "v.over1", "v.over2"])
    seen = {
        "d.hit": runs, "d.over": quiet, "v.hit": runs, "v.over1": quiet, "v.over2": quiet,
        "n.missed": runs, "n.quiet": quiet, "n.silent": Seen(0),
    }  # fmt: skip
    acc = accuracy([*seen, "n.unrecorded"], found, seen)
    assert {r.benchmark: r.reach for r in acc.rows}["v.hit"] == DISPATCH
    assert [r.benchmark for r in acc.running] == ["d.hit", "n.missed", "v.hit"]
    assert acc.recall == pytest.approx(2 / 3)
    assert [r.benchmark for r in acc.missed] == ["n.missed"]
    assert acc.precision() == pytest.approx(2 / 5)
    assert acc.precision(DIRECT) == pytest.approx(1 / 2)
    assert acc.precision(DISPATCH) == pytest.approx(1 / 3)
    assert {r.benchmark for r in acc.over} == {"d.over", "v.over1", "v.over2"}
    assert acc.precision_confirmed == pytest.approx(2 / 3)  # d.hit, d.over, v.hit
    assert [r.benchmark for r in acc.not_judged] == ["n.silent", "n.unrecorded"]
    doc = acc.document().dump()
    assert doc["judged"] == 7 and doc["missed"] == ["n.missed"]


def test_nothing_to_judge_is_no_figure_rather_than_a_perfect_one():
    acc = accuracy(["a"], _found([], []), {"a": Seen(100, 0)})
    assert acc.recall is None and acc.precision() is None
    assert acc.rows[0].reach == NONE


def test_on_random_suites_the_figures_match_a_count_by_hand():
    rng = random.Random(26)
    for _ in range(200):
        names = [f"b{i}" for i in range(rng.randint(1, 30))]
        truth = {b: rng.random() < 0.4 for b in names}
        kind = {b: rng.choice([DIRECT, DISPATCH, NONE]) for b in names}
        seen = {b: Seen(50, int(truth[b])) for b in names}
        found = _found(
            [b for b in names if kind[b] == DIRECT], [b for b in names if kind[b] == DISPATCH]
        )
        acc = accuracy(names, found, seen)
        pos = [b for b in names if truth[b]]
        hit = [b for b in pos if kind[b] != NONE]
        reached = [b for b in names if kind[b] != NONE]
        assert acc.recall == (len(hit) / len(pos) if pos else None)
        assert acc.precision() == (len(hit) / len(reached) if reached else None)
