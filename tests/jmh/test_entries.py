"""What the report's JMH table and the PR-body check read of a raw JMH entry."""

from __future__ import annotations

from perfproof.jmh.entries import compared_metrics, fork_count, iteration_count, score_of
from perfproof.model import ALLOC_NORM, PRIMARY

ENTRY = {
    "benchmark": "fx.Codes.sum",
    "mode": "avgt",
    "primaryMetric": {
        "score": 12.5,
        "scoreError": 0.25,
        "scoreUnit": "ns/op",
        "rawData": [[12.0, 13.0], [12.4, 12.6], [12.5, 12.5]],
    },
    "secondaryMetrics": {
        "·gc.alloc.rate": {"score": 900.0, "scoreUnit": "MB/sec", "rawData": [[1.0]]},
        "·gc.alloc.rate.norm": {
            "score": 24.0,
            "scoreError": 0.0,
            "scoreUnit": "B/op",
            "rawDataHistogram": [[[[24.0, 5]]], [[[24.0, 5]], [[24.0, 5]]]],
        },
    },
}


def test_the_primary_then_the_allocation_rate_under_jmhs_own_name() -> None:
    found = compared_metrics(ENTRY)
    assert [(metric, written) for metric, written, _ in found] == [
        (PRIMARY, PRIMARY),
        (ALLOC_NORM, "·gc.alloc.rate.norm"),
    ]
    primary, alloc = (score_of(m) for _, _, m in found)
    assert (primary.score, primary.error, primary.unit) == (12.5, 0.25, "ns/op")
    assert (alloc.score, alloc.unit) == (24.0, "B/op")
    assert [iteration_count(m) for _, _, m in found] == [6, 3]  # histograms count too
    assert fork_count(ENTRY) == 3


def test_an_entry_without_metrics_has_an_empty_primary() -> None:
    (only,) = compared_metrics({"benchmark": "x"})
    assert only == (PRIMARY, PRIMARY, {})
    assert score_of(only[2]).unit == "" and iteration_count(only[2]) == 0
    assert fork_count({"primaryMetric": {"rawData": None}}) == 0
