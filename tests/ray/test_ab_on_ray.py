"""``perfproof ab --executor ray`` end to end on the two-node cluster, and its resume."""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path

import pytest

from perfproof.measure.plan import parse_jmh_args
from perfproof.measure.progress import PlainReporter
from perfproof.pipeline.ab.options import AbOptions
from perfproof.pipeline.ab.run import resume_ab, start_ab
from perfproof.pipeline.cluster import Executor

pytestmark = [pytest.mark.jvm, pytest.mark.slow, pytest.mark.timeout(900)]


def digest(folder: Path) -> dict[str, str]:
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}  # fmt: skip


def test_ab_on_ray_measures_every_key_once_and_resume_runs_only_missing_groups(
    suite, ray_cluster, tmp_path: Path, monkeypatch
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(suite.cache))
    run_dir = tmp_path / "run"
    opts = AbOptions(
        base="sizes-baseline",
        head="sizes-feature",
        repo=str(suite.repo),
        bench=("perfdemo.bench.(Error|EventBus)",),  # the demo's 2 keys: a lean run
        rounds=2,
        jmh_args=parse_jmh_args(suite.jmh_args),
        out=str(run_dir),
        executor=Executor.RAY,
        ray_address=ray_cluster.address,
    )
    log = (tmp_path / "progress.log").open("w")
    outcome = start_ab(opts, PlainReporter(log))
    manifest = json.loads((run_dir / "manifest.json").read_text())
    assert manifest["status"] == "done"
    groups = manifest["cluster"]["groups"]
    assert len(groups) == 2  # two keys, two JMH nodes
    rows = json.loads((run_dir / "results.json").read_text())["comparisons"]
    assert {(r["benchmark"].rsplit(".", 1)[-1], r["base"]["forks"], r["head"]["forks"])
            for r in rows} == {("report", 2, 2), ("publishNoListeners", 2, 2)}  # fmt: skip
    assert all(r["machine"].startswith(manifest["shards"][0]["machine"]["host"]) for r in rows)
    assert "| Machine |" in outcome.report_path.read_text()
    # lose group 2's folder as if the run had been stopped before it finished
    kept = digest(run_dir / "parts" / "g01")
    shutil.rmtree(run_dir / "parts" / "g02")
    manifest["status"] = "interrupted"
    (run_dir / "manifest.json").write_text(json.dumps(manifest))
    resume_ab(run_dir, PlainReporter(log), ray_address=ray_cluster.address)
    log.close()
    after = json.loads((run_dir / "manifest.json").read_text())
    assert after["status"] == "done"
    assert digest(run_dir / "parts" / "g01") == kept  # finished work is never redone
    done = [e["group"] for e in after["history"] if e["event"] == "group-done"]
    assert sorted(done) == [1, 2, 2]  # group 2 twice: first run and resume; group 1 once
    assert len(json.loads((run_dir / "results.json").read_text())["comparisons"]) == len(rows)
