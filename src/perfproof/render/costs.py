"""The costs beside time and heap bytes/op, as every table prints them: off-heap bytes per
operation and GC time and collections per operation (:mod:`perfproof.model.metrics`).

A suite where nothing allocates off the heap and nothing changes in the GC would get four
columns of ``0 → 0`` from them, so a cost is shown only where it says something: off-heap
bytes/op where either side allocates (a column in that benchmark's table), GC time or
collections per operation where the verdict is a change. The results tables, the terminal
table of ``compare`` and the gate all take that rule from :func:`worth_showing`.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

from perfproof.model import Comparison, Verdict
from perfproof.model.metrics import (
    COST_NAMES,
    DIRECT_NORM,
    GC_COSTS,
    GC_COUNT_NORM,
    GC_TIME_NORM,
    NATIVE_NORM,
    OFF_HEAP,
)
from perfproof.render.effect import delta_text
from perfproof.units import MISSING, bytes_change, choose_scale, scaled
from perfproof.units.allocation import BYTES_ZERO

COLUMNS = (DIRECT_NORM, NATIVE_NORM, GC_TIME_NORM, GC_COUNT_NORM)
"""The cost columns a results table may carry, in this order."""

PER_MILLION = 1e6
"""Collections are counted per million operations: a collection per operation is rare."""


def worth_showing(c: Comparison) -> bool:
    """Off-heap bytes where either side allocates any; GC costs where they changed."""
    if c.key.metric in OFF_HEAP:
        return any(math.isfinite(v) and abs(v) >= BYTES_ZERO for v in (c.base.value, c.head.value))
    if c.key.metric in (GC_TIME_NORM, GC_COUNT_NORM):
        return c.verdict in (Verdict.IMPROVED, Verdict.REGRESSED)
    return True


def header(metric: str) -> str:
    """The column header: ``direct B/op baseline → feature (Δ%)``."""
    if metric == GC_COUNT_NORM:
        return "GCs per 10⁶ ops baseline → feature (Δ%)"
    return f"{COST_NAMES[metric]} baseline → feature (Δ%)"


def cell(c: Comparison | None) -> str:
    """One row's cost: bytes as heap bytes/op reads, GC time in a time unit, collections per
    million operations; a statistical change with the interval and the verdict it has."""
    if c is None:
        return MISSING
    if c.key.metric in OFF_HEAP:
        return bytes_change(c.base.value, c.head.value, c.delta_pct)
    if c.key.metric == GC_COUNT_NORM:
        sides = " → ".join(_count(v) for v in (c.base.value, c.head.value))
    else:
        scale = choose_scale(c.unit, max(c.base.value, c.head.value))
        sides = f"{scaled(c.base.value, scale)} → {scaled(c.head.value, scale)}"
    return f"{sides} ({delta_text(c)}) {c.verdict}"


def _count(value: float) -> str:
    if not math.isfinite(value):
        return MISSING
    per = value * PER_MILLION
    return "0" if per == 0 else f"{per:,.3g}"


def off_heap_counts(rows: Sequence[Mapping[str, Comparison]]) -> list[str]:
    """``1 allocates less off the heap``: the rows whose direct or native bytes/op changed,
    for the summary line."""
    out = []
    for verdict, word in ((Verdict.IMPROVED, "less"), (Verdict.REGRESSED, "more")):
        n = sum(1 for r in rows if any(r[m].verdict is verdict for m in OFF_HEAP if m in r))
        if n:
            out.append(f"{n} allocate{'s' if n == 1 else ''} {word} off the heap")
    return out


def sentence(shown: set[str]) -> str:
    """How the cost columns shown were measured, for the note under the tables."""
    out = ""
    if shown & set(OFF_HEAP):
        out += (
            " Direct and native B/op: bytes reserved for direct buffers and taken through "
            "`Unsafe.allocateMemory` per operation, counted exactly by perfproof's JMH profiler "
            "(`direct.alloc.norm`, `native.alloc.norm`), invisible to `-prof gc`."
        )
    if shown & set(GC_COSTS):
        out += (
            " GC time and collections per operation: JMH's `gc.time` and `gc.count` of each "
            "iteration over the operations it ran, shown where they changed (a family of their "
            "own: they explain a verdict, they do not make one)."
        )
    return out
