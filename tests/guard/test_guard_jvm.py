"""``perfproof guard`` on a tiny real Maven JMH project (real builds, real JMH forks).

The project's feature commit stops allocating a scratch array per call and adds the benchmark
that shows it (with two @Param values); the benchmark does not exist on the baseline, so the
guard only works if the feature's benchmark source is overlaid onto the baseline. A docs-only
commit after the feature is the negative control: same code, so nothing to tell apart.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytestmark = [pytest.mark.jvm, pytest.mark.slow]

BASE_CODE = """package guarddemo;

public final class Checksum {
    public long sum(int n) {
        long[] scratch = new long[n];
        for (int i = 0; i < n; i++) {
            scratch[i] = i * 31L;
        }
        long s = 0;
        for (long v : scratch) {
            s += v;
        }
        return s;
    }
}
"""

FEATURE_CODE = """package guarddemo;

public final class Checksum {
    private long[] scratch = new long[0];

    public long sum(int n) {
        if (scratch.length < n) {
            scratch = new long[n];
        }
        for (int i = 0; i < n; i++) {
            scratch[i] = i * 31L;
        }
        long s = 0;
        for (int i = 0; i < n; i++) {
            s += scratch[i];
        }
        return s;
    }
}
"""

BENCH = """package guarddemo.bench;

import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.*;
import guarddemo.Checksum;

@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class ChecksumBench {
    @Param({"16", "256"})
    int n;

    private final Checksum checksum = new Checksum();

    @Benchmark
    public long sum() {
        return checksum.sum(n);
    }
}
"""

CODE = "src/main/java/guarddemo/Checksum.java"
BENCH_PATH = "src/main/java/guarddemo/bench/ChecksumBench.java"
JMH_ARGS = "-f 1 -wi 1 -i 2 -w 100ms -r 100ms"


@pytest.fixture(scope="session")
def guard_repo(tmp_path_factory: pytest.TempPathFactory, write_git_repo, tiny_pom) -> Path:
    """baseline (allocates per call, no benchmark) → feature (reuses a buffer, adds the
    benchmark) → docs (README only)."""
    return write_git_repo(
        tmp_path_factory.mktemp("guard") / "repo",
        [
            ("baseline", "2026-01-05T10:00:00Z",
             {"pom.xml": tiny_pom("guarddemo"), CODE: BASE_CODE, ".gitignore": "target/\n"}),
            ("feature", "2026-01-06T10:00:00Z", {CODE: FEATURE_CODE, BENCH_PATH: BENCH}),
            ("docs", "2026-01-07T10:00:00Z", {"README.md": "Checksums.\n"}),
        ],
    )  # fmt: skip


def _guard(run_cli, repo: Path, out: Path, base: str, head: str, *extra: str):
    return run_cli(
        "guard", "--repo", str(repo), "--base", base, "--head", head,
        "--bench", "ChecksumBench", "--rounds", "2", "--jmh-args", JMH_ARGS,
        "--out", str(out), "--lock-timeout", "300", *extra,
    )  # fmt: skip


def test_guard_passes_on_alloc_when_the_feature_allocates_less(
    run_cli, guard_repo: Path, tmp_path: Path
) -> None:
    out = tmp_path / "pass"
    res = _guard(
        run_cli, guard_repo, out, "baseline", "feature", "--metric", "alloc", "--format", "json"
    )
    assert res.code == 0, res.err
    doc = json.loads(res.out)
    assert doc["verdict"] == "PASS" and doc["kind"] == "alloc"
    # the benchmark exists only on the feature: it was overlaid onto the baseline
    assert doc["overlay_files"] == [BENCH_PATH]
    rows = {r["params"]["n"]: r for r in doc["rows"]}
    assert set(rows) == {"16", "256"} and all(r["metric"] == "alloc" for r in rows.values())
    # baseline allocates a long[n] per call (16 + 8n bytes), the feature nothing
    assert rows["256"]["base"] == pytest.approx(16 + 8 * 256, abs=8)
    assert rows["16"]["base"] == pytest.approx(16 + 8 * 16, abs=8)
    assert all(r["head"] < 1 and r["passed"] for r in rows.values())
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["guard"]["kind"] == "alloc" and manifest["guard"]["passed"] is True
    assert "allocation" in manifest["guard"]["protects"]
    assert manifest["guard"]["command"][:2] == ["perfproof", "guard"]
    # stdout is the guard document plus where each setting came from (read from the run)
    settings = doc.pop("settings")
    assert settings["jmh_args"]["source"] == "flag"
    assert settings["budget"]["source"] == "not used by --rounds"
    assert json.loads((out / "guard.json").read_text()) == doc


def test_guard_fails_when_the_benchmark_cannot_tell_the_sides_apart(
    run_cli, guard_repo: Path, tmp_path: Path
) -> None:
    out = tmp_path / "fail"
    res = _guard(run_cli, guard_repo, out, "feature", "docs", "--metric", "alloc")
    assert res.code == 1, res.err
    assert "FAIL" in res.out and "ratio" in res.out
    assert "ChecksumBench.sum(n=16)" in res.out and "ChecksumBench.sum(n=256)" in res.out
    assert "guard FAIL" in res.err
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["guard"]["passed"] is False
    # judged again from the same run folder with another kind: the time ratio is ~1 too
    again = run_cli("guard", "--resume", str(out), "--metric", "both", "--format", "json")
    assert again.code == 1
    assert json.loads(again.out)["kind"] == "both"
