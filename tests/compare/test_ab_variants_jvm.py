"""``perfproof ab --ref C --pair …`` on a tiny real Maven JMH project: one build, one JMH
process a round running both variants, the variants compared as base and head with the
fork-level statistics of any A/B, and ``report`` on the run folder naming the pairing.

``sum`` adds 4096 numbers; ``sumOpt`` adds 64, so the head is many times faster; the @Param
``optimized`` makes the same two variants out of one benchmark method.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = [pytest.mark.jvm, pytest.mark.slow, pytest.mark.timeout(900)]

JMH_ARGS = "-f 1 -wi 1 -i 2 -w 100ms -r 100ms"

BENCH = """package pairs;

import org.openjdk.jmh.annotations.*;

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
    @Benchmark public long both() { return add(optimized ? 64 : 4096); }
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
    assert max(c["ratio"] for c in doc["comparisons"]) > 5  # ops/s: 64 additions against 4096
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
    assert "--ref v1 --jmh-args" in report.out and "--pair sum=sumOpt" in report.out
    assert "No raw JMH files" not in report.out  # each side's entries of the shared files
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
    assert max(c["ratio"] for c in doc["comparisons"]) > 5


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
