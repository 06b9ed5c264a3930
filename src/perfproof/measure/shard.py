"""Split a suite's keys into N shards that take about the same time, the same way everywhere.

A suite too big for one machine is split by key (benchmark × @Param combination): a key's base
and head must be measured on the same machine, since machines differ, so each shard runs a
complete interleaved A/B of its own keys and ``perfproof merge`` joins the shards afterwards.

Every shard computes the partition on its own machine, from its own ``-lp`` listing, with no
coordinator; the partition must therefore depend only on the set of keys and their expected
times, never on the order JMH lists them in or on anything about the machine. The keys are
sorted by label and cut into N contiguous runs of about equal expected time: neighbours in
label order are usually @Param values of the same benchmark, so a shard tends to hold whole
benchmarks (few JMH invocations), and adding one key moves at most the cuts next to it.

The manifest of a shard records the partition (its digest), the full key list and the machine,
which is what lets a merge prove that no key is missing and none is counted twice.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import re
import socket
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol, TypeVar

from perfproof.errors import InputError
from perfproof.measure.environment import machine_environment
from perfproof.measure.keys import group_keys
from perfproof.measure.plan import Plan, Step, plan_step
from perfproof.measure.store import RunStore
from perfproof.model.documents.run_plan import Machine, ShardBlock
from perfproof.model.documents.suite import Selection, SuiteKey

METHOD = "contiguous-by-label/1"
"""Name of the partition rule, recorded so a merge refuses shards cut by another rule."""

_SHARD = re.compile(r"^\s*(\d+)\s*/\s*(\d+)\s*$")


class Labelled(Protocol):
    """A suite key: anything with a stable, unique text label (``Bench.method [n=16]``)."""

    def label(self) -> str: ...


K = TypeVar("K", bound=Labelled)


@dataclass(frozen=True)
class Shard:
    """Shard ``index`` of ``count`` (both 1-based, as a user types ``--shard 2/4``)."""

    index: int
    count: int

    def __str__(self) -> str:
        return f"{self.index}/{self.count}"


def parse_shard(text: str) -> Shard:
    """``"2/4"`` → ``Shard(2, 4)``; anything else is bad input naming the flag."""
    match = _SHARD.match(text or "")
    if not match:
        raise InputError(f"--shard {text}: expected I/N, e.g. --shard 1/4")
    index, count = int(match.group(1)), int(match.group(2))
    if count < 1:
        raise InputError(f"--shard {text}: N must be at least 1")
    if not 1 <= index <= count:
        raise InputError(f"--shard {text}: I must be between 1 and N ({count})")
    return Shard(index, count)


def partition(
    keys: Sequence[K], count: int, seconds: Callable[[K], float] | None = None
) -> list[list[K]]:
    """The keys cut into ``count`` shards of about equal expected time, in label order.

    Deterministic and independent of the input order. Cut ``i`` goes where the running total
    of expected time is nearest to ``i/count`` of the whole, and every shard keeps at least one
    key while there are enough keys, so N shards of a suite with at least N keys are never
    empty. With more shards than keys the last shards are empty (a CI matrix wider than the
    suite still works: those shards measure nothing).
    """
    if count < 1:
        raise InputError(f"shard count must be at least 1, got {count}")
    ordered = sorted(keys, key=lambda k: k.label())
    labels = [k.label() for k in ordered]
    for a, b in itertools.pairwise(labels):
        if a == b:
            raise InputError(f"the suite lists the key {a!r} twice; cannot shard it")
    cost = [max(float(seconds(k)) if seconds else 1.0, 0.0) for k in ordered]
    total = sum(cost)
    prefix = [0.0]
    for c in cost:
        prefix.append(prefix[-1] + c)
    n = len(ordered)
    if n <= count:
        cuts = [min(i, n) for i in range(count + 1)]
    else:
        cuts = [0]
        for i in range(1, count):
            target = total * i / count
            # at least one key per shard: after the previous cut, before the shards to come
            lo, hi = cuts[-1] + 1, n - (count - i)
            cuts.append(min(range(lo, hi + 1), key=lambda j: (abs(prefix[j] - target), j)))
        cuts.append(n)
    return [list(ordered[a:b]) for a, b in itertools.pairwise(cuts)]


def partition_digest(shards: Sequence[Sequence[Labelled]]) -> str:
    """A short fingerprint of a whole partition: equal digests mean equal shards, key by key."""
    doc = [METHOD, [[k.label() for k in s] for s in shards]]
    text = json.dumps(doc, separators=(",", ":"), allow_nan=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def machine_identity() -> Machine:
    """Which machine a shard ran on: its host name plus the facts that tell machines apart."""
    env = machine_environment()
    return Machine(
        host=socket.gethostname(),
        cpu_model=env.cpu_model,
        cores=env.cores,
        memory_bytes=env.memory_bytes,
        os=env.os,
    )


def machine_name(identity: Machine | None) -> str:
    """The short name a report shows for a machine: its host name, and for a Ray node the
    start of its node id (two nodes may share a host name)."""
    if identity is None:
        return "?"
    name = identity.host or identity.cpu_model or "?"
    node = identity.ray_node
    return f"{name} ({node[:8]})" if node else name


def shard_manifest(
    spec: Shard,
    keys: Sequence[K],
    seconds: Callable[[K], float] | None = None,
    identity: Machine | None = None,
) -> tuple[list[K], ShardBlock]:
    """This shard's keys and the manifest's ``shard`` block that records how they were chosen.

    Every shard stores the whole key list and the digest of the whole partition, not only its
    own part, so a merge can check, from the shards alone, that they were cut the same way and
    that together they cover the suite.
    """
    shards = partition(keys, spec.count, seconds)
    mine = shards[spec.index - 1]
    block = ShardBlock(
        index=spec.index,
        count=spec.count,
        method=METHOD,
        digest=partition_digest(shards),
        keys=[k.label() for k in mine],
        all_keys=sorted(k.label() for k in keys),
        expected_s=round(sum(float(seconds(k)) if seconds else 1.0 for k in mine), 3),
        machine=identity if identity is not None else machine_identity(),
    )
    return mine, block


def check_resume_shard(recorded: ShardBlock | None, asked: Shard | None, run: str) -> None:
    """``--shard`` with ``--resume``: it must name the shard the run folder already holds."""
    if asked is None:
        return
    if recorded is None:
        raise InputError(f"--shard {asked}: {run} is not a shard run; drop --shard to resume it")
    held = Shard(recorded.index, recorded.count)
    if held != asked:
        raise InputError(f"--shard {asked}: {run} holds shard {held}; resume it without --shard")


def restrict_plan(plan: Plan, selections: Sequence[Selection]) -> Plan:
    """``plan`` with every planned round running only ``selections`` (a shard's keys).

    Each planned round keeps its side order; each selection becomes one JMH process per side,
    both sides of a part back to back, like the later rounds of a sequential run. No keys, no
    steps: a shard of a suite smaller than the shard count measures nothing.
    """
    rounds: dict[int, list[str]] = {}
    for step in plan.steps:
        sides = rounds.setdefault(step.round, [])
        if step.side not in sides:
            sides.append(step.side)
    many = len(selections) > 1
    steps: list[Step] = []
    for round_no, pair in sorted(rounds.items()):
        for part, selection in enumerate(selections, start=1):
            for side in pair:
                steps.append(plan_step(len(steps), round_no, side, part if many else 1, selection))
    return plan.model_copy(update={"steps": steps})


def apply_shard(
    store: RunStore,
    spec: Shard,
    keys: Sequence[SuiteKey],
    seconds: Callable[[SuiteKey], float] | None = None,
) -> list[SuiteKey]:
    """Narrow a run to its shard's keys, once; on resume, check the suite is still the same.

    The first time (after both sides were listed, before anything was measured) the partition
    is computed and recorded in the manifest's ``shard`` block and every planned step is
    replaced by steps for the shard's keys only. A resumed run takes its keys from that block,
    so a changed listing can never move keys between shards half-way through.
    """
    recorded = store.manifest.shard
    labels = sorted(k.label() for k in keys)
    if recorded is not None and recorded.keys is not None:
        if recorded.all_keys != labels:
            raise InputError(
                f"{store.path}: the suite JMH lists now is not the one shard {spec} started "
                "with; start the shard again in a new folder"
            )
        mine = set(recorded.keys)
        return sorted((k for k in keys if k.label() in mine), key=lambda k: k.label())
    selected, block = shard_manifest(spec, keys, seconds)
    store.manifest.shard = block
    store.init_steps(restrict_plan(store.plan, group_keys(selected)))
    return selected
