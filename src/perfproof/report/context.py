"""One report context per run: every section's content, every number already formatted.

Markdown, HTML and JSON render the same context, so the three formats can never disagree on
a number, and the test that recomputes the report from results.json checks them all at once.
Numbers come from the typed compare document (results.json, read by
:class:`~perfproof.model.documents.compare.CompareDocument`); the raw JMH files only supply
what the compare document does not carry (JMH's own tables, versions and settings). The
summary and results tables are the ones :mod:`perfproof.render.results` builds for every
Markdown output.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from perfproof.compare.notes import REACHABLE_FORKS
from perfproof.model import PRIMARY, BenchKey, Comparison, Verdict
from perfproof.model.documents.compare import CompareDocument
from perfproof.model.metrics import is_gc_cost
from perfproof.render.family_words import family_sentence
from perfproof.render.results import (
    Table,
    build_tables,
    params_label,
    short_name,
    sort_key,
    summary_line,
)
from perfproof.report import environment, reproduce
from perfproof.report.digest import digest_lines
from perfproof.report.rawtables import raw_tables
from perfproof.report.rounds import (
    RoundsView,
    bimodal_note,
    drift_sentence,
    no_drift_sentence,
    rounds_rows,
    rounds_view,
)
from perfproof.report.rundir import RunFolder
from perfproof.report.warmfacts import warm_facts, warm_note
from perfproof.stats import family, methods
from perfproof.units import MISSING, Scale, detectable_interval, fraction_pct, value_spread

__all__ = ["ReportContext", "build_context"]


@dataclass(frozen=True)
class JmhRow:
    """JMH's own score ± error per side for one comparison, and whether they overlap."""

    label: str
    baseline: str
    feature: str
    overlap: str


@dataclass
class WarningGroup:
    """Warnings about one comparison (``about``), or about the whole run (``about`` empty)."""

    about: str
    items: list[str]


@dataclass
class ReportContext:
    """Everything a report shows, in section order; strings are final text."""

    title: str
    summary: str
    tables: list[Table]
    methodology: list[tuple[str, str]]
    method: str
    reproduce: list[reproduce.Step]
    reproduce_note: str
    warnings: list[WarningGroup]
    raw: list[tuple[str, str]]
    document: CompareDocument
    """The typed comparisons the context was built from: their confidence, threshold and
    family procedure are what the sections quote."""
    unmatched: list[str] = field(default_factory=list)
    jmh_view: list[JmhRow] = field(default_factory=list)
    digest: list[str] = field(default_factory=list)
    """The summary's lines under the counting line: each group of changed keys with its
    range, what is unresolved and why, the machine's drift."""
    rounds: RoundsView | None = None
    rounds_text: str = ""
    """What the rounds say about the machine: the drift found, or that none was."""
    jmh_recomputed: bool = False
    """JMH's numbers shown are perfproof's recomputation over several rounds, not JMH's own."""


# ---------------------------------------------------------------------------- methodology


def method_sentences(doc: CompareDocument) -> str:
    """The statistical method, saying exactly what was done; counts match the tables."""
    theta = fraction_pct(doc.threshold)
    words = " and ".join(
        m.interval_words() for m in methods.described(c.method for c in doc.comparisons)
    )
    first = (
        "Each side is estimated by the mean of its fork means (the JVM fork, not the "
        "iteration, is the unit of replication), and the feature/baseline ratio gets an "
        f"interval from {words}; bytes/op is compared exactly "
        "(tolerance 0.5 B or 0.1%) when it barely varies."
    )
    if any(c.diagnostics.sequential is not None for c in doc.comparisons):
        # the looks' levels are the intervals' own: the level one family step would give
        # after the last look was never shown beside any interval
        adjust = (
            f"{family.DESCRIPTIONS.get(doc.family, doc.family)} at α = {conf_alpha(doc)} ran at "
            "every look (under Stopping), and each interval is at the level its verdict was "
            "decided at, named under Results."
        )
    else:
        adjust = family_sentence(doc.comparisons, doc.family, 1.0 - doc.confidence)
    second = (
        f"Multiplicity: {adjust} A change is improved or regressed when the interval shown "
        f"excludes 1 and the estimate is beyond the {theta} threshold, same when it lies "
        f"within ±{theta}, negligible when it excludes 1 inside the threshold, and "
        "inconclusive otherwise; each side's interval is at the level of its row's Δ% interval."
    )
    return first + " " + second


def conf_alpha(doc: CompareDocument) -> str:
    """The run's error rate α = 1 − confidence, as the reports write it (1%)."""
    return fraction_pct(1.0 - doc.confidence)


def fallback_sentence(comparisons: list[Comparison]) -> str:
    """What each method says of the comparisons it made (the one-fork fallback: that its
    intervals are too narrow); empty when none has anything to say."""
    return "".join(m.caveat(n) for m, n in methods.count(c.method for c in comparisons).items())


# ---------------------------------------------------------------------------- warnings

EXACT_NOTE = "bytes/op compared exactly"
"""Start of the note every exact bytes/op comparison carries; Statistics states it once."""


def comparison_label(c: Comparison) -> str:
    label = short_name(c.key.benchmark)
    params = params_label(dict(c.key.params))
    if params:
        label += f" ({params})"
    if c.key.metric != PRIMARY:
        label += f" {c.key.metric}"
    return label


