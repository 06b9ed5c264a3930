"""``ab`` asks the recording before it calls a verdict unexplained, on a real Maven/JMH build.

Both benchmarks improve tenfold and no static call path leads from either to a changed
method. ``viaReflection`` calls the changed ``Work.spin`` through ``Method.invoke`` (a path
the call graph cannot see): its recording samples ``spin``, so it is reached by recording and
carries no warning. ``constantLoop`` only reads ``Work.ROUNDS``, a compile-time constant javac
copies into the benchmark: no changed method runs there, its baseline recording shows none,
and its note says that and how many samples showed it. The recorded forks are a run of their
own (``RUN/explain``); the timing forks carry no profiler.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from tests.measure.conftest import BENCH_DIR, branch_with

pytestmark = [pytest.mark.jvm, pytest.mark.slow, pytest.mark.timeout(900)]

JMH = "-f 1 -wi 2 -w 500ms -i 3 -r 1s"  # settled forks, and 59+ baseline samples under load
WORK = """package perfdemo;

public final class Work {
    public static final int ROUNDS = %d;

    private Work() {}

    public static long spin(long seed) {
        long x = seed;
        for (int i = 0; i < %d; i++) {
            x = x * 6364136223846793005L + 1442695040888963407L;
        }
        return x;
    }

    public static String describe() {
        return "%s";
    }
}
"""
BENCH = """package perfdemo.bench;

import java.lang.reflect.Method;
import org.openjdk.jmh.annotations.*;
import perfdemo.Work;

@State(Scope.Thread)
public class HiddenBench {
    private String name = "Work";
    private Method spin;
    private long seed = 42;

    @Setup
    public void find() throws Exception {
        spin = Class.forName("perfdemo." + name).getMethod("spin", long.class);
    }

    @Benchmark
    public Object viaReflection() throws Exception {
        return spin.invoke(null, seed);
    }

    @Benchmark
    public long constantLoop() {
        long x = seed;
        for (int i = 0; i < Work.ROUNDS; i++) {
            x = x * 31 + i;
        }
        return x;
    }
}
"""
REFLECT = "perfdemo.bench.HiddenBench.viaReflection"
CONSTANT = "perfdemo.bench.HiddenBench.constantLoop"


def _branch(repo: Path, name: str, rounds: int, describe: str) -> None:
    from tests.measure.conftest import git

    if name not in git(repo, "branch", "--list", name):
        work = WORK % (rounds, rounds, describe)
        branch_with(
            repo,
            name,
            {"src/main/java/perfdemo/Work.java": work, f"{BENCH_DIR}/HiddenBench.java": BENCH},
        )


def test_a_verdict_no_static_path_reaches_is_recorded_before_it_is_worded(
    ab_env, run_cli, tmp_path
):
    repo = ab_env.repo
    _branch(repo, "hidden-base", 20000, "work")
    _branch(repo, "hidden-head", 2000, "work, described")
    run_dir = tmp_path / "run"
    res = run_cli("ab", "--repo", repo, "--base", "hidden-base", "--head", "hidden-head",
                  "--bench", "HiddenBench", "--rounds", "3", "--jmh-args", JMH,
                  "--out", run_dir, "--format", "json")  # fmt: skip
    assert res.code == 0, res.err
    doc = json.loads(res.out)
    primary = {c["benchmark"]: c for c in doc["comparisons"] if c["metric"] == "primary"}
    assert primary[REFLECT]["verdict"] == "improved"
    assert primary[CONSTANT]["verdict"] == "improved"

    seen = primary[REFLECT]
    assert seen["reach"]["kind"] == "seen in a recording" and seen["reach"]["reached"]
    assert "runs the changed code" in seen["reach"]["why"]
    kinds = {n["kind"] for n in seen["diagnostics"].get("notes", [])}
    assert not kinds & {"unexplained", "no-static-path"}

    absent = primary[CONSTANT]
    assert absent["reach"]["kind"] == "not in a recording"
    (note,) = [n for n in absent["diagnostics"]["notes"] if n["kind"] == "unexplained"]
    assert note["text"].startswith("improved but not explained by the change: its baseline")
    assert "none in the changed code" in note["text"]

    manifest = json.loads((run_dir / "manifest.json").read_text())
    assert manifest["reach"]["recorded"] == "explain" and manifest["reach"]["recorded_s"] > 0
    explain = json.loads((run_dir / "explain" / "manifest.json").read_text())
    assert [s["side"] for s in explain["steps"]] in (["base", "head"], ["head", "base"])
    assert list((run_dir / "explain" / "jfr").rglob("*.jfr"))
    # the timing forks never carry a profiler
    assert all(not any("FlightRecording" in a for a in s["argv"]) for s in manifest["steps"])
    assert not (run_dir / "jfr").exists()
    report = (run_dir / "report.md").read_text()
    assert "noise" not in report
    assert "1 improvement not explained by the change" in report
    assert "no static call path found to the change" not in report
