"""What the report's JMH table and methodology and the PR-body check read of a raw JMH entry."""

from __future__ import annotations

import math

from perfproof.jmh.entries import JmhEntry, read_entries
from perfproof.model import ALLOC_NORM, PRIMARY, BenchKey

ENTRY = {
    "benchmark": "fx.Codes.sum",
    "mode": "avgt",
    "params": {"n": 16},
    "jmhVersion": "1.37",
    "jvmArgs": ["-Xmx1g"],
    "forks": 3,
    "warmupTime": "1 s",
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
            "scoreError": "NaN",
            "scoreUnit": "B/op",
            "rawDataHistogram": [[[[24.0, 5]]], [[[24.0, 5]], [[24.0, 5]]]],
        },
    },
}


def test_the_primary_then_the_allocation_rate_under_jmhs_own_name() -> None:
    entry = JmhEntry.read(ENTRY)
    assert [(m.name, m.written) for m in entry.metrics] == [
        (PRIMARY, PRIMARY),
        (ALLOC_NORM, "·gc.alloc.rate.norm"),
    ]
    primary, alloc = entry.metrics
    assert (primary.score, primary.error, primary.unit) == (12.5, 0.25, "ns/op")
    assert (alloc.score, alloc.unit) == (24.0, "B/op") and math.isnan(alloc.error)
    assert [m.iterations for m in entry.metrics] == [6, 3]  # histograms count too
    assert entry.fork_count == 3
    assert entry.key == BenchKey("fx.Codes.sum", "avgt", (("n", "16"),))
    assert (entry.jmh_version, entry.jvm_args, entry.forks, entry.warmup_time) == (
        "1.37",
        ("-Xmx1g",),
        3,
        "1 s",
    )
    assert entry.measurement_time is None  # not recorded


def test_an_entry_without_metrics_has_an_empty_primary() -> None:
    entry = JmhEntry.read({"benchmark": "x"})
    (only,) = entry.metrics
    assert only.name == PRIMARY and only.unit == "" and only.iterations == 0
    assert math.isnan(only.score) and entry.fork_count == 0
    assert entry.key is None  # no mode: not an entry the comparison could read
    assert JmhEntry.read({"primaryMetric": {"rawData": None}}).fork_count == 0


def test_fields_of_another_shape_are_not_recorded() -> None:
    entry = JmhEntry.read(
        {"benchmark": "x", "mode": "avgt", "params": [1], "jvmArgs": "-Xmx1g",
         "secondaryMetrics": [], "primaryMetric": {"score": {"v": 1}, "rawData": 3}}
    )  # fmt: skip
    assert entry.params == {} and entry.jvm_args == () and len(entry.metrics) == 1
    assert math.isnan(entry.metrics[0].score) and entry.fork_count == 0
    assert len(read_entries([ENTRY, 3, "x", None])) == 1
