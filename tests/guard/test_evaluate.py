"""Judging a guard from comparisons made by the real statistics on synthetic forks."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from perfproof.compare import CompareOptions, compare_sides
from perfproof.model import ALLOC_NORM, PRIMARY, BenchKey, Direction, Samples
from perfproof.model.documents.guard import guard_document
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


OPTS = CompareOptions(confidence=0.99, family="none")


def _compare(base_fx: dict, head_fx: dict, mode: str = "avgt"):
    unit, direction = ("ns/op", Direction.LOWER) if mode == "avgt" else ("ops/s", Direction.HIGHER)
    return compare_sides(
        _side(mode, unit, direction, base_fx, 1), _side(mode, unit, direction, head_fx, 2), OPTS
    )


def test_alloc_guard_passes_when_feature_allocates_nothing_or_far_less() -> None:
    res = _compare({"8": (100, 96), "64": (400, 528)}, {"8": (100, 0), "64": (400, 48)})
    g = evaluate(res, "alloc", 1.5)
    assert g.passed
    by_n = {r.params["n"]: r for r in g.rows}
    assert math.isinf(by_n["8"].ratio) and by_n["8"].passed
    assert by_n["64"].ratio == pytest.approx(528 / 48)
    # the same run does not guard time: both sides are equally fast
    t = evaluate(res, "time", 1.5)
    assert not t.passed and all("interval includes 1" in r.reason for r in t.rows)
    assert not evaluate(res, "both", 1.5).passed


def test_time_guard_needs_every_param_above_min_ratio() -> None:
    res = _compare({"8": (100, 0), "64": (400, 0)}, {"8": (40, 0), "64": (300, 0)})
    g = evaluate(res, "time", 1.5)
    by_n = {r.params["n"]: r for r in g.rows}
    assert by_n["8"].passed and by_n["8"].ratio == pytest.approx(2.5, rel=0.03)
    assert by_n["8"].ci[0] > 1
    assert not by_n["64"].passed and "below --min-ratio 1.5" in by_n["64"].reason
    assert not g.passed
    assert evaluate(res, "time", 1.2).passed


def test_a_feature_worse_at_every_fork_is_said_to_be_worse_not_undecided() -> None:
    res = _compare({"8": (100, 0)}, {"8": (300, 0)})
    (row,) = evaluate(res, "time", 1.5).rows
    assert not row.passed and row.ci[1] < 1
    assert row.reason == "the feature is worse: its whole interval is below 1"


def test_throughput_is_oriented_feature_over_baseline() -> None:
    res = _compare({"8": (1000, 0)}, {"8": (3000, 0)}, mode="thrpt")
    c = next(c for c in res.comparisons if c.key.metric == PRIMARY)
    ratio, (lo, hi) = oriented(c)
    assert ratio == pytest.approx(c.ratio) and ratio == pytest.approx(3.0, rel=0.03)
    assert (lo, hi) == pytest.approx(c.ratio_ci) and lo > 1
    assert evaluate(res, "time", 2.0).passed
    # and a slower feature fails however big the difference
    worse = _compare({"8": (3000, 0)}, {"8": (1000, 0)}, mode="thrpt")
    assert not evaluate(worse, "time", 1.5).passed


def test_no_alloc_data_and_unmatched_params_fail() -> None:
    base = _side("avgt", "ns/op", Direction.LOWER, {"8": (100, 0), "64": (100, 0)}, 3)
    head = _side("avgt", "ns/op", Direction.LOWER, {"8": (10, 0)}, 4)
    base = {k: v for k, v in base.items() if k.metric == PRIMARY}
    head = {k: v for k, v in head.items() if k.metric == PRIMARY}
    res = compare_sides(base, head, OPTS)
    g = evaluate(res, "time", 1.5)
    assert not g.passed
    assert any(r.params == {"n": "64"} and not r.passed for r in g.rows)
    a = evaluate(res, "alloc", 1.5)
    assert not a.passed and any("run with -prof gc" in n for n in a.notes)


def test_bench_filter_document_and_table() -> None:
    res = _compare({"8": (100, 96)}, {"8": (100, 0)})
    assert evaluate(res, "alloc", 1.5, ["Other"]).rows == []
    assert not evaluate(res, "alloc", 1.5, ["Other"]).passed
    g = evaluate(res, "alloc", 1.5, ["CodecBench"])
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
