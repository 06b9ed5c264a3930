"""``perfproof ab --ref C --pair …`` on a tiny real Maven JMH project: one build, one JMH
process a round running both variants, the variants compared as base and head with the
fork-level statistics of any A/B, and ``report`` on the run folder naming the pairing.

``sum`` adds 4096 numbers; ``sumOpt`` adds 64, so the head is many times faster; the @Param
``optimized`` makes two variants out of one benchmark method (``both``: JMH's steady
``consumeCPU`` a hundred thousand times over and 528 against 80 bytes an operation, so a look
decides it by four forks a side even on a busy machine, where one slow fork leaves the first
look's three-fork interval, at its strict level, too wide), and ``flat`` ignores it
(nothing to find: it keeps running while ``both`` is decided).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from tests.conftest import ctrl_c_when, steps_of

pytestmark = [pytest.mark.jvm, pytest.mark.slow, pytest.mark.timeout(900)]

JMH_ARGS = "-f 1 -wi 1 -i 2 -w 100ms -r 100ms"
LOOK_ARGS = "-f 1 -wi 2 -i 2 -w 200ms -r 200ms"
"""A little more warm-up where a look must decide from three forks a side, on a busy machine."""

BENCH = """package pairs;

import org.openjdk.jmh.annotations.*;
import org.openjdk.jmh.infra.Blackhole;

@State(Scope.Thread)
public class SumBench {
    @Param({"false", "true"})
    boolean optimized;

    long[] data = new long[4096];

    long add(int n) {
        long s = 0;
        for (int i = 0; i < n; i++) {
            s += data[i] ^ i;
        }
        return s;
    }

    @Benchmark public long sum() { return add(4096); }
    @Benchmark public long sumOpt() { return add(64); }
    Object sink;

