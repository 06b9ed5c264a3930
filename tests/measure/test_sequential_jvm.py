"""The sequential design for real: a decided key leaves the plan, and resume keeps the looks.

Base is the demo's baseline; head changes only ``EventBus`` (the feature's early return, a
many-fold effect), so ``EventBusBench`` is decided at an early look while ``ErrorReporterBench``
(identical code) has nothing to find and keeps running. Two forks per step make the first look
come after round 1.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from tests.measure.conftest import branch_with, git

pytestmark = [pytest.mark.jvm, pytest.mark.slow, pytest.mark.timeout(300)]

TINY2 = "-f 2 -wi 1 -w 100ms -i 2 -r 100ms"
BUS = "src/main/java/perfdemo/EventBus.java"


def manifest(run_dir: Path) -> dict:
    return json.loads((run_dir / "manifest.json").read_text())


def selected(step: dict) -> set[str]:
    sel = step.get("selection")
    return set(sel["benchmarks"]) if sel else {"(all)"}


def test_a_decided_key_leaves_the_plan_and_resume_keeps_the_looks(ab_env, run_cli, tmp_path):
    repo = ab_env.repo
    if "bus-only" not in git(repo, "branch", "--list", "bus-only"):
        branch_with(repo, "bus-only", {BUS: git(repo, "show", f"feature:{BUS}") + "\n"})
    run_dir = tmp_path / "run"
    res = run_cli("ab", "--repo", repo, "--base", "baseline", "--head", "bus-only",
                  "--max-rounds", "4", "--futility", "0", "--jmh-args", TINY2, "--out", run_dir,
                  "--format", "json")  # fmt: skip
    assert res.code == 0, res.err
    m = manifest(run_dir)
    assert m["plan"]["stopping"] == "sequential"
    keys = {k["key"]: k for k in m["stopping"]["keys"]}
    bus = keys["perfdemo.bench.EventBusBench.publishNoListeners"]
    assert bus["decided"] and bus["stopped_round"] < m["plan"]["rounds"], bus
    # after the round at which it stopped, no step runs the bus benchmark any more
    later = [s for s in m["steps"] if s["round"] > bus["stopped_round"]]
    assert later  # without the futility stop the unchanged key runs on alone
    assert all("perfdemo.bench.EventBusBench" not in selected(s) for s in later)
    assert all("(all)" not in selected(s) for s in later)
    for s in later:
        assert s["argv"][s["argv"].index("-rf") - 1] != "EventBusBench"
    doc = json.loads(res.out)
    verdicts = {(c["benchmark"].rsplit(".", 1)[1], c["metric"]): c for c in doc["comparisons"]}
    assert verdicts[("publishNoListeners", "primary")]["verdict"] == "improved"
    assert verdicts[("report", "primary")]["verdict"] not in ("improved", "regressed")
    assert doc["stopping"] == m["stopping"]
    # the change's reach is in the manifest for the looks: a static path to the changed bus,
    # none to the reporter (whose code the change leaves alone)
    reach = {r["benchmark"]: r for r in m["reach"]["benchmarks"]}
    assert reach["perfdemo.bench.EventBusBench.publishNoListeners"]["kind"] == "static path"
    assert reach["perfdemo.bench.ErrorReporterBench.report"]["kind"] == "no static path"
    assert "no static call path found" in reach["perfdemo.bench.ErrorReporterBench.report"]["why"]

    # a run stopped in its last round: resume runs only the missing step and takes the same
    # looks again from the forks on disk (the ones before the gap count as taken)
    last = m["steps"][-1]
    (run_dir / last["result"]).unlink()
    res = run_cli("ab", "--resume", run_dir, "--format", "json")
    assert res.code == 0, res.err
    again = manifest(run_dir)
    resumed = [e for e in again["history"] if e["event"] == "resumed"]
    assert resumed[-1]["pending"] == [last["id"]]
    assert [s["id"] for s in again["steps"]] == [s["id"] for s in m["steps"]]
    stop = {k["key"]: k["stopped_round"] for k in again["stopping"]["keys"]}
    assert stop["perfdemo.bench.EventBusBench.publishNoListeners"] == bus["stopped_round"]
    assert "cached build of base" in res.err and "building base" not in res.err
