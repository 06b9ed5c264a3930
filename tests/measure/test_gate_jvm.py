"""The regression gate on a tiny real Maven JMH project: every failing key named, by metric.

The feature commit makes three benchmarks do thirty times the work (time regressions) and
three others allocate a second, larger array at the same work (bytes/op regressions only:
64 → 128 B/op). ``ab --fail-on-regression --junit`` must exit 1 naming all six, the job
summary must name the allocation-only ones, and the JUnit XML must hold six failures.
"""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

pytestmark = [pytest.mark.jvm, pytest.mark.slow, pytest.mark.timeout(2400)]

BENCH = """package gatedemo;

import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.*;
import org.openjdk.jmh.infra.Blackhole;

@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class GateBench {
    long[] data = new long[2048];

    @Setup
    public void setup() {
        for (int i = 0; i < data.length; i++) {
            data[i] = i * 31L;
        }
    }

    long work(int reps) {
        long s = 0;
        for (int r = 0; r < reps; r++) {
            for (long v : data) {
                s += v ^ r;
            }
        }
        return s;
    }

    @Benchmark public long time0() { return work(%(time)s); }
    @Benchmark public long time1() { return work(%(time)s); }
    @Benchmark public long time2() { return work(%(time)s); }
    void spend(Blackhole bh) { bh.consume(work(1)); bh.consume(new long[%(longs)s]); }
    @Benchmark public void alloc0(Blackhole bh) { spend(bh); }
    @Benchmark public void alloc1(Blackhole bh) { spend(bh); }
    @Benchmark public void alloc2(Blackhole bh) { spend(bh); }
}
"""
"""``new long[6]`` is 64 bytes with its header, ``new long[14]`` 128."""

PATH = "src/main/java/gatedemo/GateBench.java"
JMH_ARGS = "-f 1 -wi 1 -i 2 -w 100ms -r 100ms"


@pytest.fixture(scope="module")
def gate_repo(tmp_path_factory: pytest.TempPathFactory, write_git_repo, tiny_pom) -> Path:
    return write_git_repo(
        tmp_path_factory.mktemp("gate") / "repo",
        [
            ("baseline", "2026-01-05T10:00:00Z", {"pom.xml": tiny_pom("gatedemo"),
             PATH: BENCH % {"time": 1, "longs": 6}, ".gitignore": "target/\n"}),
            ("feature", "2026-01-06T10:00:00Z", {PATH: BENCH % {"time": 30, "longs": 14}}),
        ],
    )  # fmt: skip


def test_the_gate_names_every_failing_key_by_metric(run_cli, gate_repo: Path, tmp_path: Path):
    run, junit = tmp_path / "run", tmp_path / "reports" / "junit.xml"
    res = run_cli(
        "ab", "--repo", gate_repo, "--base", "baseline", "--head", "feature",
        "--bench", "GateBench", "--rounds", "3", "--jmh-args", JMH_ARGS,
        "--out", run, "--lock-timeout", "1800", "--fail-on-regression", "--junit", junit,
    )  # fmt: skip
    assert res.code == 1, res.err
    (line,) = [x for x in res.err.splitlines() if x.startswith("perfproof: error:")]
    assert "6 keys regressed" in line, line
    for i in range(3):
        assert re.search(rf"gatedemo\.GateBench\.time{i} \[avgt\] time ", line), line
        assert f"gatedemo.GateBench.alloc{i} [avgt] bytes/op 64 → 128 B/op" in line, line

    summary = run_cli("report", run, "--summary")
    assert summary.code == 0, summary.err
    for i in range(3):
        assert f"`gatedemo.GateBench.alloc{i} [avgt]` bytes/op: 64 → 128 B/op" in summary.out

    root = ET.parse(junit).getroot()
    (suite,) = root.findall("testsuite")
    assert (suite.get("tests"), suite.get("failures")) == ("6", "6")
    failed = {c.get("name"): c.find("failure").get("message") for c in suite.iter("testcase")}
    assert all(
        failed[f"alloc{i} [avgt]"].startswith("regressed: bytes/op 64 → 128") for i in range(3)
    )
    assert all("time" in failed[f"time{i} [avgt]"] for i in range(3))

    results = json.loads((run / "results.json").read_text())
    verdicts = {(c["benchmark"].rsplit(".", 1)[1], c["metric"]): c["verdict"]
                for c in results["comparisons"]}  # fmt: skip
    assert all(verdicts[(f"alloc{i}", "gc.alloc.rate.norm")] == "regressed" for i in range(3))
