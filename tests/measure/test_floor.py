"""The empty-benchmark floor: where JMH's processor is found, the cache, and the keys it marks.

The keys come from the costs project's real JMH output (``tests/fixtures/jmh/costs``), whose
``InlineBench.emptyRange`` on the feature runs at the cost of an empty benchmark.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from perfproof.compare import CompareOptions, compare_sides
from perfproof.env.java import find_java
from perfproof.jmh.reader import read_results
from perfproof.measure import floor
from perfproof.model import PRIMARY
from perfproof.model.diagnostics import Kind
from perfproof.pipeline.ab.floor import noted
from perfproof.pipeline.guard.judge import judge
from perfproof.render.results import build_tables, results_lines, summary_line

FLOOR = floor.Floor(1.3, (1.3, 1.3, 1.3), "1.37", "2026-01-01T00:00:00Z", "test")


@pytest.fixture(scope="module")
def noted_result(fixtures_dir_module: Path):
    costs = fixtures_dir_module / "jmh" / "costs"
    result = compare_sides(
        read_results([costs / "base.json"]), read_results([costs / "head.json"]), CompareOptions()
    )
    result.comparisons = [noted(c, FLOOR) for c in result.comparisons]
    return result


@pytest.fixture(scope="module")
def fixtures_dir_module() -> Path:
    return Path(__file__).parents[1] / "fixtures"


def test_only_the_key_near_the_floor_is_marked(noted_result) -> None:
    marked = {
        c.key.benchmark
        for c in noted_result.comparisons
        if any(n.kind is Kind.NEAR_FLOOR for n in c.diagnostics.notes or ())
    }
    assert marked == {"costs.InlineBench.emptyRange"}  # its feature runs at 2.37 ns/op
    (c,) = [c for c in noted_result.comparisons
            if c.key.benchmark.endswith("emptyRange") and c.key.metric == PRIMARY]  # fmt: skip
    assert (
        "the feature's 2.37 ns/op is within 2× of this machine's empty benchmark"
        in (c.warnings[-1])
    )
    assert "baseline" not in c.warnings[-1].split(":")[1]  # the baseline (6 ns) is not


def test_the_report_says_it_and_the_guard_fails_on_it(noted_result) -> None:
    tables = build_tables(noted_result.comparisons)
    summary = summary_line(tables, 0.99, 0.01, "bh")
    assert "1 key measures nothing (within a few times the empty benchmark's cost" in summary
    lines = results_lines(tables, 0.99)
    at = lines.index("**Measures nothing:**")
    assert lines[at + 2].startswith("- `costs.InlineBench.emptyRange [avgt]`: measures nothing")
    (c,) = [c for c in noted_result.comparisons
            if c.key.benchmark.endswith("emptyRange") and c.key.metric == PRIMARY]  # fmt: skip
    row = judge(c, 1.5)
    assert not row.passed and row.reason.startswith("measures nothing")


def test_a_floor_is_near_only_below_three_times_it() -> None:
    assert FLOOR.near(2.5) and not FLOOR.near(2.7) and not FLOOR.near(0.0)


def test_the_processor_is_found_in_maven_and_gradle_caches(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    m2 = tmp_path / ".m2/repository/org/openjdk/jmh/jmh-generator-annprocess/1.36"
    m2.mkdir(parents=True)
    (m2 / "jmh-generator-annprocess-1.36.jar").write_bytes(b"")
    (m2 / "jmh-generator-annprocess-1.36-sources.jar").write_bytes(b"")
    gradle = tmp_path / (".gradle/caches/modules-2/files-2.1/org.openjdk.jmh/"
                         "jmh-generator-annprocess/1.37/abc123")  # fmt: skip
    gradle.mkdir(parents=True)
    (gradle / "jmh-generator-annprocess-1.37.jar").write_bytes(b"")
    found = floor._local_jars("jmh-generator-annprocess")
    assert sorted(found) == ["1.36", "1.37"]
    assert found["1.37"].parent == gradle


def test_a_measured_floor_is_read_back_from_the_cache(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    java = find_java(None)
    assert floor.cached_floor(java) is None
    target = floor._cache_file(java)
    target.parent.mkdir(parents=True)
    target.write_text(json.dumps({**FLOOR.__dict__, "fork_means": [1.3, 1.3, 1.3]}))
    assert floor.cached_floor(java) == FLOOR
