"""``perfproof ab --executor ray``: the suite's key groups measured on cluster nodes, then merged.

The driver has built both commits and listed the suite's keys (as for a local run). Here the
keys are cut into groups (the shard partition), each group is measured on one node as a
complete shard run folder (``RUN/parts/gNN/``), and the finished folders are compared as one
family by the merge code, so a Ray run and ``ab --shard`` + ``merge`` are one procedure with
two transports. The groups are recorded in the manifest before any task starts: a resumed run
measures exactly the groups that have no finished folder yet.
"""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path

from perfproof.compare import CompareResult
from perfproof.errors import InputError
from perfproof.measure.executors.local import MeasureKeys, PartJob
from perfproof.measure.progress import Reporter
from perfproof.measure.shard import METHOD, Shard, partition, partition_digest
from perfproof.measure.store import DONE, MANIFEST, RunStore
from perfproof.model.documents import read_document
from perfproof.model.documents.compare import CompareDocument
from perfproof.model.documents.run_plan import ClusterBlock, ClusterPart, KeyGroup
from perfproof.model.documents.suite import SuiteKey
from perfproof.pipeline.merge.run import check_shards, load_shard, write_merged
from perfproof.workspace.artifact import Artifact


class Executor(StrEnum):
    """Where JMH runs: this machine, or the nodes of a Ray cluster."""

    LOCAL = "local"
    RAY = "ray"


GROUPS_PER_NODE = 2
"""Key groups per JMH node: enough that a lost node costs little, few enough that each group
still runs whole benchmarks (one JMH process per side and round)."""

HEADER = ("repo", "refs", "options", "command", "build_spec", "overlay")
"""Manifest entries every group's folder copies from the run."""


def plan_groups(store: RunStore, keys: list[SuiteKey], nodes: int) -> ClusterBlock:
    """The run's key groups: recorded once, then read back by every resume."""
    recorded = store.manifest.cluster
    if recorded is not None and recorded.groups:
        return recorded
    count = max(1, min(len(keys), GROUPS_PER_NODE * max(nodes, 1)))
    groups = partition(keys, count)
    block = ClusterBlock(
        executor="ray",
        method=METHOD,
        digest=partition_digest(groups),
        all_keys=sorted(k.label() for k in keys),
        plan=store.manifest.plan,
        groups=[
            KeyGroup(index=i, count=count, keys=list(group))
            for i, group in enumerate(groups, start=1)
        ],
    )
    store.manifest.cluster = block
    store.save()
    return block


def part_dir(store: RunStore, index: int) -> Path:
    return store.path / "parts" / f"g{index:02d}"


def part_finished(path: Path) -> bool:
    """A group's folder counts once it is in place with a finished manifest."""
    if not (path / MANIFEST).is_file():
        return False
    doc = read_document(path / MANIFEST, "run", 1)
    return doc.get("status") == DONE


def jobs_to_run(store: RunStore, block: ClusterBlock, lock_timeout_s: float) -> list[PartJob]:
    header = {k: v for k, v in store.manifest.dump().items() if k in HEADER}
    java = store.manifest.options.java
    partition_fields = block.model_dump(include={"method", "digest", "all_keys"})
    if block.plan is None:
        raise InputError(f"{store.path}: the cluster's groups were recorded without a plan")
    return [
        PartJob(
            index=g.index,
            count=g.count,
            keys=list(g.keys),
            plan=block.plan,
            header=header,
            partition=partition_fields,
            lock_timeout_s=lock_timeout_s,
            extra={"java": java},
        )
        for g in block.groups
        if not part_finished(part_dir(store, g.index))
    ]


def run_on_cluster(
    store: RunStore,
    keys: list[SuiteKey],
    artifacts: dict[str, Artifact],
    reporter: Reporter,
    *,
    address: str | None,
    lock_timeout_s: float,
    measure: MeasureKeys,
) -> tuple[CompareResult, CompareDocument]:
    """Measure the run's groups on the cluster (only those not finished) and merge them.

    Returns the family's comparison and the results document (with each row's machine); the
    run's manifest gains the groups' folders, machines and copied raw files.
    """
    from perfproof.measure.executors import ray as ray_executor

    ray = ray_executor.connect(address)
    nodes = ray_executor.jmh_nodes(ray)
    block = plan_groups(store, keys, len(nodes))
    jobs = jobs_to_run(store, block, lock_timeout_s)
    finished = len(block.groups) - len(jobs)
    if finished:
        reporter.message(f"{finished} key group(s) already measured; {len(jobs)} to go")

    def record(outcome: ray_executor.GroupOutcome) -> None:
        if store.manifest.cluster_parts is None:
            store.manifest.cluster_parts = {}
        store.manifest.cluster_parts[str(outcome.index)] = ClusterPart(
            path=store.rel(outcome.path),
            host=outcome.host,
            node=outcome.node,
            seconds=outcome.seconds,
        )
        store.add_event("group-done", group=outcome.index, host=outcome.host)

    if jobs:
        ray_executor.run_groups(
            jobs,
            artifacts,
            store.path / "parts",
            reporter,
            address=address,
            measure=measure,
            on_done=record,
        )
    shards = [load_shard(part_dir(store, g.index)) for g in block.groups]
    check_shards(shards)
    outcome = write_merged(shards, store.path, store.manifest, write_report=False)
    store.save()
    return outcome.result, outcome.document


def check_spread_options(
    shard: Shard | None, executor: Executor, ray_address: str | None, jfr: bool
) -> None:
    """``--shard``, ``--executor`` and ``--ray-address`` judged together, before anything is
    built; judged only (the cluster is joined by :func:`join_cluster` when the run starts)."""
    if ray_address and executor != Executor.RAY:
        raise InputError("--ray-address needs --executor ray")
    if executor != Executor.RAY:
        return
    if shard is not None:
        raise InputError(
            f"--shard {shard} with --executor ray: the cluster already spreads the keys over "
            "its nodes; use one or the other"
        )
    if jfr:
        raise InputError("--jfr with --executor ray: the recordings would stay on the nodes")


def join_cluster(address: str | None) -> None:
    """Join the Ray cluster as a run starts, before anything is built: a cluster that is not
    there, or has no JMH node, is bad input that costs no build."""
    from perfproof.measure.executors import ray as ray_executor

    ray = ray_executor.connect(address)
    if not ray_executor.jmh_nodes(ray):
        raise InputError(ray_executor.no_jmh_nodes(address))
