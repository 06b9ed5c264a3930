"""The comparisons of one or more runs as CSV, one row per key: what a spreadsheet or a
pandas notebook reads, as hyperfine's and benchstat's CSV exports are.

Columns name their unit once (``base_ns_op`` would vary by row, so the unit is a column of its
own and every number is in it, canonical: ns/op, ops/s, B/op). Each row carries both sides'
estimates with their fork-level intervals, the ratio head/base with the interval the verdict
was decided on, Δ%, the verdict, the forks per side and the level every interval of the row is
at (a sequential look's own level; the sides' intervals are given at it too). An interval
wider than 1,000× its value (:data:`~perfproof.units.bounds.MAX_BOUND_FACTOR`) is left empty,
as a cell with no number, and named in ``export --format json``.
"""

from __future__ import annotations

import csv
import io
import math

from perfproof.export.source import ExportFile, ExportOptions, ExportRun
from perfproof.model import Comparison
from perfproof.render.levels import side_interval
from perfproof.units.bounds import beyond_factor

COLUMNS = (
    "run", "commit", "benchmark", "mode", "params", "metric", "unit", "direction",
    "base", "base_lo", "base_hi", "base_forks", "head", "head_lo", "head_hi", "head_forks",
    "ratio", "ratio_lo", "ratio_hi", "delta_pct", "verdict", "method", "level",
)  # fmt: skip


def _cell(x: float | None) -> str:
    return "" if x is None or not math.isfinite(x) else repr(float(x))


def _bounds(value: float, lo: float, hi: float) -> tuple[float | None, float | None]:
    """The interval, or nothing when a bound is not finite or beyond the stated factor."""
    return (None, None) if beyond_factor(value, lo, hi) else (lo, hi)


def _row(run: ExportRun, c: Comparison, omitted: list[str]) -> list[str]:
    cells = [run.run_id, run.commits.get("head") or "", c.key.benchmark, c.key.mode]
    cells += [";".join(f"{k}={v}" for k, v in c.key.params), c.key.metric, c.unit]
    cells.append(str(c.direction))
    for side, estimate in (("base", c.base), ("head", c.head)):
        ci = side_interval(c, estimate, run.confidence)
        lo, hi = _bounds(estimate.value, *ci)
        if lo is None and all(math.isfinite(x) for x in ci):
            omitted.append(
                f"{c.key.label()} {side}: interval not within a factor of 1,000 of the value"
            )
        cells += [_cell(estimate.value), _cell(lo), _cell(hi), str(estimate.forks)]
    lo, hi = _bounds(c.ratio, *c.ratio_ci)
    if lo is None and c.ratio_ci != (c.ratio, c.ratio):
        omitted.append(f"{c.key.label()} ratio: interval not within a factor of 1,000 of the ratio")
    method = str(c.method) if c.method is not None else ""
    cells += [_cell(c.ratio), _cell(lo), _cell(hi), _cell(c.delta_pct), str(c.verdict), method]
    cells.append(_cell(c.decided_level))
    return cells


def render(runs: list[ExportRun], options: ExportOptions) -> dict[str, ExportFile]:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(COLUMNS)
    keys = set()
    rows = 0
    omitted: list[str] = []
    for run in runs:
        for c in run.comparisons:
            if c.key.metric not in options.metrics:
                continue
            writer.writerow(_row(run, c, omitted))
            keys.add(c.key)
            rows += 1
    if not rows:
        return {}
    text = buffer.getvalue()
    return {
        "perfproof.csv": ExportFile(
            text, len(keys), rows, tuple(omitted), _uncompared(runs, options)
        )
    }


def _uncompared(runs: list[ExportRun], options: ExportOptions) -> tuple[str, ...]:
    """The metrics asked for that a run measured (its JMH files hold them) and its
    results.json never compared: a run written before perfproof compared GC costs has GC
    time in its files and no GC comparison, so its CSV has no such rows, by what it stores."""
    out = []
    for run in runs:
        compared = {c.key.metric for c in run.comparisons}
        measured = {k.metric for side in run.sides.values() for k in side}
        missing = [m for m in options.metrics if m in measured and m not in compared]
        if missing:
            out.append(
                f"{run.run_id}: {', '.join(missing)} measured but not compared in its "
                "results.json (the perfproof that wrote the run did not compare them); "
                "`perfproof compare` of its jmh/ files compares them"
            )
    return tuple(out)