def collect_warnings(
    run: RunFolder, doc: CompareDocument, unmatched: list[str], view: RoundsView | None = None
) -> list[WarningGroup]:
    """Comparison warnings grouped by what they are about, then run-level warnings. A note
    its entry's primary metric already carries is not said again for the bytes/op beside it,
    and two groups of fork means are said as what the rounds show (:func:`bimodal_note`)."""
    groups: dict[str, WarningGroup] = {}
    said: dict[BenchKey, set[str]] = {}
    warm = warm_facts(run)
    # an entry's primary metric first, so what it says is not said again for its bytes/op
    for c in sorted(doc.comparisons, key=lambda c: (sort_key(c)[:3], c.key.metric != PRIMARY)):
        if is_gc_cost(c.key.metric):  # shown in the tables where they changed, never warned of
            continue
        k = view.keys.get(c.key) if view is not None else None
        items = [
            warm_note(bimodal_note(w, c, k), warm.get(c.key.entry()))
            for w in c.warnings
            if not w.startswith(EXACT_NOTE)
        ]
        entry = c.key.entry()
        items = [w for w in items if w not in said.get(entry, set())]
        said.setdefault(entry, set()).update(items)
        inconclusive = c.verdict is Verdict.INCONCLUSIVE and c.key.metric == PRIMARY
        if inconclusive and not any(w.startswith("inconclusive") for w in items):
            items.append(_inconclusive_text(c))
        if items:
            label = comparison_label(c)
            group = groups.setdefault(label, WarningGroup(label, []))
            group.items += [w for w in items if w not in group.items]
    out = list(groups.values())
    run_level = list(doc.notes)
    run_level += environment.run_warnings(run)
    if unmatched:
        run_level.append("Not compared, present on one side only: " + "; ".join(unmatched) + ".")
    if run_level:
        out.append(WarningGroup("", list(dict.fromkeys(run_level))))
    return out


def _inconclusive_text(c: Comparison) -> str:
    """An undecided row's note when its comparison carries none: the changes its design would
    see (both ends, on the ratio's scale) and the forks ±θ needs while that is within reach."""
    text = "inconclusive"
    if c.mde_pct is not None and math.isfinite(c.mde_pct):
        text += f": this design would see a change outside {detectable_interval(c.mde_pct)}"
    if c.forks_needed and c.forks_needed <= REACHABLE_FORKS:
        text += f"; about {c.forks_needed} forks per side would resolve the threshold"
    return text


def unmatched_lines(doc: CompareDocument) -> list[str]:
    out = []
    for u in doc.unmatched:
        label = u.key.benchmark
        params = params_label(dict(u.key.params))
        where = f" ({params})" if params else ""
        out.append(f"{label}{where}" + (f" ({u.side} only)" if u.side else ""))
    return out


# ---------------------------------------------------------------------------- context


def build_context(run: RunFolder) -> ReportContext:
    """The full report context for one loaded run folder."""
    doc = run.document
    machines = doc.machines()
    tables = build_tables(
        doc.comparisons, (lambda k: machines.get(k, "")) if machines else None, doc.confidence
    )
    unmatched = unmatched_lines(doc)
    steps, note = reproduce.steps(run)
    view = rounds_view(run, 1.0 - doc.confidence, doc.threshold)
    ended = run.manifest.stopping.ended if run.manifest.stopping is not None else None
    rounds_text = ""
    if view is not None:
        rounds_text = drift_sentence(view) or no_drift_sentence(view, doc.threshold)
    return ReportContext(
        title=environment.title(run),
        summary=summary_line(tables, doc.confidence, doc.threshold, doc.family),
        digest=digest_lines(tables, doc.threshold, view, ended),
        rounds=view,
        rounds_text=rounds_text,
        jmh_recomputed=any(c.jmh is not None and c.jmh.recomputed for c in doc.comparisons),
        tables=tables,
        methodology=environment.methodology(run),
        method=method_sentences(doc) + fallback_sentence(doc.comparisons),
        reproduce=steps,
        reproduce_note=note,
        warnings=collect_warnings(run, doc, unmatched, view),
        raw=raw_tables(run),
        document=doc,
        unmatched=unmatched,
        jmh_view=jmh_view(tables),
    )


def rounds_table(ctx: ReportContext) -> list[list[str]]:
    """The per-round table's rows in the results' order (none for a run of one round)."""
    if ctx.rounds is None:
        return []
    return rounds_rows(ctx.rounds, [r.comparison.key for t in ctx.tables for r in t.rows])


def jmh_view(tables: list[Table]) -> list[JmhRow]:
    """JMH's score ± 99.9% error (iterations pooled) per side, as JMH would print it."""
    out = []
    for table in tables:
        for row in table.rows:
            j = row.comparison.jmh
            if j is None or j.base_score is None or j.head_score is None:
                continue
            label = short_name(table.benchmark)
            if row.params:
                label += f" ({params_label(row.params)})"
            overlap = MISSING if j.overlap is None else ("yes" if j.overlap else "no")
            out.append(
                JmhRow(
                    label,
                    _jmh_value(j.base_score, j.base_error, row.scale),
                    _jmh_value(j.head_score, j.head_error, row.scale),
                    overlap,
                )
            )
    return out


def _jmh_value(score: float, error: float | None, scale: Scale) -> str:
    score = float(score)
    if error is None or not math.isfinite(float(error)):
        return value_spread(score, None, scale)
    err = float(error)  # JMH's own symmetric error, written as JMH prints it
    return value_spread(score, (score - err, score + err), scale, ends=False)
