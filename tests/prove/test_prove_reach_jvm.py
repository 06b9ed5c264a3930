"""A regression the change cannot explain: the benchmark reaches the changed code only by
reflection, which no call graph follows (as a benchmark on JCTools that a `toString()` change
"regressed"). The verdict is marked, counted apart, and ``--gate explained`` lets it pass."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from perfproof.demo.project import write_demo_repo
from perfproof.model.documents.prove import read_prove

from .conftest import commit

pytestmark = [pytest.mark.jvm, pytest.mark.slow, pytest.mark.timeout(420)]

TINY = "-f 1 -wi 1 -i 2 -w 100ms -r 100ms"
SPIN = """package perfdemo;

public final class Spin {
    private Spin() {}

    public static double spin() {
        double sum = 0;
        for (int i = 1; i <= ROUNDS; i++) {
            sum += Math.sqrt(i);
        }
        return sum;
    }

    private static final int ROUNDS = %d;
}
"""
BENCH = """package perfdemo.bench;

import java.lang.reflect.Method;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.*;
import org.openjdk.jmh.infra.Blackhole;

@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class ReflectiveBench {
    private Method target;

    @Setup
    public void find() throws Exception {
        target = Class.forName("perfdemo." + "Sp" + "in").getMethod("sp" + "in");
    }

    @Benchmark
    public void call(Blackhole bh) throws Exception {
        bh.consume(target.invoke(null));
    }
}
"""


def test_an_unreached_regression_is_marked_and_the_explained_gate_still_stops_it(
    tmp_path: Path, prove_cache: Path, run_cli
) -> None:
    """No static path and no recording is no evidence that the change does not run there: the
    verdict is marked *no static call path found* (never "noise"), and ``--gate explained``,
    which lets through only regressions shown not to be the change's, still fails on it."""
    if shutil.which("mvn") is None or shutil.which("java") is None:
        pytest.skip("needs Maven and a JDK")
    repo = write_demo_repo(tmp_path / "project").path
    spin = "src/main/java/perfdemo/Spin.java"
    bench = "src/main/java/perfdemo/bench/ReflectiveBench.java"
    base = commit(repo, {spin: SPIN % 200, bench: BENCH}, "reflective benchmark")
    head = commit(repo, {spin: SPIN % 40_000}, "spin longer")
    out = tmp_path / "bundle"
    res = run_cli(
        "prove", "--repo", repo, "--base", base, "--head", head, "--bench", "ReflectiveBench",
        "--jmh-args", TINY, "--max-rounds", "3", "--skip", "tests", "--skip", "profile",
        "--fail-on-regression", "--gate", "explained", "--out", out,
    )  # fmt: skip
    assert res.code == 1, res.err
    assert "regression: perfdemo.bench.ReflectiveBench.call" in res.err.strip().splitlines()[-1]
    ab = read_prove(out / "prove.json").dump()["stages"]["ab"]["result"]
    assert ab["regressed"], ab  # 200× the work: a real regression the call graph cannot see
    (key,) = ab["reach"]
    assert key["verdict"] == "regressed" and not key["reached"] and not key["unexplained"]
    assert key["kind"] == "no static path"
    report = (out / "report.md").read_text()
    assert (
        "1 regression with no static call path found to the change, not confirmed by a " in report
    )
    assert "regressed — *no static call path found*" in report
    assert "no static call path" in (out / "report.html").read_text()
    for text in (report, res.out, res.err):
        assert "noise" not in text and "not explained by the change (" not in text
    doc = json.loads(run_cli("prove", "--resume", out, "--format", "json").out)
    assert doc["stages"]["ab"]["result"]["reach"][0]["unexplained"] is False
