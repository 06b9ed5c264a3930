"""``perfproof hunt`` on real JMH forks of the demo project (tiny settings): the two planted
hot paths rank first and second with the right file, line and benchmark, the decoys do not
rank, the fix makes both go, and bad workloads exit with one line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from perfproof.demo.project import write_demo_repo

pytestmark = [pytest.mark.jvm, pytest.mark.slow, pytest.mark.timeout(600)]

TINY = "-wi 1 -w 100ms -i 2 -r 100ms"
SHORT = "-wi 1 -w 1s -i 2 -r 200ms"
"""A second of warm-up: the shortest JFR can skip (its delay is whole seconds), so the
recordings hold what the hunt's design records, steady state only."""
DECOYS = ("setup", "<clinit>", "levels", "failure")


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_demo_repo(tmp_path_factory.mktemp("hunt") / "project").path


@pytest.fixture
def cache(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    # the session's cache, shared with the demo and ab tests (the same commits are built once)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path_factory.getbasetemp() / "perfproof-cache"))


def test_baseline_hot_paths_rank_first_and_the_fix_removes_them(
    run_cli, demo: Path, tmp_path: Path, cache: None
) -> None:
    base = tmp_path / "base"
    res = run_cli("hunt", "--repo", demo, "--ref", "baseline", "--jmh-args", SHORT, "--out", base)
    assert res.code == 0, res.err
    doc = json.loads((base / "hunt.json").read_text())
    assert not [w for w in doc["warnings"] if "warm-up" in w]
    top = doc["hypotheses"][:2]
    assert {h["method"] for h in top} == {"ErrorReporter.report", "EventBus.publish"}
    by = {h["method"]: h for h in top}
    report, publish = by["ErrorReporter.report"], by["EventBus.publish"]
    assert (report["file"], report["line"]) == ("src/main/java/perfdemo/ErrorReporter.java", 25)
    assert (publish["file"], publish["line"]) == ("src/main/java/perfdemo/EventBus.java", 22)
    assert report["benchmarks"] == ["perfdemo.bench.ErrorReporterBench.report"]
    assert publish["benchmarks"] == ["perfdemo.bench.EventBusBench.publishNoListeners"]
    assert publish["pattern"]["rule"] == "stream-on-empty"
    for h in top:
        cost = h["costs"][0]
        assert cost["cpu_share"]["forks"] == 3
        assert cost["bytes_per_op"]["mean"] > 1000  # boxed keys and counters; stream objects
        assert cost["ns_per_op"]["mean"] > 0 and cost["ceiling"] > 0
        assert h["callers"] == {"production": 0, "distinct": 0, "primitive": False}
        assert "perfproof prove" in h["prove"] and "--base" in h["prove"]
    assert "java.lang.Integer" in {c["class"] for c in report["classes"]}
    # decoys: set-up allocation, the static initialiser, the cold error path never rank; the
    # reused buffer's growth is not charged as an allocation per operation
    for h in doc["hypotheses"]:
        assert not h["method"].endswith(DECOYS), h["method"]
        if h["method"] == "Journal.write":
            assert h["rank"] > 2
            assert (h["costs"][0]["bytes_per_op"] or {"mean": 0})["mean"] < 1
    kinds = {o["label"] for o in doc["other"]}
    assert "outside the benchmark (JVM and harness)" in kinds
    feature = tmp_path / "feature"
    res = run_cli(
        "hunt", "--repo", demo, "--ref", "feature", "--jmh-args", SHORT, "--out", feature,
        "--compare", base,
    )  # fmt: skip
    assert res.code == 0, res.err
    changes = {
        c["method"]: c["status"] for c in json.loads((feature / "hunt.json").read_text())["changes"]
    }
    assert changes["ErrorReporter.report"] in ("gone", "fell")
    assert changes["EventBus.publish"] in ("gone", "fell")
    listed = {h["method"] for h in json.loads((feature / "hunt.json").read_text())["hypotheses"]}
    assert all((status == "gone") == (method not in listed) for method, status in changes.items()
               if status in ("gone", "fell"))  # fmt: skip
    assert "gone" in res.out or "fell ×" in res.out


def test_a_command_is_a_workload(run_cli, demo: Path, tmp_path: Path, cache: None) -> None:
    base = tmp_path / "b"
    res = run_cli("hunt", "--repo", demo, "--ref", "baseline", "--bench", "ErrorReporterBench",
                  "--forks", "1", "--jmh-args", TINY, "--out", base)  # fmt: skip
    assert res.code == 0, res.err
    builds = json.loads((base / "run" / "manifest.json").read_text())["builds"]
    jar = builds[0]["jar"]
    # a plain command knows nothing of JMH's machine-wide lock: in-process and one second
    # long, it may run beside another JMH rather than fail when one holds the lock
    cmd = (
        f"java -Djmh.ignoreLock=true -cp {jar} org.openjdk.jmh.Main ErrorReporterBench "
        "-f 0 -wi 0 -i 1 -r 1s"
    )
    res = run_cli("hunt", "--repo", demo, "--ref", "baseline", "--run", cmd,
                  "--out", tmp_path / "c", "--format", "json")  # fmt: skip
    assert res.code == 0, res.err
    doc = json.loads(res.out)
    assert doc["workload"]["kind"] == "command"
    first = doc["hypotheses"][0]
    assert first["method"] == "ErrorReporter.report"
    assert first["costs"][0]["bytes_per_s"]["mean"] > 0
    assert first["costs"][0]["bytes_per_op"] is None  # a command has no operation count
    # one run of the command is one recording, whatever number of JVMs it started
    assert first["costs"][0]["cpu_share"]["forks"] == 1
    assert first["costs"][0]["cpu_share"]["mean"] > 0.5


@pytest.mark.parametrize(
    ("args", "code", "words"),
    [
        (["--bench", "NoSuchBench"], 2, "--bench NoSuchBench matches no benchmark"),
        (["--run", "java -cp /nonexistent NoSuchMain"], 3, "exited with code 1"),
        (["--run", "no-such-program-here"], 2, "no-such-program-here"),
    ],
)
def test_bad_workloads_exit_with_one_line(
    run_cli, demo: Path, tmp_path: Path, cache: None, args: list[str], code: int, words: str
) -> None:
    res = run_cli("hunt", "--repo", demo, "--ref", "baseline", "--jmh-args", TINY,
                  "--out", tmp_path / "o", *args)  # fmt: skip
    assert res.code == code, res.err
    last = res.err.strip().splitlines()[-1]
    assert last.startswith("perfproof: error:") and words in last
    if code == 2:  # nothing measured: no half-made folder to refuse the corrected command
        assert not (tmp_path / "o").exists()


def test_base_hunts_both_commits_and_names_what_the_change_removed(
    run_cli, demo: Path, tmp_path: Path, cache: None
) -> None:
    out = tmp_path / "both"
    res = run_cli(
        "hunt", "--repo", demo, "--base", "baseline", "--ref", "feature",
        "--bench", "ErrorReporterBench", "--jmh-args", SHORT, "--out", out,
    )  # fmt: skip
    assert res.code == 0, res.err
    assert (out / "base" / "hunt.json").is_file()
    doc = json.loads((out / "hunt.json").read_text())
    assert doc["compared_with"] == str(out / "base" / "hunt.json")
    changes = {c["method"]: c["status"] for c in doc["changes"]}
    assert changes["ErrorReporter.report"] in ("gone", "fell")
