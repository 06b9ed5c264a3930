"""JMH's own result tables, rebuilt from the raw JSON of every round of each side.

Reviewers know JMH's summary table by heart; showing it (collapsed) next to perfproof's
fork-level numbers lets them match the report to what JMH printed in the console, and see
JMH's pooled ``scoreError`` for what it is.
"""

from __future__ import annotations

import math
from typing import Any

from perfproof.jmh.entries import compared_metrics, iteration_count, score_of
from perfproof.model import PRIMARY
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


def _rows(entries: list[dict[str, Any]], param_names: list[str]) -> list[list[str]]:
    rows = []
    for e in entries:
        name = str(e.get("benchmark", "?"))
        params = [str((e.get("params") or {}).get(p, "N/A")) for p in param_names]
        mode = str(e.get("mode", ""))
        for metric, written, m in compared_metrics(e):
            label = name if metric == PRIMARY else f"{name}:{written}"
            s = score_of(m)
            rows.append(
                [
                    label,
                    *params,
                    mode,
                    str(iteration_count(m)),
                    _score(s.score),
                    "±",
                    _score(s.error),
                    s.unit,
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
