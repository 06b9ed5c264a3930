"""The prove chain without a JVM: stage bookkeeping, skips, stops and bad input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from perfproof.cli.ab import command as ab_command
from perfproof.cli.prove import command as prove_command
from perfproof.model.documents.prove import STAGES, read_prove
from perfproof.pipeline.prove.run import NO_BENCHMARK, NO_CHANGE
from perfproof.render.prove import SECTIONS

from .conftest import commit, wire_row

LIB = """package p;
public class Codec {
    public int encode(int x) { return x * 2; }
}
"""
BENCH = """package p.bench;
import org.openjdk.jmh.annotations.Benchmark;
public class OtherBench {
    @Benchmark public int other() { return 1; }
}
"""


def test_prove_takes_every_ab_option_as_ab_spells_it() -> None:
    ab_flags = {o for p in ab_command.params for o in p.opts}
    prove_flags = {o for p in prove_command.params for o in p.opts}
    assert ab_flags - prove_flags == set()
    assert {"--skip", "--e2e-run", "--e2e-metric", "--resume"} <= prove_flags


def test_no_benchmark_reaches_the_change_stops_with_advice(
    tmp_path: Path, prove_cache: Path, run_cli
) -> None:
    repo = tmp_path / "repo"
    base = commit(repo, {"src/main/java/p/Codec.java": LIB, "src/jmh/java/p/bench/O.java": BENCH})
    head = commit(repo, {"src/main/java/p/Codec.java": LIB.replace("x * 2", "x << 1")})
    out = tmp_path / "bundle"
    res = run_cli("prove", "--repo", repo, "--base", base, "--head", head, "--out", out)
    assert res.code == 0, res.err
    assert res.err.count(NO_BENCHMARK) == 1  # the advice once, the skipped stages say why
    doc = read_prove(out / "prove.json")
    statuses = {s: doc.stages.entry(s).status for s in STAGES}
    assert statuses["changes"] == statuses["benchmarks"] == statuses["report"] == "done"
    assert all(statuses[s] == "skipped" for s in ("guard", "ab", "profile", "tests", "e2e"))
    changes = doc.stages.changes.done
    assert changes is not None
    assert [(m.label, m.kind) for m in changes.methods] == [("Codec.encode(int)", "modified")]
    report = (out / "report.md").read_text()
    headings = [line[4:] for line in report.splitlines() if line.startswith("### ")]
    assert headings == list(SECTIONS)
    assert "`Codec.encode(int)`" in report and NO_BENCHMARK in report
    assert (out / "report.html").read_text().startswith("<!DOCTYPE html>")
    check = run_cli("check", out / "report.md", out)  # a bundle with no A/B still checks
    assert check.code == 0, check.out
    assert "prove report" in check.out
    row = "`Codec.encode(int)` | modified | "
    (out / "report.md").write_text(report.replace(row, row + "line 12 of "))
    edited = run_cli("check", out / "report.md", out)
    assert edited.code == 1 and ": untied: " in edited.out, edited.out


def test_a_change_without_java_is_reported_as_such(
    tmp_path: Path, prove_cache: Path, run_cli
) -> None:
    repo = tmp_path / "repo"
    base = commit(repo, {"src/main/java/p/Codec.java": LIB, "README.md": "a"})
    head = commit(repo, {"README.md": "b"})
    out = tmp_path / "bundle"
    res = run_cli("prove", "--repo", repo, "--base", base, "--head", head, "--out", out)
    assert res.code == 0, res.err
    assert NO_CHANGE in res.err
    assert read_prove(out / "prove.json").stages.ab.reason == NO_CHANGE


def test_bad_input_exits_2_before_any_work(tmp_path: Path, prove_cache: Path, run_cli) -> None:
    repo = tmp_path / "repo"
    base = commit(repo, {"src/main/java/p/Codec.java": LIB})
    res = run_cli("prove", "--repo", repo, "--base", base, "--head", "nope")
    assert res.code == 2 and "unknown ref 'nope'" in res.err
    res = run_cli("prove", "--repo", repo, "--base", base, "--head", base)
    assert res.code == 2 and "same commit" in res.err
    res = run_cli("prove", "--repo", repo, "--head", base)
    assert res.code == 2 and "--base and --head are required" in res.err
    res = run_cli("prove", "--resume", tmp_path, "--base", base)
    assert res.code == 2 and "drop --base" in res.err
    res = run_cli("prove", "--resume", tmp_path)
    assert res.code == 2 and "not a prove bundle" in res.err
    res = run_cli("prove", "--repo", repo, "--base", base, "--head", base, "--skip", "changes")
    assert res.code == 2


def test_resume_runs_only_unfinished_stages(tmp_path: Path, prove_cache: Path, run_cli) -> None:
    repo = tmp_path / "repo"
    base = commit(repo, {"src/main/java/p/Codec.java": LIB})
    head = commit(repo, {"src/main/java/p/Codec.java": LIB.replace("x * 2", "x + x")})
    out = tmp_path / "bundle"
    assert run_cli("prove", "--repo", repo, "--base", base, "--head", head, "--out", out).code == 0
    doc = json.loads((out / "prove.json").read_text())
    finished = doc["stages"]["changes"]["finished"]
    doc["stages"]["callers"] = {"status": "failed", "error": "stopped"}
    (out / "prove.json").write_text(json.dumps(doc))
    res = run_cli("prove", "--resume", out, "--format", "json")
    assert res.code == 0, res.err
    again = json.loads(res.out)
    assert again["schema"] == "perfproof.prove/1"
    assert again["stages"]["changes"]["finished"] == finished  # not run again
    assert again["stages"]["callers"]["status"] == "done"
    # a bundle folder is never reused for a new chain
    res = run_cli("prove", "--repo", repo, "--base", base, "--head", head, "--out", out)
    assert res.code == 2 and "--resume" in res.err


@pytest.mark.parametrize("stage", ["changes", "report", "nope"])
def test_only_some_stages_can_be_skipped(stage: str, run_cli) -> None:
    res = run_cli("prove", "--base", "a", "--head", "b", "--skip", stage)
    assert res.code == 2


def test_per_call_gain_follows_the_metric_direction() -> None:
    from perfproof.stats.amdahl_gains import key_gain as per_call_gain

    assert per_call_gain(wire_row(ratio=0.5, direction="lower")) == pytest.approx(1.0)
    assert per_call_gain(wire_row(ratio=1.25, direction="higher")) == pytest.approx(0.25)
    assert per_call_gain(wire_row(ratio=None, direction="lower")) is None
    assert per_call_gain(wire_row(ratio=0.0, direction="lower")) is None


def test_caution_block_is_red_in_html() -> None:
    from perfproof.render.prove_html import render_html

    page = render_html(
        "## T\n\n> [!CAUTION]\n> **broken:** `X#y`\n\n| a | b |\n|---|---|\n| 1 | 2 |\n"
    )
    assert '<blockquote class="caution">' in page and "<table>" in page


def test_guard_measures_only_the_changed_benchmark_classes(tmp_path: Path) -> None:
    from perfproof.code.query import open_project
    from perfproof.pipeline.prove.code import classes_in

    (tmp_path / "src/jmh/java/p/bench").mkdir(parents=True)
    (tmp_path / "src/jmh/java/p/bench/O.java").write_text(BENCH)
    (tmp_path / "src/jmh/java/p/bench/K.java").write_text(BENCH.replace("OtherBench", "K"))
    project = open_project(tmp_path, use_cache=False)
    assert classes_in(project, ["src/jmh/java/p/bench/O.java"]) == [r"^p\.bench\.OtherBench\."]
