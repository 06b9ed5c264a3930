"""JMH's own result tables, rebuilt from the raw JSON of every round of each side.

Reviewers know JMH's summary table by heart; showing it (collapsed) next to perfproof's
fork-level numbers lets them match the report to what JMH printed in the console, and see
JMH's pooled ``scoreError`` for what it is.
"""

from __future__ import annotations

import math
from typing import Any

from perfproof.jmh.names import normalise_metric
from perfproof.model import ALLOC_NORM
from perfproof.report.rundir import BASE, HEAD, RawFile, RunFolder

SIDE_TITLES = {BASE: "Baseline", HEAD: "Feature"}
SUPERSCRIPT = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")
"""JMH writes tiny scores as ``≈ 10⁻⁵``; so do these tables."""


def _score(value: Any) -> str:
    try:
        v = float(value)
    except (TypeError, ValueError):
        return "NaN"
    if not math.isfinite(v):
        return "NaN"
    if v != 0 and abs(v) < 0.001:
        return "≈ 10" + str(math.floor(math.log10(abs(v)))).translate(SUPERSCRIPT)
    return f"{v:.3f}"


def _count(metric: dict[str, Any]) -> int:
    raw = metric.get("rawData")
    if raw:
        return sum(len(f) for f in raw)
    hist = metric.get("rawDataHistogram")
    if hist:
        return sum(len(f) for f in hist)
    return 0


def _rows(entries: list[dict[str, Any]], param_names: list[str]) -> list[list[str]]:
    rows = []
    for e in entries:
        name = str(e.get("benchmark", "?"))
        params = [str((e.get("params") or {}).get(p, "N/A")) for p in param_names]
        mode = str(e.get("mode", ""))
        metrics = [(name, e.get("primaryMetric") or {})]
        for sec_name, metric in (e.get("secondaryMetrics") or {}).items():
            if normalise_metric(sec_name) == ALLOC_NORM:
                metrics.append((f"{name}:{sec_name}", metric))
        for label, metric in metrics:
            err = metric.get("scoreError")
            rows.append(
                [
                    label,
                    *params,
                    mode,
                    str(_count(metric)),
                    _score(metric.get("score")),
                    "±",
                    _score(err),
                    str(metric.get("scoreUnit", "")),
                ]
            )
    return rows


def jmh_table(raw: RawFile) -> str:
    """One file's results laid out like JMH's end-of-run table."""
    entries = [e for e in raw.entries if isinstance(e, dict)]
    param_names: list[str] = []
    for e in entries:
        for p in e.get("params") or {}:
            if p not in param_names:
                param_names.append(p)
    header = [
        "Benchmark",
        *[f"({p})" for p in param_names],
        "Mode",
        "Cnt",
        "Score",
        "",
        "Error",
        "Units",
    ]
    rows = [header, *_rows(entries, param_names)]
    widths = [max(len(r[i]) for r in rows) for i in range(len(header))]
    lines = []
    for r in rows:
        cells = [r[0].ljust(widths[0])] + [
            c.rjust(w) for c, w in zip(r[1:-1], widths[1:-1], strict=True)
        ]
        cells.append(r[-1].ljust(widths[-1]))
        lines.append("  ".join(cells).rstrip())
    return "\n".join(lines)


def raw_tables(run: RunFolder) -> list[tuple[str, str]]:
    """(caption, table text) for every raw file, baseline rounds first."""
    out = []
    for side in (BASE, HEAD):
        for raw in run.raw_for(side):
            out.append(
                (f"{SIDE_TITLES[side]}, round {raw.round} ({raw.path.name})", jmh_table(raw))
            )
    return out
