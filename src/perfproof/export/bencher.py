"""Bencher Metric Format (BMF) JSON: ``{benchmark: {measure: {value, lower_value, upper_value}}}``.

The benchmark name carries the @Param values (``fx.Codes.sum(n=16)``), so JMH variants stay
apart; bytes/op is a measure of its own next to latency or throughput rather than being
dropped, and so are direct and native bytes/op and GC time and collections per operation;
``lower_value``/``upper_value`` are the fork-level interval (absent with one fork,
where there is no honest interval to give, and when wider than 1,000× the value, which BMF
lets a metric leave out). Values are in perfproof's canonical units:
nanoseconds, operations per second, bytes.
"""

from __future__ import annotations

import re

from perfproof.export.source import ExportFile, ExportOptions, ExportRun, Value, display_name
from perfproof.model import ALLOC_NORM, PRIMARY
from perfproof.model.documents import dumps
from perfproof.model.metrics import DIRECT_NORM, GC_COUNT_NORM, GC_TIME_NORM, NATIVE_NORM

_BUILTIN = {"ns/op": "latency", "ops/s": "throughput"}
MEASURES = {
    DIRECT_NORM: "direct-bytes-per-op",
    NATIVE_NORM: "native-bytes-per-op",
    GC_TIME_NORM: "gc-time-per-op",
    GC_COUNT_NORM: "gcs-per-op",
}
"""Bencher measures of the costs beside time and heap bytes (nanoseconds, bytes, counts)."""


def measure_of(value: Value) -> str:
    """Bencher's measure slug: its built-in latency/throughput, else one named for the metric."""
    if value.key.metric == ALLOC_NORM:
        return "bytes-per-op"
    if value.key.metric in MEASURES:
        return MEASURES[value.key.metric]
    if value.key.metric == PRIMARY and value.unit in _BUILTIN:
        return _BUILTIN[value.unit]
    slug = re.sub(r"[^a-z0-9]+", "-", f"{value.key.metric}-{value.unit}".lower()).strip("-")
    return slug or "value"


def render(run: ExportRun, options: ExportOptions) -> dict[str, ExportFile]:
    doc: dict[str, dict[str, dict[str, float]]] = {}
    rows = 0
    omitted = []
    for value in run.values("head"):
        if value.key.metric not in options.metrics:
            continue
        entry: dict[str, float] = {"value": value.mean}
        if value.lo is not None and value.hi is not None:
            entry["lower_value"] = value.lo
            entry["upper_value"] = value.hi
        elif value.omitted is not None:
            omitted.append(f"{display_name(value.key)} {measure_of(value)}: {value.omitted}")
        doc.setdefault(display_name(value.key), {})[measure_of(value)] = entry
        rows += 1
    return {"bencher.json": ExportFile(dumps(doc), rows, rows, tuple(omitted))}
