"""Ranking by inclusive cost: a method whose callees hold most of its cost is a hypothesis
of its own, and its callees do not crowd the first places. The stacks are the shape of the
real t-digest hunt (BENCHMARKS.md): ``Sort.sort`` holds no sample itself and passes the
thresholds the fix changed to ``quickSort`` (which calls ``swap``) and ``insertionSort``."""

from __future__ import annotations

import pytest

from perfproof.pipeline.hunt.inclusive import ranked
from perfproof.pipeline.hunt.rank import RecordedGroup, ranked_frames
from perfproof.profile.attribute import Method, attribute
from perfproof.profile.stacks import Profile

STUB = "t.jmh_generated.MergeBench_add_jmhTest"
LOOP = ("java.lang.Thread.run", f"{STUB}.add_AverageTime", f"{STUB}.add_avgt_jmhStub")
NAMES = ("add", "mergeNewValues", "merge", "sort", "quickSort", "swap", "insertionSort")
OWNER = {"add": "Digest", "mergeNewValues": "Digest", "merge": "Digest"}
METHODS = {
    f"t.{OWNER.get(n, 'Sort')}.{n}": Method(
        f"t.{OWNER.get(n, 'Sort')}.{n}", f"{OWNER.get(n, 'Sort')}.{n}", "t.java", 1, 2, "production"
    )
    for n in NAMES
}
METHODS["t.MergeBench.add"] = Method(
    "t.MergeBench.add", "MergeBench.add", "b.java", 1, 2, "benchmark"
)
TOP = (*LOOP, "t.MergeBench.add", "t.Digest.add", "t.Digest.mergeNewValues", "t.Digest.merge")


def _fork(jitter: int) -> Profile:
    p = Profile("f.jfr")
    sort = (*TOP, "t.Sort.sort")
    quick = (*sort, "t.Sort.quickSort", "t.Sort.quickSort")  # recursion counts once
    p.cpu[(*quick, "t.Sort.swap")] = 450 + jitter
    p.cpu[quick] = 190 - jitter
    p.cpu[(*sort, "t.Sort.insertionSort")] = 160
    p.cpu[TOP] = 160 + jitter  # merge's own work
    p.cpu[(*TOP[:-1],)] = 20  # mergeNewValues' own
    p.cpu[("java.lang.Thread.run", "jdk.internal.misc.Unsafe.park")] = 20  # outside
    return p


def _groups() -> list[RecordedGroup]:
    forks = [attribute(_fork(j), METHODS.get) for j in (-5, 0, 5)]
    return [RecordedGroup("t.MergeBench.add", forks)]


def test_self_cost_alone_never_ranks_the_method_the_fix_changed() -> None:
    frames = [f for f, _, _ in ranked_frames(_groups())]
    assert "t.Sort.sort" not in frames and frames[0] == "t.Sort.swap"


def test_a_method_whose_callees_hold_most_of_it_ranks_by_its_inclusive_share() -> None:
    rows = ranked(_groups())
    first = rows[0]
    assert (first.frame, first.ranked_by) == ("t.Sort.sort", "inclusive")
    cost = first.costs[0]
    assert cost.cpu_share is not None and cost.cpu_share.mean == pytest.approx(0.8, abs=0.01)
    (split,) = first.inclusive
    assert split.self_share is None  # no sample of its own
    callees = {c.method: c.share for c in split.callees}
    assert callees == pytest.approx(
        {"t.Sort.quickSort": 0.64, "t.Sort.insertionSort": 0.16}, abs=0.01
    )
    # the callers above it pass the call on (one callee holds nearly all): no hypothesis
    assert all(r.ranked_by == "self" for r in rows[1:])
    assert "t.Digest.add" not in {r.frame for r in rows}


def test_callees_held_by_an_inclusive_hypothesis_come_after_the_other_costs() -> None:
    rows = ranked(_groups())
    order = [r.frame for r in rows]
    # swap holds more than half of sort's cost itself: it keeps its place (the fix may be
    # there); the smaller parts of the cost sort spreads come after merge's own cost
    assert order[:3] == ["t.Sort.sort", "t.Sort.swap", "t.Digest.merge"]
    held = {r.frame: r.under for r in rows if r.under}
    assert held == {f"t.Sort.{n}": "t.Sort.sort" for n in ("quickSort", "insertionSort")}
    assert order.index("t.Sort.insertionSort") > order.index("t.Digest.mergeNewValues")


def test_an_inclusive_hypothesis_inside_another_is_held_by_it() -> None:
    methods = {**METHODS, "t.Sort.partition": METHODS["t.Sort.swap"].__class__(
        "t.Sort.partition", "Sort.partition", "t.java", 1, 2, "production")}  # fmt: skip
    forks = []
    for j in (-5, 0, 5):
        p = _fork(j)
        sort = (*TOP, "t.Sort.sort")
        quick = (*sort, "t.Sort.quickSort", "t.Sort.quickSort")
        p.cpu[(*quick, "t.Sort.swap")] = 150 + j  # quickSort spreads over two callees now
        p.cpu[(*quick, "t.Sort.partition")] = 150
        p.cpu[quick] = 40
        p.cpu[(*sort, "t.Sort.insertionSort")] = 400
        forks.append(attribute(p, methods.get))
    rows = ranked([RecordedGroup("t.MergeBench.add", forks)])
    by = {r.frame: r for r in rows}
    assert rows[0].frame == "t.Sort.sort"
    assert by["t.Sort.quickSort"].ranked_by == "inclusive"
    assert by["t.Sort.quickSort"].under == "t.Sort.sort"
    assert by["t.Sort.insertionSort"].under is None  # more than half of sort's cost: kept


def test_a_method_whose_callee_differs_by_benchmark_is_where_they_meet() -> None:
    """The shape of kryo's maps: ``ObjectMap.get`` calls ``locateKey``, which the identity map
    overrides; each benchmark sees one callee, the workload two."""
    names = ("ObjectMap.get", "ObjectMap.locateKey", "IdentityMap.locateKey", "Other.run")
    m = {f"k.{n}": Method(f"k.{n}", n, "k.java", 1, 2, "production") for n in names}
    m["k.Bench.read"] = Method("k.Bench.read", "Bench.read", "b.java", 1, 2, "benchmark")

    def group(name: str, callee: str) -> RecordedGroup:
        forks = []
        for j in (-3, 0, 3):
            p = Profile("f.jfr")
            p.cpu[(*LOOP, "k.Bench.read", "k.ObjectMap.get", callee)] = 600 + j
            p.cpu[(*LOOP, "k.Bench.read", "k.ObjectMap.get")] = 20
            p.cpu[(*LOOP, "k.Bench.read", "k.Other.run")] = 300
            forks.append(attribute(p, m.get))
        return RecordedGroup(name, forks)

    one = ranked([group("read(identity)", "k.IdentityMap.locateKey")])
    assert all(r.ranked_by == "self" for r in one)  # one callee: it only passes the call on
    both = ranked([group("read(identity)", "k.IdentityMap.locateKey"),
                   group("read(object)", "k.ObjectMap.locateKey")])  # fmt: skip
    assert (both[0].frame, both[0].ranked_by) == ("k.ObjectMap.get", "inclusive")
    # each callee is all of the method's cost where it runs: both keep their places
    assert [r.frame for r in both[1:3]] == ["k.IdentityMap.locateKey", "k.ObjectMap.locateKey"]
    assert all(r.under is None for r in both)
