"""The JMH side of a hunt without a JVM: fork-level operation counts from JMH's result JSON,
the recording's delay and the gc profiler."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from perfproof.model.documents.run_plan import parse_settings
from perfproof.pipeline.hunt.jmh import fork_ops, warmup_delay, with_gc_profiler

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "jmh"


def test_each_fork_gets_its_own_time_and_bytes_per_operation() -> None:
    path = FIXTURES / "jmh-1.37-empty-f4-gc.json"
    raw = json.loads(path.read_text())
    entries = fork_ops(path)
    assert [k.benchmark for k, *_ in entries] == ["fx.Codes.loopEmpty", "fx.Codes.streamEmpty"]
    for (_key, ops, score, unit, bpo), entry in zip(entries, raw, strict=True):
        forks = entry["primaryMetric"]["rawData"]
        norm = entry["secondaryMetrics"]["gc.alloc.rate.norm"]["rawData"]
        assert unit == "ns/op" and len(ops) == len(forks) == 4
        assert [o.ns_per_op for o in ops] == pytest.approx([np.mean(f) for f in forks])
        assert [o.bytes_per_op for o in ops] == pytest.approx([np.mean(f) for f in norm])
        assert score == pytest.approx(np.mean([np.mean(f) for f in forks]))
        assert bpo == pytest.approx(np.mean([np.mean(f) for f in norm]))


def test_throughput_becomes_time_per_operation(tmp_path: Path) -> None:
    entry = {
        "benchmark": "fx.Thr.concat",
        "mode": "thrpt",
        "threads": 1,
        "forks": 2,
        "primaryMetric": {
            "score": 2e6,
            "scoreUnit": "ops/s",
            "rawData": [[1e6, 1e6], [4e6, 4e6]],
        },
        "secondaryMetrics": {},
    }
    path = tmp_path / "r.json"
    path.write_text(json.dumps([entry]))
    [(_key, ops, _score, unit, bpo)] = fork_ops(path)
    assert unit == "ops/s" and bpo is None
    assert [o.ns_per_op for o in ops] == pytest.approx([1000.0, 250.0])
    assert [o.bytes_per_op for o in ops] == [None, None]


def test_the_recording_starts_after_warm_up_in_whole_seconds() -> None:
    assert (
        warmup_delay(parse_settings(("-wi", "3", "-w", "500ms", "-i", "4", "-r", "500ms"))) == 1.0
    )
    assert warmup_delay(parse_settings(("-wi", "2", "-w", "1s"))) == 2.0
    # JFR refuses a delay under a second: warm-up that short is recorded (and said so)
    assert warmup_delay(parse_settings(("-wi", "1", "-w", "100ms"))) is None


def test_the_gc_profiler_is_added_once() -> None:
    assert with_gc_profiler(("-f", "3")) == ("-f", "3", "-prof", "gc")
    assert with_gc_profiler(("-prof", "gc")) == ("-prof", "gc")
    assert with_gc_profiler(("-prof", "gc:churn=true")) == ("-prof", "gc:churn=true")
