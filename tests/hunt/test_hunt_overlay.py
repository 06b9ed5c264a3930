"""``hunt --overlay``: a benchmark the fix adds, hunted at the fix's parent.

The JVM test builds a tiny real project whose second commit adds ``NewBench``; hunting the first
commit with the benchmark copied from the second must run it (its recorded forks name it) and
say in the run manifest what was copied. The refusals cost no build.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from perfproof.demo.project import write_demo_repo

TINY = "-wi 1 -w 100ms -i 2 -r 100ms"

CODE = """package ov;

public final class Codes {
    public static int describe(int code) {
        int h = 0;
        for (int i = 0; i < 2_000; i++) {
            h += String.valueOf(code + i).hashCode() % 7;
        }
        return h;
    }
}
"""

BENCH = """package ov;

import org.openjdk.jmh.annotations.*;

@State(Scope.Thread)
public class NewBench {
    int code = 42;

    @Benchmark
    public int describe() { return Codes.describe(code); }
}
"""


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_demo_repo(tmp_path_factory.mktemp("demo") / "project").path


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--overlay-from", "feature"], "--overlay-from names where --overlay copies from"),
        (["--overlay", "no/such/B.java"], "no file tracked by git there in --overlay-from HEAD"),
        (["--overlay", "pom.xml", "--base", "baseline", "--overlay-from", "feature"],
         "with --base, --overlay copies from --ref"),
    ],
)  # fmt: skip
def test_overlay_mistakes_are_refused_before_any_build(
    run_cli, demo: Path, tmp_path: Path, args: list[str], message: str
) -> None:
    out = tmp_path / "h"
    res = run_cli("hunt", "--repo", demo, "--ref", "baseline", "--out", out, *args)
    assert res.code == 2, res.err
    assert message in res.err
    assert not out.exists() or not any(out.iterdir())


@pytest.mark.jvm
@pytest.mark.slow
@pytest.mark.timeout(600)
def test_a_benchmark_the_fix_adds_is_hunted_at_its_parent(
    write_git_repo, tiny_pom, run_cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    repo = write_git_repo(
        tmp_path / "ov",
        [
            ("parent", "2026-01-01T00:00:00Z",
             {"pom.xml": tiny_pom("ov"), ".gitignore": "target/\n",
              "src/main/java/ov/Codes.java": CODE}),
            ("fix", "2026-01-02T00:00:00Z",
             {"src/main/java/ov/Codes.java": CODE.replace("String.valueOf(code + i).hashCode()",
                                                          "(code + i)"),
              "src/main/java/ov/NewBench.java": BENCH}),
        ],
    )  # fmt: skip
    out = tmp_path / "hunt"
    res = run_cli("hunt", "--repo", repo, "--ref", "parent", "--overlay",
                  "src/main/java/ov/NewBench.java", "--overlay-from", "fix", "--forks", "1",
                  "--jmh-args", TINY, "--out", out, "--format", "json")  # fmt: skip
    assert res.code == 0, res.err
    manifest = json.loads((out / "run" / "manifest.json").read_text())
    assert manifest["overlay"]["files"] == ["src/main/java/ov/NewBench.java"]
    doc = json.loads(res.out)
    groups = json.dumps(doc["workload"]["groups"])
    assert "NewBench" in groups  # the copied benchmark is the workload that ran
    # the parent's code was measured: its slow path is what the hunt ranks
    methods = [h["method"] for h in doc["hypotheses"]]
    assert "Codes.describe" in methods, methods
