"""Keys that measure nothing: a side within a small factor of this machine's empty benchmark.

Run at the end of ``ab`` (and so of ``prove`` and ``guard``), before the report: when some key
is fast enough to be suspect, the machine's empty-benchmark floor is taken from perfproof's
cache or measured once (:mod:`perfproof.measure.floor`), and every key with a side near it gets
a note of kind ``near-floor`` beside its verdict. The verdict keeps its word (the statistics
said so), but the note says it is about JMH's loop, not the change: the JIT folded the work
away, or there was none. The reports, the summary line and the PR body say it; ``guard``
fails on it.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import asdict, replace
from pathlib import Path

from perfproof.compare.flat_params import flat_notes
from perfproof.env.cache import cache_root
from perfproof.env.java import find_java
from perfproof.measure.floor import FLOOR_FACTOR, SUSPECT_NS, Floor, cached_floor, floor_for
from perfproof.measure.store import RunStore
from perfproof.model import PRIMARY, Comparison, Estimate
from perfproof.model.diagnostics import Kind, Note
from perfproof.model.documents.compare import CompareDocument
from perfproof.units import quantity
from perfproof.workspace import build_cache


def ns_per_op(c: Comparison, side: Estimate) -> float:
    """A side's time per operation in ns, whatever the mode (throughput inverted)."""
    if c.unit == "ns/op":
        return side.value
    if c.unit == "ops/s" and side.value > 0:
        return 1e9 / side.value
    return math.nan


def suspects(document: CompareDocument) -> list[Comparison]:
    """The primary comparisons with a side fast enough that the floor is worth asking for."""
    return [
        c
        for c in document.comparisons
        if c.key.metric == PRIMARY and any(ns_per_op(c, s) < SUSPECT_NS for s in (c.base, c.head))
    ]


def note_floor(
    document: CompareDocument,
    store: RunStore,
    say: Callable[[str], None],
    cache_dir: str | None,
    lock_timeout_s: float,
) -> CompareDocument:
    """``document`` with a note on every key that has a side near the empty-benchmark floor
    (and the floor itself as ``floor``; not measured when no key is fast enough to ask), and
    on the keys of a benchmark whose time does not move across a size-like @Param
    (:mod:`perfproof.compare.flat_params`)."""
    document = document.model_copy(update={"comparisons": flat_notes(document.comparisons)})
    if not suspects(document):
        return document
    floor = _floor(store, say, cache_dir, lock_timeout_s)
    if isinstance(floor, str):
        say(f"empty-benchmark floor not measured: {floor}")
        return document
    rows = [noted(c, floor) for c in document.comparisons]
    return document.model_copy(update={"comparisons": rows, "floor": asdict(floor)})


def run_floor(store: RunStore) -> Floor | None:
    """The floor this run's machine and JDK has in the cache (measured by this run or an
    earlier one), without measuring it."""
    jdk = store.manifest.environment.jdk
    return cached_floor(find_java(jdk.path if jdk is not None and jdk.path else None))


def _floor(
    store: RunStore, say: Callable[[str], None], cache_dir: str | None, lock_timeout_s: float
) -> Floor | str:
    manifest = store.manifest
    jdk = manifest.environment.jdk
    java = find_java(jdk.path if jdk is not None and jdk.path else None)
    root = Path(cache_dir) if cache_dir else cache_root()
    for build in manifest.builds:
        artifact = build_cache.load(root, build.key) if build.key else None
        if artifact is not None:
            return floor_for(java, artifact, say, lock_timeout_s)
    return "no cached build of this run to take JMH from"


def noted(c: Comparison, floor: Floor) -> Comparison:
    """The comparison with its ``near-floor`` note, when a side is near the floor."""
    if c.key.metric != PRIMARY:
        return c
    sides = (("baseline", c.base), ("feature", c.head))
    near = [w for w, s in sides if floor.near(ns_per_op(c, s))]
    if not near:
        return c
    which = " and ".join(
        f"the {w}'s {quantity(ns_per_op(c, s), 'ns/op')}" for w, s in sides if w in near
    )
    text = (
        f"measures nothing: {which} {'is' if len(near) == 1 else 'are'} within "
        f"{FLOOR_FACTOR:g}× of this machine's empty benchmark ({quantity(floor.ns_per_op, 'ns/op')}"
        f", JMH {floor.jmh}): the JIT may have folded the work away, so its verdict "
        f"({c.verdict}) says nothing about the change"
    )
    note = Note(Kind.NEAR_FLOOR, text)
    diagnostics = replace(c.diagnostics, notes=[*(c.diagnostics.notes or []), note])
    return replace(c, diagnostics=diagnostics, warnings=[*c.warnings, text])
