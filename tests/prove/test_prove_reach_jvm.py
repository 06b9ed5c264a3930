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


def test_an_unreached_regression_is_marked_and_gate_explained_passes(
    tmp_path: Path, prove_cache: Path, run_cli
) -> None:
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
    assert res.code == 0, res.err
    ab = read_prove(out / "prove.json")["stages"]["ab"]["result"]
    assert ab["regressed"], ab  # 200× the work: a real regression the call graph cannot see
    (key,) = ab["reach"]
    assert key["verdict"] == "regressed" and not key["reached"] and key["unexplained"]
    report = (out / "report.md").read_text()
    assert "1 regression not explained by the change: likely JIT/layout noise" in report
    assert "regressed — **not explained by the change**" in report
    assert "not explained by the change" in (out / "report.html").read_text()
    assert "not explained by the change: likely JIT" in res.out  # the terminal's summary
    line = "perfdemo.bench.ReflectiveBench.call: regressed, not explained by the change (no call"
    assert line in res.out
    doc = json.loads(run_cli("prove", "--resume", out, "--format", "json").out)
    assert doc["stages"]["ab"]["result"]["reach"][0]["unexplained"] is True