    @Benchmark public void both() {
        sink = new long[optimized ? 8 : 64];  // published, so it stays: 80 B/op against 528
        Blackhole.consumeCPU(optimized ? 10 : 1_000_000);
    }
    @Benchmark public long flat() { return add(1024); }
}
"""


@pytest.fixture(scope="module")
def pairs_repo(tmp_path_factory: pytest.TempPathFactory, write_git_repo, tiny_pom) -> Path:
    return write_git_repo(tmp_path_factory.mktemp("pairs") / "repo", [
        ("v1", "2026-03-01T10:00:00Z", {
            "pom.xml": tiny_pom("pairs"), ".gitignore": "target/\n",
            "src/main/java/pairs/SumBench.java": BENCH,
        }),
    ])  # fmt: skip


def test_two_benchmarks_of_one_commit_are_measured_once_and_compared(
    run_cli, pairs_repo: Path, tmp_path: Path
) -> None:
    out = tmp_path / "run"
    res = run_cli(
        "ab", "--repo", str(pairs_repo), "--ref", "v1", "--pair", "sum=sumOpt",
        "--rounds", "2", "--jmh-args", JMH_ARGS + " -p optimized=false", "--out", str(out),
        "--lock-timeout", "300", "--format", "json",
    )  # fmt: skip
    assert res.code == 0, res.err
    doc = json.loads(res.out)
    assert {c["benchmark"] for c in doc["comparisons"]} == {"pairs.SumBench.sum"}
    assert (
        max(c["ratio"] for c in doc["comparisons"] if c["metric"] == "primary") > 5
    )  # ops/s: 64 additions against 4096
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["refs"]["base"]["sha"] == manifest["refs"]["head"]["sha"]
    assert manifest["variants"]["pairs"] == [["sum", "sumOpt"]]
    assert [b["side"] for b in manifest["builds"]] == ["base"]  # one build
    assert sorted(p.name for p in (out / "jmh").iterdir()) == ["01-pair.json", "02-pair.json"]
    raw = json.loads((out / "jmh/01-pair.json").read_text())
    assert {e["benchmark"].rsplit(".", 1)[1] for e in raw} == {"sum", "sumOpt"}  # one process
    assert all(len(e["primaryMetric"]["rawData"]) == 1 for e in raw)  # a fork each
    report = run_cli("report", str(out))
    assert report.code == 0, report.err
    assert report.out.startswith("## Performance: sumOpt at v1 (")
    assert "**Sides:** sides by pair: base sum, head sumOpt" in report.out
    assert "No raw JMH files" not in report.out  # each side's entries of the shared files
    assert "2 rounds, each one JMH process running both variants: 01-pair, 02-pair" in report.out
    reproduce = report.out[report.out.index("Reproduce") :]
    sha = manifest["refs"]["base"]["sha"]
    assert (
        reproduce.count("worktree add") == 1 and f"/tmp/perfproof-baseline-{sha[:12]}" in reproduce
    )
    assert reproduce.count("Build the commit") == 1 and "perfproof-feature" not in reproduce
    assert "Run JMH on both variants, one JMH process" in reproduce
    jmh_line = next(line for line in reproduce.splitlines() if "org.openjdk.jmh.Main" in line)
    # the command the first round ran, its own result file, both variants in one process
    assert "-rff 01-pair.json" in jmh_line and "sumOpt" in jmh_line and "sum" in jmh_line
    assert f"--ref {sha}" in reproduce and "--pair sum=sumOpt" in reproduce
    assert "--order" not in reproduce  # the order within a round is JMH's own
    html = run_cli("report", str(out), "--format", "html")
    assert html.code == 0 and "fig-" in html.out, html.err


def test_two_values_of_a_param_are_the_sides(run_cli, pairs_repo: Path, tmp_path: Path) -> None:
    out = tmp_path / "run"
    res = run_cli(
        "ab", "--repo", str(pairs_repo), "--ref", "v1", "--sides-by-param",
        "optimized=false,true", "--bench", "SumBench.both", "--rounds", "2",
        "--jmh-args", JMH_ARGS, "--out", str(out), "--lock-timeout", "300", "--format", "json",
    )  # fmt: skip
    assert res.code == 0, res.err
    doc = json.loads(res.out)
    assert {c["benchmark"] for c in doc["comparisons"]} == {"pairs.SumBench.both"}
    assert all("optimized" not in (c.get("params") or {}) for c in doc["comparisons"])
    primary = [c for c in doc["comparisons"] if c["metric"] == "primary"]
    assert len(primary) == 1 and primary[0]["ratio"] > 5


HOLDER = """import fcntl, sys, time
f = open(sys.argv[1], "a")
fcntl.lockf(f, fcntl.LOCK_EX)
print("held", flush=True)
time.sleep(float(sys.argv[2]))
"""


def _hold_lock(path: Path, seconds: float) -> subprocess.Popen[str]:
    """Another process holding JMH's lock, as a second JMH would (a POSIX record lock)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(path), str(seconds)], stdout=subprocess.PIPE, text=True
    )
    assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
    return holder


@pytest.mark.parametrize(("hold_s", "timeout_s"), [(4.0, 300), (120.0, 2)])
def test_a_variant_round_waits_for_another_jmhs_lock(
    run_cli,
    pairs_repo: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    hold_s: float,
    timeout_s: int,
) -> None:
    tmpdir = tmp_path / "jvm-tmp"
    monkeypatch.setenv("JAVA_TOOL_OPTIONS", f"-Djava.io.tmpdir={tmpdir}")  # a lock of our own
    holder = _hold_lock(tmpdir / "jmh.lock", hold_s)
    out = tmp_path / "run"
    try:
        res = run_cli(
            "ab", "--repo", str(pairs_repo), "--ref", "v1", "--pair", "sum=sumOpt",
            "--rounds", "1", "--jmh-args", JMH_ARGS + " -p optimized=false",
            "--out", str(out), "--lock-timeout", str(timeout_s), "--format", "json",
        )  # fmt: skip
    finally:
        holder.kill()
        holder.communicate()
    if timeout_s > hold_s:  # the holder lets go: the round runs after it
        assert res.code == 0, res.err
        assert "is held" in res.err and "waiting up to 300s" in res.err
        assert (out / "jmh" / "01-pair.json").is_file()
    else:  # it does not: a one-line error naming the lock and the flag, no result file
        assert res.code == 3, res.err
        assert "still holds" in res.err and "--lock-timeout" in res.err
        assert not (out / "jmh" / "01-pair.json").exists()


