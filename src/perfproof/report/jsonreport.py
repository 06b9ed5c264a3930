"""The report as a JSON document (``perfproof.report/1``, typed in
:mod:`perfproof.model.documents.report`), filled from the report's context: the same content
and order as the Markdown."""

from __future__ import annotations

from perfproof.compare.geomean import geomean_docs
from perfproof.model import Estimate
from perfproof.model.documents.report import (
    BytesDoc,
    DeltaDoc,
    DriftDoc,
    JmhDoc,
    JmhRowDoc,
    JmhTableDoc,
    LabelledDoc,
    ReportDocument,
    ReproduceDoc,
    RoundsDoc,
    RowDoc,
    SideDoc,
    StepDoc,
    TableDoc,
    WarningDoc,
)
from perfproof.render import costs
from perfproof.render.results import Row
from perfproof.report.context import ReportContext, rounds_table
from perfproof.report.rounds import rounds_header
from perfproof.report.rundir import RunFolder


def _side(
    text: str,
    side: Estimate,
    unit: str,
    shown: tuple[tuple[float, float], tuple[float, float]] | None,
    index: int,
) -> SideDoc:
    """A side as the row shows it: its interval at the row's level."""
    return SideDoc(
        text=text,
        estimate=side.value,
        ci=list(shown[index] if shown is not None else side.ci),
        forks=side.forks,
        unit=unit,
    )


def _row(row: Row) -> RowDoc:
    c = row.comparison
    a = row.alloc
    return RowDoc(
        params=row.params,
        baseline=_side(row.baseline, c.base, c.unit, row.sides_ci, 0),
        feature=_side(row.feature, c.head, c.unit, row.sides_ci, 1),
        delta=DeltaDoc(
            text=row.delta,
            pct=c.delta_pct,
            ci_pct=list(c.delta_ci_pct),
            interval_confidence=c.decided_level,
        ),
        verdict=row.verdict,
        reach=row.reach or None,
        p_adjusted=c.p_adjusted,
        family=c.family,
        display_unit=row.scale.unit,
        machine=row.machine or None,
        bytes=None
        if a is None
        else BytesDoc(
            text=row.bytes,
            baseline=a.base.value,
            feature=a.head.value,
            delta_pct=a.delta_pct,
            verdict=str(a.verdict),
        ),
        costs={
            m: BytesDoc(
                text=costs.cell(k),
                baseline=k.base.value,
                feature=k.head.value,
                delta_pct=k.delta_pct,
                verdict=str(k.verdict),
            )
            for m, k in row.costs.items()
        },
    )


def _rounds(ctx: ReportContext) -> RoundsDoc | None:
    if ctx.rounds is None:
        return None
    drift = ctx.rounds.drift
    return RoundsDoc(
        text=ctx.rounds_text,
        header=rounds_header(ctx.rounds),
        rows=rounds_table(ctx),
        drift=None
        if drift is None
        else DriftDoc(
            found=drift.found,
            p_value=drift.p_value,
            keys=drift.keys,
            shifts={str(r): v for r, v in drift.shifts.items()},
        ),
    )


def report_document(run: RunFolder, ctx: ReportContext) -> ReportDocument:
    """The ``perfproof.report/1`` document; :func:`~perfproof.model.documents.dumps` of its
    :meth:`dump` writes it as strict JSON (non-finite numbers as null)."""
    methodology = [LabelledDoc(label=k, value=v) for k, v in ctx.methodology]
    methodology.append(LabelledDoc(label="Statistics", value=ctx.method))
    return ReportDocument(
        run_dir=str(run.path),
        title=ctx.title,
        summary=ctx.summary,
        digest=list(ctx.digest),
        rounds=_rounds(ctx),
        results=[
            TableDoc(
                benchmark=t.benchmark,
                mode=t.mode,
                param_names=t.param_names,
                rows=[_row(r) for r in t.rows],
            )
            for t in ctx.tables
        ],
        geomean=geomean_docs(
            [c for t in ctx.tables for r in t.rows for c in (r.comparison, r.alloc) if c]
        ),
        methodology=methodology,
        reproduce=ReproduceDoc(
            note=ctx.reproduce_note,
            steps=[StepDoc(caption=s.caption, command=s.command) for s in ctx.reproduce],
        ),
        warnings=[WarningDoc(about=g.about, items=g.items) for g in ctx.warnings],
        jmh=JmhDoc(
            view=[
                JmhRowDoc(label=r.label, baseline=r.baseline, feature=r.feature, overlap=r.overlap)
                for r in ctx.jmh_view
            ],
            tables=[JmhTableDoc(caption=c, text=t) for c, t in ctx.raw],
        ),
        compare=run.document.dump(),
    )
