"""Measure one key group into its own shard run folder, on the machine this runs on.

This is the unit of work an executor hands to a machine: a group of suite keys, the run's plan
and settings, and a way to start JMH for each side. The result is an ordinary finished shard
run folder (manifest with its ``shard`` block and machine, raw JMH files, logs), measured with
the same round loop as ``perfproof ab``, so the base and head forks of every key in it come
from this one machine.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from perfproof import __version__
from perfproof.measure import environment
from perfproof.measure.keys import group_keys
from perfproof.measure.plan import Step
from perfproof.measure.progress import Reporter
from perfproof.measure.scheduler import Scheduler, SideTarget
from perfproof.measure.shard import machine_identity, restrict_plan
from perfproof.measure.store import DONE, RunStore
from perfproof.model import SIDES
from perfproof.model.documents.run import SCHEMA, Jdk, RunManifest
from perfproof.model.documents.run_plan import Machine, PlanBlock, ShardBlock
from perfproof.model.documents.suite import SuiteKey

MeasureKeys = Callable[[RunStore, Scheduler, list[SuiteKey], Reporter], tuple[Any, str]]
"""The round loop (``ab``'s ``measure_keys``): measures keys until the plan says stop and
returns the sequential state and why it ended. Passed in, so this layer does not import the
pipeline that calls it."""


@dataclass(frozen=True)
class PartJob:
    """One key group of a run, as plain data a remote node can receive."""

    index: int
    """1-based number of the group (its shard index)."""
    count: int
    keys: list[SuiteKey]
    """The group's suite keys."""
    plan: PlanBlock
    """The run's plan; restricted here to the group's keys."""
    header: dict[str, Any]
    """Manifest entries shared by every group: repo, refs, options, command, build spec."""
    partition: dict[str, Any]
    """The shard block's partition fields: ``method``, ``digest``, ``all_keys``."""
    lock_timeout_s: float = 900.0
    extra: dict[str, Any] = field(default_factory=dict)


def measure_part(
    job: PartJob,
    part_dir: Path,
    launchers: dict[str, list[str]],
    reporter: Reporter,
    *,
    measure: MeasureKeys,
    java_home: str | None = None,
    jdk: Jdk | None = None,
    identity: Machine | None = None,
) -> RunStore:
    """Run the group's complete interleaved A/B into ``part_dir`` (new) and mark it done.

    ``launchers`` are the ``java … org.openjdk.jmh.Main`` prefixes of both sides on this
    machine. ``measure`` is the round loop ``ab`` uses, so keys stop as soon as their verdicts
    are in, exactly as they would in a local run.
    """
    keys = list(job.keys)
    plan = restrict_plan(job.plan, group_keys(keys))
    machine = identity if identity is not None else machine_identity()
    manifest = RunManifest.read({"schema": SCHEMA, **job.header}, f"{part_dir}: the run's header")
    manifest.id = part_dir.name
    manifest.perfproof_version = __version__
    manifest.shard = ShardBlock.model_validate(
        {
            **job.partition,
            "index": job.index,
            "count": job.count,
            "keys": [k.label() for k in keys],
            "machine": machine,
        }
    )
    shas = {side: str(manifest.side(side).sha) for side in SIDES}
    store = RunStore.create(part_dir, manifest)
    store.init_steps(plan)
    store.manifest.environment = environment.capture(jdk=jdk, jmh_version=None, shas=shas)
    store.save()
    benchmarks = sorted({k.benchmark for k in keys})

    def launcher_of(side: str) -> Any:
        def launcher(step: Step) -> list[str]:
            return list(launchers[side])

        return launcher

    targets = {side: SideTarget(side, launcher_of(side), benchmarks, len(keys)) for side in SIDES}
    scheduler = Scheduler(
        store,
        targets,
        reporter,
        settings=plan.settings,
        lock_timeout_s=job.lock_timeout_s,
        java_home=java_home,
    )
    with store.exclusive():
        store.add_event("started", machine=machine.host)
        state, ended = measure(store, scheduler, keys, reporter)
        store.manifest.stopping = state.to_block(keys, ended)
        store.manifest.environment.load_after = environment.load_average()
        store.add_event(DONE)
        store.set_status(DONE)
    return store
