"""JMH's own result tables, rebuilt from the raw JSON of every round of each side.

Reviewers know JMH's summary table by heart; showing it (collapsed) next to perfproof's
fork-level numbers lets them match the report to what JMH printed in the console, and see
JMH's pooled ``scoreError`` for what it is.
"""

from __future__ import annotations

import math

from perfproof.jmh.entries import JmhEntry
from perfproof.model import PRIMARY
from perfproof.report.rundir import BASE, HEAD, RawFile, RunFolder

SIDE_TITLES = {BASE: "Baseline", HEAD: "Feature"}
SUPERSCRIPT = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")
"""JMH writes tiny scores as ``≈ 10⁻⁵``; so do these tables."""


def _score(v: float) -> str:
    if not math.isfinite(v):
        return "NaN"
    if v != 0 and abs(v) < 0.001:
        return "≈ 10" + str(math.floor(math.log10(abs(v)))).translate(SUPERSCRIPT)
    return f"{v:.3f}"


def _rows(entries: list[JmhEntry], param_names: list[str]) -> list[list[str]]:
    rows = []
    for e in entries:
        name = e.benchmark if e.benchmark is not None else "?"
        params = [e.params.get(p, "N/A") for p in param_names]
        mode = e.mode if e.mode is not None else ""
        for m in e.metrics:
            label = name if m.name == PRIMARY else f"{name}:{m.written}"
            rows.append(
                [
                    label,
                    *params,
                    mode,
                    str(m.iterations),
                    _score(m.score),
                    "±",
                    _score(m.error),
                    m.unit,
                ]
            )
    return rows


def jmh_table(raw: RawFile) -> str:
    """One file's results laid out like JMH's end-of-run table."""
    entries = raw.entries
    param_names: list[str] = []
    for e in entries:
        for p in e.params:
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
