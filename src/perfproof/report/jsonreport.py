"""The report as a JSON document (``perfproof.report/1``) for agents and CI.

Same content and order as the Markdown, with each number twice: as the text a human reads and
as the value it was formatted from, so a consumer never has to parse ``12.3 ± 0.4 ns/op``.
The compare document it was built from is embedded unchanged.
"""

from __future__ import annotations

from typing import Any

from perfproof.compare.geomean import geomean_json
from perfproof.model import Estimate
from perfproof.model.documents import json_safe
from perfproof.render.results import Row
from perfproof.report.context import ReportContext
from perfproof.report.rundir import RunFolder

SCHEMA = "perfproof.report/1"


def _side(text: str, side: Estimate, unit: str) -> dict[str, Any]:
    return {
        "text": text,
        "estimate": side.value,
        "ci": list(side.ci),
        "forks": side.forks,
        "unit": unit,
    }


def _row(row: Row) -> dict[str, Any]:
    c = row.comparison
    doc: dict[str, Any] = {
        "params": row.params,
        "baseline": _side(row.baseline, c.base, c.unit),
        "feature": _side(row.feature, c.head, c.unit),
        "delta": {
            "text": row.delta,
            "pct": c.delta_pct,
            "ci_pct": list(c.delta_ci_pct),
            "interval_confidence": c.interval_confidence,
        },
        "verdict": row.verdict,
        "p_adjusted": c.p_adjusted,
        "family": c.family,
        "display_unit": row.scale.unit,
    }
    if row.machine:
        doc["machine"] = row.machine
    if row.alloc is not None:
        a = row.alloc
        doc["bytes"] = {
            "text": row.bytes,
            "baseline": a.base.value,
            "feature": a.head.value,
            "delta_pct": a.delta_pct,
            "verdict": str(a.verdict),
        }
    else:
        doc["bytes"] = None
    return doc


def report_document(run: RunFolder, ctx: ReportContext) -> dict[str, Any]:
    """The ``perfproof.report/1`` document; strict JSON (non-finite numbers are null)."""
    return json_safe(
        {
            "schema": SCHEMA,
            "run_dir": str(run.path),
            "title": ctx.title,
            "summary": ctx.summary,
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
            "methodology": [{"label": k, "value": v} for k, v in ctx.methodology]
            + [{"label": "Statistics", "value": ctx.method}],
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
            "compare": run.compare,
        }
    )
