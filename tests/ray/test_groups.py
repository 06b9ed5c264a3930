"""Key groups of a Ray run: planned once, recorded, and only unfinished ones run again."""

from __future__ import annotations

import json
from pathlib import Path

from perfproof.measure.plan import FIXED, make_plan
from perfproof.measure.store import RunStore
from perfproof.model.documents.run import RunManifest, SideRef
from perfproof.model.documents.suite import SuiteKey
from perfproof.pipeline.cluster import jobs_to_run, part_dir, plan_groups

KEYS = [SuiteKey(benchmark=f"a.B.m{i}", params=(("n", str(n)),)) for i in range(3) for n in (1, 2)]


def new_store(tmp_path: Path) -> RunStore:
    refs = {side: {"ref": side, "sha": side[0] * 40} for side in ("base", "head")}
    store = RunStore.create(
        tmp_path / "run",
        RunManifest(
            refs={k: SideRef.model_validate(v) for k, v in refs.items()}, options={"java": None}
        ),
    )
    store.init_steps(make_plan(2, "abba", None, (), ("-f", "1"), stopping=FIXED))
    return store


def test_groups_are_planned_once_and_cover_every_key_once(tmp_path: Path) -> None:
    store = new_store(tmp_path)
    block = plan_groups(store, KEYS, nodes=2)
    assert len(block.groups) == 4
    labels = [k.label() for g in block.groups for k in g.keys]
    assert sorted(labels) == sorted(k.label() for k in KEYS) and len(set(labels)) == len(labels)
    reopened = RunStore.open(store.path)
    assert plan_groups(reopened, KEYS, nodes=5) == block  # a resume keeps the recorded groups
    cluster = reopened.manifest.cluster
    assert cluster is not None and cluster.plan is not None
    assert cluster.plan.steps  # the plan the groups restrict


def test_only_groups_without_a_finished_folder_run_again(tmp_path: Path) -> None:
    store = new_store(tmp_path)
    block = plan_groups(store, KEYS, nodes=1)
    assert [j.index for j in jobs_to_run(store, block, 60.0)] == [1, 2]
    for index, status in ((1, "done"), (2, "interrupted")):
        folder = part_dir(store, index)
        folder.mkdir(parents=True)
        doc = {"schema": "perfproof.run/1", "status": status, "steps": []}
        (folder / "manifest.json").write_text(json.dumps(doc))
    jobs = jobs_to_run(store, block, 60.0)
    assert [j.index for j in jobs] == [2]
    job = jobs[0]
    assert job.count == 2 and job.lock_timeout_s == 60.0
    assert job.header["refs"] == store.manifest.dump()["refs"]
    assert job.partition["digest"] == block.digest
    assert job.keys == block.groups[1].keys
