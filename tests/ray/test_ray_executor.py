"""The Ray executor on a real two-node cluster: groups spread over nodes, a lost node's group
measured again elsewhere, and merged results equal to ``compare`` over the same forks."""

from __future__ import annotations

import json
import shutil
import threading
import time
from datetime import datetime
from pathlib import Path

import pytest

from perfproof.compare import CompareOptions, compare_document, compare_specs
from perfproof.measure.executors import ray as executor
from perfproof.measure.executors.local import PartJob
from perfproof.measure.plan import FIXED, jmh_options, make_plan, split_jmh_args
from perfproof.measure.progress import PlainReporter
from perfproof.measure.shard import METHOD, partition, partition_digest
from perfproof.pipeline.ab.run import measure_keys
from perfproof.pipeline.merge.run import check_shards, load_shard, merge_runs

pytestmark = [pytest.mark.jvm, pytest.mark.slow, pytest.mark.timeout(600)]


KEYS = 4
"""Keys the tests measure (of the suite's 6): two per group, two groups, a lean run."""


def make_jobs(suite, groups: int) -> list[PartJob]:
    keys = suite.keys[:KEYS]
    parts = partition(keys, groups)
    tiny = suite.jmh_args
    plan = make_plan(2, "abba", None, (), jmh_options(split_jmh_args(tiny)), stopping=FIXED)
    header = {
        "repo": str(suite.repo),
        "refs": {side: {"ref": side, "sha": sha} for side, sha in suite.shas.items()},
        "options": {"rounds": 2, "order": "abba", "jmh_args": tiny, "java": None},
    }
    fields = {
        "method": METHOD,
        "digest": partition_digest(parts),
        "all_keys": sorted(k.label() for k in keys),
    }
    return [
        PartJob(i, groups, list(keys), plan, header, fields)
        for i, keys in enumerate(parts, start=1)
    ]


def measured_labels(part: Path) -> set[str]:
    shard = load_shard(part)
    return {f"{e.benchmark}{dict(e.params)}" for e in shard.entries()}


def test_a_small_suite_runs_across_both_nodes_and_merges_like_compare(
    suite, ray_cluster, tmp_path: Path
) -> None:
    jobs = make_jobs(suite, 2)
    with (tmp_path / "progress.log").open("w") as log:
        outcomes = executor.run_groups(
            jobs,
            suite.artifacts,
            tmp_path / "parts",
            PlainReporter(log),
            address=ray_cluster.address,
            measure=measure_keys,
        )
    assert sorted(o.index for o in outcomes) == [1, 2]
    assert len({o.node for o in outcomes}) == 2  # both JMH nodes measured
    shards = [load_shard(o.path) for o in outcomes]
    check_shards(shards)  # complete, same settings, no key twice
    for shard in shards:
        assert shard.block.machine is not None
        assert shard.block.machine.ray_node in {o.node for o in outcomes}
        assert len(shard.entries()) == len(shard.block.keys or [])
    merged = merge_runs([o.path for o in outcomes], tmp_path / "merged", write_report=False)
    for side in ("base", "head"):
        folder = tmp_path / side
        folder.mkdir()
        for o in outcomes:
            for f in (o.path / "jmh").glob(f"*-{side}*.json"):
                shutil.copy(f, folder / f"{o.path.name}-{f.name}")
    direct = compare_document(
        compare_specs(str(tmp_path / "base"), str(tmp_path / "head"), CompareOptions())
    )
    rows = merged.document.dump()["comparisons"]
    assert isinstance(rows, list)
    got = [{k: v for k, v in c.items() if k != "machine"} for c in rows]
    assert got == direct["comparisons"]
    assert len({(c["benchmark"], json.dumps(c["params"])) for c in got}) == KEYS
    # every key has the forks of both rounds on both sides, all from one machine
    for c in merged.result.comparisons:
        assert (c.base.forks, c.head.forks) == (2, 2)


def test_a_node_lost_mid_run_has_its_group_measured_again_elsewhere(
    suite, ray_cluster, tmp_path: Path
) -> None:
    jobs = make_jobs(suite, 2)
    log_path = tmp_path / "progress.log"
    result: dict = {}

    def drive() -> None:
        try:
            with log_path.open("w") as log:
                result["outcomes"] = executor.run_groups(
                    jobs,
                    suite.artifacts,
                    tmp_path / "parts",
                    PlainReporter(log),
                    address=ray_cluster.address,
                    measure=measure_keys,
                )
        except BaseException as exc:
            result["error"] = exc

    before = set(Path("/tmp").glob("perfproof-g0*"))
    driver = threading.Thread(target=drive)
    driver.start()
    deadline = time.monotonic() + 120
    # both groups in flight: each node has made its work folder and no group has finished
    while len(set(Path("/tmp").glob("perfproof-g0*")) - before) < 2:
        assert time.monotonic() < deadline, log_path.read_text()
        time.sleep(0.2)
    victim = ray_cluster.workers.pop(0)
    victim_id = victim.node_id
    killed_at = time.time()
    ray_cluster.cluster.remove_node(victim, allow_graceful=False)
    driver.join(timeout=400)
    ray_cluster.add_worker()  # back to two JMH nodes for any later test
    for leftover in set(Path("/tmp").glob("perfproof-g0*")) - before:
        shutil.rmtree(leftover, ignore_errors=True)
    assert "error" not in result, result.get("error")
    outcomes = result["outcomes"]
    assert sorted(o.index for o in outcomes) == [1, 2]
    shards = [load_shard(o.path) for o in outcomes]
    check_shards(shards)
    measured = [e for s in shards for e in s.entries()]
    assert len(measured) == len(set(measured)) == KEYS
    for shard, outcome in zip(shards, outcomes, strict=True):
        # a group measured after the kill ran on the surviving node, all its forks there
        if outcome.node == victim_id:
            created = datetime.fromisoformat(shard.manifest.created.replace("Z", "+00:00"))
            assert created.timestamp() <= killed_at + 1
        assert {step.status for step in shard.manifest.steps} == {"done"}
    assert any(o.node != victim_id for o in outcomes)
