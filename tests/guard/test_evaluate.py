"""Judging a guard from comparisons made by the real statistics on synthetic forks."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from perfproof.compare import CompareOptions, compare_sides
from perfproof.model import ALLOC_NORM, PRIMARY, BenchKey, Direction, Samples
from perfproof.model.documents.guard import guard_document
from perfproof.model.enums import Family, GuardKind
from perfproof.pipeline.guard.judge import evaluate, oriented
from perfproof.render.guard import render_table


def _side(
    mode: str, unit: str, direction: Direction, effects: dict[str, tuple[float, float]], seed: int
) -> dict[BenchKey, Samples]:
    """Four forks of five iterations per @Param: time ~ level × (1 ± 1%), bytes exact."""
    rng = np.random.default_rng(seed)
    out = {}
    for n, (level, alloc) in effects.items():
        key = BenchKey("g.CodecBench.encode", mode, (("n", n),), PRIMARY)
        forks = [
            level * (1 + rng.normal(0, 0.01)) * (1 + rng.normal(0, 0.002, 5)) for _ in range(4)
        ]
        out[key] = Samples(key, unit, direction, forks)
        akey = key.with_metric(ALLOC_NORM)
        out[akey] = Samples(akey, "B/op", Direction.LOWER, [np.full(5, alloc) for _ in range(4)])
    return out


OPTS = CompareOptions(confidence=0.99, family=Family.NONE)


def _compare(base_fx: dict, head_fx: dict, mode: str = "avgt"):
    unit, direction = ("ns/op", Direction.LOWER) if mode == "avgt" else ("ops/s", Direction.HIGHER)
    return compare_sides(
        _side(mode, unit, direction, base_fx, 1), _side(mode, unit, direction, head_fx, 2), OPTS
    )


def test_alloc_guard_passes_when_feature_allocates_nothing_or_far_less() -> None:
    res = _compare({"8": (100, 96), "64": (400, 528)}, {"8": (100, 0), "64": (400, 48)})
    g = evaluate(res, GuardKind.ALLOC, 1.5)
    assert g.passed
    by_n = {r.params["n"]: r for r in g.rows}
    assert math.isinf(by_n["8"].ratio) and by_n["8"].passed
    assert by_n["64"].ratio == pytest.approx(528 / 48)
    # the same run does not guard time: both sides are equally fast
    t = evaluate(res, GuardKind.TIME, 1.5)
    assert not t.passed and all("interval includes 1" in r.reason for r in t.rows)
    assert not evaluate(res, GuardKind.BOTH, 1.5).passed


def test_time_guard_needs_every_param_above_min_ratio() -> None:
    res = _compare({"8": (100, 0), "64": (400, 0)}, {"8": (40, 0), "64": (300, 0)})
    g = evaluate(res, GuardKind.TIME, 1.5)
    by_n = {r.params["n"]: r for r in g.rows}
    assert by_n["8"].passed and by_n["8"].ratio == pytest.approx(2.5, rel=0.03)
    assert by_n["8"].ci[0] > 1
    assert not by_n["64"].passed and "below --min-ratio 1.5" in by_n["64"].reason
    assert not g.passed
    assert evaluate(res, GuardKind.TIME, 1.2).passed


def test_a_feature_worse_at_every_fork_is_said_to_be_worse_not_undecided() -> None:
    res = _compare({"8": (100, 0)}, {"8": (300, 0)})
    (row,) = evaluate(res, GuardKind.TIME, 1.5).rows
    assert not row.passed and row.ci[1] < 1
    assert row.reason == "the feature is worse: its whole interval is below 1"


def test_throughput_is_oriented_feature_over_baseline() -> None:
    res = _compare({"8": (1000, 0)}, {"8": (3000, 0)}, mode="thrpt")
    c = next(c for c in res.comparisons if c.key.metric == PRIMARY)
    ratio, (lo, hi) = oriented(c)
    assert ratio == pytest.approx(c.ratio) and ratio == pytest.approx(3.0, rel=0.03)
    assert (lo, hi) == pytest.approx(c.ratio_ci) and lo > 1
    assert evaluate(res, GuardKind.TIME, 2.0).passed
    # and a slower feature fails however big the difference
    worse = _compare({"8": (3000, 0)}, {"8": (1000, 0)}, mode="thrpt")
    assert not evaluate(worse, GuardKind.TIME, 1.5).passed


def test_no_alloc_data_and_unmatched_params_fail() -> None:
    base = _side("avgt", "ns/op", Direction.LOWER, {"8": (100, 0), "64": (100, 0)}, 3)
    head = _side("avgt", "ns/op", Direction.LOWER, {"8": (10, 0)}, 4)
    base = {k: v for k, v in base.items() if k.metric == PRIMARY}
    head = {k: v for k, v in head.items() if k.metric == PRIMARY}
    res = compare_sides(base, head, OPTS)
    g = evaluate(res, GuardKind.TIME, 1.5)
    assert not g.passed
    assert any(r.params == {"n": "64"} and not r.passed for r in g.rows)
    a = evaluate(res, GuardKind.ALLOC, 1.5)
    assert not a.passed and any("run with -prof gc" in n for n in a.notes)


def test_bench_filter_document_and_table() -> None:
    res = _compare({"8": (100, 96)}, {"8": (100, 0)})
    assert evaluate(res, GuardKind.ALLOC, 1.5, ["Other"]).rows == []
    assert not evaluate(res, GuardKind.ALLOC, 1.5, ["Other"]).passed
    g = evaluate(res, GuardKind.ALLOC, 1.5, ["CodecBench"])
    doc = guard_document(g)
    assert doc["schema"] == "perfproof.guard/1" and doc["kind"] == "alloc"
    # an infinite ratio (the feature allocates nothing) is null, as in every strict document
    assert doc["verdict"] == "PASS" and doc["rows"][0]["ratio"] is None
    assert doc["rows"][0]["ci"][0] is None and "exactly zero" in doc["rows"][0]["reason"]
    json.loads(json.dumps(doc, allow_nan=False))
    assert "allocation" in doc["protects"]
    text = render_table(g)
    assert "g.CodecBench.encode(n=8)" in text and "ratio      ∞" in text
    assert text.rstrip().endswith("at every @Param")
    assert "PASS: the benchmark guards the allocation cut" in text


def _costs(reverse: bool = False):
    """The costs project's real JMH files: the baseline reserves 10,240 direct bytes per
    ``FrameBench.frame`` call and collects now and then, the feature does neither."""
    from pathlib import Path

    from perfproof.jmh.reader import read_results

    fx = Path(__file__).parents[1] / "fixtures" / "jmh" / "costs"
    base, head = (read_results([fx / f"{side}.json"]) for side in ("base", "head"))
    return compare_sides(*((head, base) if reverse else (base, head)), OPTS)


def test_offheap_guard_judges_the_direct_bytes_a_key_has_and_fails_a_key_with_none() -> None:
    res = _costs()
    cut = evaluate(res, GuardKind.OFFHEAP, 1.5, ["FrameBench"])
    (row,) = cut.rows  # native bytes are zero on both sides: not judged beside direct
    assert cut.passed and row.metric == "direct" and math.isinf(row.ratio)
    assert "off-heap allocation cut" in render_table(cut)
    none = evaluate(res, GuardKind.OFFHEAP, 1.5, ["InlineBench.sum"])
    assert not none.passed and [r.reason for r in none.rows] == [
        "zero on both sides: nothing to guard"
    ]
    assert not evaluate(res, GuardKind.OFFHEAP, 1.5).passed  # every key must show the cut


def test_offheap_and_gc_time_guards_fail_a_regressed_feature() -> None:
    worse = _costs(reverse=True)  # the feature now reserves the direct bytes
    g = evaluate(worse, GuardKind.OFFHEAP, 1.5, ["FrameBench"])
    assert not g.passed and g.rows[0].reason.startswith("the feature is worse")
    gc = evaluate(worse, GuardKind.GCTIME, 1.5, ["FrameBench"])
    # two collections of the feature's against none in 12x the operations: the Poisson-rate
    # bound at 99% still reaches past 1, so the guard cannot say the feature is better
    (row,) = gc.rows
    assert not gc.passed and row.metric == "gctime" and row.reason == "the interval includes 1"
    assert row.ratio == 0.0 and row.ci[0] == 0.0 and 1.0 < row.ci[1] < 1.2
    assert json.loads(json.dumps(guard_document(gc)))["rows"][0]["metric"] == "gctime"


def test_offheap_guard_without_the_profilers_numbers_cannot_pass() -> None:
    res = _compare({"8": (100, 96)}, {"8": (40, 0)})
    g = evaluate(res, GuardKind.OFFHEAP, 1.5)
    assert not g.passed and not g.rows
    assert g.notes == [
        "no off-heap results to judge (ab's forks count them with perfproof's off-heap "
        "profiler): the guard cannot pass"
    ]
