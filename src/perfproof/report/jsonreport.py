"""The report as a JSON document (``perfproof.report/1``) for agents and CI.

Same content and order as the Markdown, with each number twice: as the text a human reads and
as the value it was formatted from, so a consumer never has to parse ``12.3 ± 0.4 ns/op``.
The compare document it was built from is embedded as it was read (``perfproof.compare/1``).
"""

from __future__ import annotations

from typing import TypedDict

from perfproof.compare.geomean import geomean_json
from perfproof.model import Estimate
from perfproof.render.results import Row
from perfproof.report.context import ReportContext, rounds_table
from perfproof.report.rounds import rounds_header
from perfproof.report.rundir import RunFolder

SCHEMA = "perfproof.report/1"


class SideDoc(TypedDict):
    """One side of a row: the text shown and the numbers it was formatted from."""

    text: str
    estimate: float
    ci: list[float]
    forks: int
    unit: str


class DeltaDoc(TypedDict):
    text: str
    pct: float
    ci_pct: list[float]
    interval_confidence: float | None


class DriftDoc(TypedDict):
    found: bool
    p_value: float
    keys: int
    shifts: dict[str, float]
    """Round → its level relative to round 1 across keys, time per operation − 1."""


class RoundsDoc(TypedDict):
    """The run by round: what the rounds say about the machine, each key's ratio per round."""

    text: str
    header: list[str]
    rows: list[list[str]]
    drift: DriftDoc | None


class BytesDoc(TypedDict):
    """The bytes/op comparison of the row's key."""

    text: str
    baseline: float
    feature: float
    delta_pct: float
    verdict: str


class MachineDoc(TypedDict, total=False):
    machine: str
    """Only for a merged run, where each key names the machine that measured it."""


class RowDoc(MachineDoc):
    params: dict[str, str]
    baseline: SideDoc
    feature: SideDoc
    delta: DeltaDoc
    verdict: str
    reach: str | None
    """Beside the verdict: ``no static path`` or ``not in a recording`` (the change may not
    run in the benchmark); null where it reaches or nothing is known."""
    p_adjusted: float | None
    family: str
    display_unit: str
    bytes: BytesDoc | None


class TableDoc(TypedDict):
    benchmark: str
    mode: str
    param_names: list[str]
    rows: list[RowDoc]


class LabelledDoc(TypedDict):
    label: str
    value: str


class StepDoc(TypedDict):
    caption: str
    command: str


class ReproduceDoc(TypedDict):
    note: str
    steps: list[StepDoc]


class WarningDoc(TypedDict):
    about: str
    items: list[str]


class JmhRowDoc(TypedDict):
    label: str
    baseline: str
    feature: str
    overlap: str


class JmhTableDoc(TypedDict):
    caption: str
    text: str


class JmhDoc(TypedDict):
    view: list[JmhRowDoc]
    tables: list[JmhTableDoc]


class ReportDoc(TypedDict):
    """``perfproof.report/1`` as written (before non-finite numbers become null)."""

    schema: str
    run_dir: str
    title: str
    summary: str
    digest: list[str]
    rounds: RoundsDoc | None
    results: list[TableDoc]
    geomean: list[dict[str, object]]
    methodology: list[LabelledDoc]
    reproduce: ReproduceDoc
    warnings: list[WarningDoc]
    jmh: JmhDoc
    compare: dict[str, object]


def _side(
    text: str,
    side: Estimate,
    unit: str,
    shown: tuple[tuple[float, float], tuple[float, float]] | None,
    index: int,
) -> SideDoc:
    """A side as the row shows it: its interval at the row's level."""
    return {
        "text": text,
        "estimate": side.value,
        "ci": list(shown[index] if shown is not None else side.ci),
        "forks": side.forks,
        "unit": unit,
    }


def _row(row: Row) -> RowDoc:
    c = row.comparison
    a = row.alloc
    machine: MachineDoc = {"machine": row.machine} if row.machine else {}
    return {
        "params": row.params,
        "baseline": _side(row.baseline, c.base, c.unit, row.sides_ci, 0),
        "feature": _side(row.feature, c.head, c.unit, row.sides_ci, 1),
        "delta": {
            "text": row.delta,
            "pct": c.delta_pct,
            "ci_pct": list(c.delta_ci_pct),
            "interval_confidence": c.decided_level,
        },
        "verdict": row.verdict,
        "reach": row.reach or None,
        "p_adjusted": c.p_adjusted,
        "family": c.family,
        "display_unit": row.scale.unit,
        **machine,
        "bytes": None
        if a is None
        else {
            "text": row.bytes,
            "baseline": a.base.value,
            "feature": a.head.value,
            "delta_pct": a.delta_pct,
            "verdict": str(a.verdict),
        },
    }


def report_document(run: RunFolder, ctx: ReportContext) -> ReportDoc:
    """The ``perfproof.report/1`` document; :func:`~perfproof.model.documents.dumps` writes
    it as strict JSON (non-finite numbers as null)."""
    methodology: list[LabelledDoc] = [{"label": k, "value": v} for k, v in ctx.methodology]
    methodology.append({"label": "Statistics", "value": ctx.method})
    return {
        "schema": SCHEMA,
        "run_dir": str(run.path),
        "title": ctx.title,
        "summary": ctx.summary,
        "digest": list(ctx.digest),
        "rounds": None
        if ctx.rounds is None
        else {
            "text": ctx.rounds_text,
            "header": rounds_header(ctx.rounds),
            "rows": rounds_table(ctx),
            "drift": None
            if ctx.rounds.drift is None
            else {
                "found": ctx.rounds.drift.found,
                "p_value": ctx.rounds.drift.p_value,
                "keys": ctx.rounds.drift.keys,
                "shifts": {str(r): v for r, v in ctx.rounds.drift.shifts.items()},
            },
        },
        "results": [
            {
                "benchmark": t.benchmark,
                "mode": t.mode,
                "param_names": t.param_names,
                "rows": [_row(r) for r in t.rows],
            }
            for t in ctx.tables
        ],
        "geomean": geomean_json(
            [c for t in ctx.tables for r in t.rows for c in (r.comparison, r.alloc) if c]
        ),
        "methodology": methodology,
        "reproduce": {
            "note": ctx.reproduce_note,
            "steps": [{"caption": s.caption, "command": s.command} for s in ctx.reproduce],
        },
        "warnings": [{"about": g.about, "items": g.items} for g in ctx.warnings],
        "jmh": {
            "view": [
                {
                    "label": r.label,
                    "baseline": r.baseline,
                    "feature": r.feature,
                    "overlap": r.overlap,
                }
                for r in ctx.jmh_view
            ],
            "tables": [{"caption": c, "text": t} for c, t in ctx.raw],
        },
        "compare": run.document.dump(),
    }
