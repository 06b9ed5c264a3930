"""Off-heap bytes and GC costs per operation, on real JMH output of the costs project.

``tests/fixtures/jmh/costs/`` holds one file per side of ``benchmarks/costs_project.py``:
the baseline reserves a 10 KiB direct buffer per ``FrameBench.frame`` call and collects, the
feature reuses a heap buffer and does not.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from perfproof.compare import CompareOptions, compare_gc_costs, compare_sides
from perfproof.compare.match import match
from perfproof.compare.sequential import look
from perfproof.compare.sequential_design import SequentialDesign
from perfproof.jmh.gc_costs import operations
from perfproof.jmh.reader import read_file, read_results
from perfproof.model import ALLOC_NORM, PRIMARY, Verdict
from perfproof.model.diagnostics import ComparisonMethod
from perfproof.model.metrics import DIRECT_NORM, GC_COSTS, GC_COUNT_NORM, GC_TIME_NORM
from perfproof.render import gate
from perfproof.stats.sequential import Schedule

FRAME = "costs.FrameBench.frame"


@pytest.fixture
def costs(fixtures_dir: Path) -> tuple[Path, Path]:
    return (
        fixtures_dir / "jmh" / "costs" / "base.json",
        fixtures_dir / "jmh" / "costs" / "head.json",
    )


def _samples(path: Path, bench: str, metric: str) -> list[np.ndarray]:
    (s,) = [s for s in read_file(path) if s.key.benchmark == bench and s.key.metric == metric]
    return s.forks


def test_gc_time_per_op_is_each_collecting_iteration_over_its_operations(costs) -> None:
    base, _ = costs
    (entry,) = [e for e in json.loads(base.read_text()) if e["benchmark"] == FRAME]
    gc = entry["secondaryMetrics"]
    scores = entry["primaryMetric"]["rawData"]  # ns/op, 300 ms iterations, one thread
    for fork, (counts, times, per_op) in enumerate(
        zip(gc["gc.count"]["rawData"], gc["gc.time"]["rawData"], scores, strict=True)
    ):
        ops = [0.3e9 / t for t in per_op]
        expected = np.zeros(len(ops))
        collecting = [i for i, n in enumerate(counts) if n > 0]
        assert len(collecting) == len(times) > 0  # gc.time is written only where gc.count > 0
        for i, ms in zip(collecting, times, strict=True):
            expected[i] = ms * 1e6 / ops[i]
        np.testing.assert_allclose(_samples(base, FRAME, GC_TIME_NORM)[fork], expected)
        np.testing.assert_allclose(
            _samples(base, FRAME, GC_COUNT_NORM)[fork], np.array(counts) / ops
        )


def test_a_benchmark_that_never_collects_costs_no_gc_time(costs) -> None:
    _, head = costs
    for fork in _samples(head, FRAME, GC_TIME_NORM) + _samples(head, FRAME, GC_COUNT_NORM):
        assert not fork.any()


def test_operations_follow_the_mode() -> None:
    avgt = {"mode": "avgt", "measurementTime": "500 ms", "threads": 2,
            "primaryMetric": {"scoreUnit": "us/op", "rawData": [[2.0, 4.0]]}}  # fmt: skip
    thrpt = {"mode": "thrpt", "measurementTime": "1 s",
             "primaryMetric": {"scoreUnit": "ops/ms", "rawData": [[3.0]]}}  # fmt: skip
    single = {"mode": "ss", "measurementBatchSize": 8, "primaryMetric": {"rawData": [[9.0]]}}
    sample = {"mode": "sample", "primaryMetric": {"rawData": [[1.0]]}}
    # 2 threads × 0.5 s ÷ 2 µs and ÷ 4 µs
    assert operations(avgt) == [[pytest.approx(500_000.0), pytest.approx(250_000.0)]]
    assert operations(thrpt) == [[pytest.approx(3000.0)]]  # 3 ops/ms for 1 s
    assert operations(single) == [[8.0]]
    assert operations(sample) is None


def test_direct_bytes_are_compared_exactly_and_decide(costs) -> None:
    base, head = costs
    result = compare_sides(read_results([base]), read_results([head]), CompareOptions())
    (direct,) = [
        c for c in result.comparisons if c.key.benchmark == FRAME and c.key.metric == DIRECT_NORM
    ]
    assert direct.method is ComparisonMethod.EXACT and direct.base.value == 10240.0
    assert direct.head.value == 0.0 and direct.verdict is Verdict.IMPROVED
    swapped = compare_sides(read_results([head]), read_results([base]), CompareOptions())
    failed = gate.failures(swapped.regressed)
    assert [f.text() for f in failed if f.comparison.key.metric == DIRECT_NORM] == [
        f"{FRAME} [avgt] direct B/op 0 → 10,240 B/op (new allocation)"
    ]


def test_gc_costs_are_a_family_of_their_own_and_never_fail_the_gate(costs) -> None:
    base, head = costs
    sides = read_results([base]), read_results([head])
    without = compare_sides(*sides, CompareOptions(metrics=(PRIMARY, ALLOC_NORM)))
    with_gc = compare_sides(*sides, CompareOptions())
    levels = {c.key: c.interval_confidence for c in without.comparisons}
    for c in with_gc.comparisons:
        if c.key in levels:  # the time verdicts' intervals are as wide as without GC costs
            assert c.interval_confidence == levels[c.key]
    gc = [c for c in with_gc.comparisons if c.key.metric in GC_COSTS]
    assert gc and all(c.family == "bh" for c in gc)
    for c in gc:
        c.verdict = Verdict.REGRESSED
    assert not [c for c in with_gc.regressed if c.key.metric in GC_COSTS]
    assert not [f for f in gate.failures(gc)]


def test_the_looks_leave_gc_costs_out_and_the_end_compares_them(costs) -> None:
    base, head = costs
    b, h = read_results([base]), read_results([head])
    design = SequentialDesign.judging_as(CompareOptions(), Schedule(1, first_forks=2))
    pairs, _ = match(b, h, CompareOptions().normalised_metrics())
    decisions = look(pairs, 1, design, {})
    metrics = {c.key.metric for d in decisions.values() for c in d.comparisons}
    assert PRIMARY in metrics and DIRECT_NORM in metrics and not metrics & set(GC_COSTS)
    gc = compare_gc_costs(b, h, CompareOptions())
    assert {c.key.metric for c in gc} == set(GC_COSTS) and len(gc) == 2 * 3


def _side(values: dict[str, float], factor: float = 1.0) -> dict:
    from perfproof.model import BenchKey, Direction, Samples

    rng = np.random.default_rng(7)
    out = {}
    for n, ns in values.items():
        key = BenchKey("x.B.m", "avgt", (("n", n),))
        forks = [ns * factor * (1 + 0.005 * rng.standard_normal(4)) for _ in range(3)]
        out[key] = Samples(key, "ns/op", Direction.LOWER, forks)
    return out


def test_a_time_flat_across_a_size_parameter_is_noted() -> None:
    from perfproof.compare.flat_params import flat_notes
    from perfproof.model.diagnostics import Kind

    flat = compare_sides(_side({"16": 50.0, "1024": 50.5}), _side({"16": 20.0, "1024": 20.0}),
                         CompareOptions())  # fmt: skip
    noted = flat_notes(flat.comparisons)
    texts = [n.text for c in noted for n in c.diagnostics.notes or () if n.kind is Kind.FLAT_PARAM]
    assert len(texts) == 2 and "across n = 16, 1024" in texts[0]
    assert "on the baseline and the feature" in texts[0]
    scaling = compare_sides(_side({"16": 50.0, "1024": 900.0}), _side({"16": 20, "1024": 400}),
                            CompareOptions())  # fmt: skip
    assert flat_notes(scaling.comparisons) == scaling.comparisons
    narrow = compare_sides(_side({"16": 50.0, "32": 50.0}), _side({"16": 50.0, "32": 50.0}),
                           CompareOptions())  # fmt: skip
    assert flat_notes(narrow.comparisons) == narrow.comparisons  # 2× is no size range


def test_gc_time_going_to_nothing_is_a_rate_bound(costs) -> None:
    """The baseline collected once in each of its two forks, the feature (12× as many
    operations) never: compared as a Poisson rate, p = 2 × (1 + 12)^-2 ≈ 0.012. That is not
    enough at the default 99% (two collections are two events), and is at 95%."""
    base, head = costs
    sides = read_results([base]), read_results([head])
    for confidence, verdict in ((0.99, Verdict.INCONCLUSIVE), (0.95, Verdict.IMPROVED)):
        result = compare_sides(*sides, CompareOptions(confidence=confidence))
        gc = {c.key.metric: c for c in result.comparisons if c.key.benchmark == FRAME}
        for metric in GC_COSTS:
            c = gc[metric]
            assert c.method is ComparisonMethod.ZERO_RATE and c.verdict is verdict
            assert c.ratio == 0.0 and c.p_value == pytest.approx(0.0121, abs=1e-4)
            assert (c.ratio_ci.hi < 1.0) is (verdict is Verdict.IMPROVED)
            (note,) = [w for w in c.warnings if "collections per op are at most ×" in w]
            assert "against 2 collecting iterations in 2 of the baseline's 2 forks" in note