def test_a_sequential_variant_run_stops_keys_resumes_after_ctrl_c_and_records_each_side(
    run_cli, pairs_repo: Path, tmp_path: Path
) -> None:
    out = tmp_path / "run"
    argv = [sys.executable, "-m", "perfproof", "ab", "--repo", str(pairs_repo), "--ref", "v1",
            "--sides-by-param", "optimized=false,true", "--bench", r"SumBench\.(both|flat)$",
            "--max-rounds", "5", "--futility", "0", "--jmh-args", LOOK_ARGS,
            "--jfr", "--out", str(out), "--lock-timeout", "300"]  # fmt: skip
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).parents[2] / "src")}
    # Ctrl-C while round 2 runs: round 1 is kept, round 2 is run again on --resume
    code, err = ctrl_c_when(
        argv,
        lambda: (
            steps_of(out).get("01-pair") == "done" and steps_of(out).get("02-pair") == "running"
        ),
        400,
        env,
    )
    assert code == 130, err
    assert f"perfproof ab --resume {out}" in err
    first = out / "jmh" / "01-pair.json"
    kept = (first.stat().st_ino, first.stat().st_mtime_ns)
    assert not (out / "jmh" / "02-pair.json").exists()

    res = run_cli("ab", "--resume", str(out), "--format", "json")
    assert res.code == 0, res.err
    m = _manifest(out)
    assert [e["pending"] for e in m["history"] if e["event"] == "resumed"] == [["02-pair"]]
    assert (first.stat().st_ino, first.stat().st_mtime_ns) == kept  # round 1 never ran again
    # the commit was built once: the resumed attempt found the build in the cache
    assert [b["side"] for b in m["builds"]] == ["base", "base"] and m["builds"][-1]["cached"]
    # the first look (3 forks a side after round 3) or the next decides `both` before the
    # last round; `flat` runs on alone after it
    stop = {k["key"]: k for k in m["stopping"]["keys"]}
    both = stop["pairs.SumBench.both"]
    assert both["decided"] and both["early"] and both["stopped_round"] in (3, 4), both
    later = [s for s in m["steps"] if s["round"] > both["stopped_round"]]
    assert later and all(s["side"] == "pair" for s in later)
    assert all(s["selection"]["benchmarks"] == ["pairs.SumBench.flat"] for s in later)
    assert all(s["selection"]["params"] == {"optimized": ["false", "true"]} for s in later)
    doc = json.loads(res.out)
    verdicts = {
        c["benchmark"]: c["verdict"] for c in doc["comparisons"] if c["metric"] == "primary"
    }
    assert verdicts["pairs.SumBench.both"] == "improved"
    assert verdicts["pairs.SumBench.flat"] not in ("improved", "regressed")
    # every fork's recording is in its variant's folder, none left in the step's own folder
    for step in m["steps"]:
        forks = len(step["selection"]["benchmarks"]) if step.get("selection") else 2
        for side in ("base", "head"):
            folder = out / "jfr" / f"r{step['round']}-{side}"
            names = sorted(p.name for p in folder.iterdir())
            assert names == [f"fork-{i}.jfr" for i in range(1, forks + 1)], (step["id"], names)
            assert all((folder / n).read_bytes()[:4] == b"FLR\0" for n in names)
        assert len(step["recordings"]) == 2 * forks
    assert not list((out / "jfr").glob("r*-pair*"))
    assert f"--before {out}/jfr/r*-base* --after {out}/jfr/r*-head*" in res.err


def _manifest(run_dir: Path) -> dict:
    return json.loads((run_dir / "manifest.json").read_text())
