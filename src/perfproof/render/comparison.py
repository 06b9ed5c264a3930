"""Turn a ``CompareResult`` into a terminal table (rich) or a Markdown table.

Both renderers share one set of cell texts (``rows``) so the terminal and Markdown always
say the same thing; a new format only has to lay those cells out. Long warnings would make
a table unreadable, so rows carry short tags and numbered footnotes, and the sentences are
listed under the table.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from rich.console import Console, Group
from rich.table import Table
from rich.text import Text

from perfproof.compare import CompareResult
from perfproof.compare.notes import explained
from perfproof.model import ALLOC_NORM, PRIMARY, Comparison, Side, Verdict
from perfproof.model.metrics import COST_NAMES, is_gc_cost
from perfproof.model.reach import unreached_note
from perfproof.render import costs, family_words, geomean, levels, results
from perfproof.render.effect import delta_text
from perfproof.render.markdown import markdown_table, md_text
from perfproof.stats import methods
from perfproof.stats.strategies import BYTES_TOLERANCE_ABS
from perfproof.units import (
    MISSING,
    choose_scale,
    cut_at_zero,
    detectable_interval,
    needs_ends,
    percent,
    quantity,
    value_spread,
)
from perfproof.units import relative_spread as spread

VERDICT_STYLE = {
    Verdict.IMPROVED: "bold green",
    Verdict.REGRESSED: "bold red",
    Verdict.SAME: "cyan",
    Verdict.NEGLIGIBLE: "blue",
    Verdict.INCONCLUSIVE: "yellow",
}

HEADERS = ("benchmark", "params", "metric", "base ± ci", "head ± ci", "Δ% [ci]", "verdict", "notes")


@dataclass(frozen=True)
class Row:
    benchmark: str
    params: str
    metric: str
    base: str
    head: str
    delta: str
    verdict: Verdict
    notes: str
    reach: str = ""
    """Beside the verdict: the change may not run in the benchmark (results.Row.reach)."""

    def cells(self) -> tuple[str, ...]:
        return (
            self.benchmark,
            self.params,
            self.metric,
            self.base,
            self.head,
            self.delta,
            results.verdict_with_reach(str(self.verdict), self.reach),
            self.notes,
        )


def _metric_label(c: Comparison) -> str:
    if c.key.metric == PRIMARY:
        return f"{c.key.mode} {c.unit}"
    if c.key.metric == ALLOC_NORM:
        return f"alloc {c.unit}"
    if c.key.metric in COST_NAMES:
        return COST_NAMES[c.key.metric]
    return f"{c.key.metric} {c.unit}"


def _side(c: Comparison, which: str) -> str:
    e = c.base if which == "base" else c.head
    if methods.of(c.method).plain:
        return f"{e.value:,.1f}"
    ends = needs_ends(c.base.value, c.base.ci) or needs_ends(c.head.value, c.head.ci)
    return value_spread(e.value, e.ci, choose_scale(c.unit, c.base.value), ends)


def _delta(c: Comparison) -> str:
    if methods.of(c.method).plain:
        diff = c.head.value - c.base.value
        text = f"{diff:+,.1f} B"
        if c.base.value > BYTES_TOLERANCE_ABS and math.isfinite(c.delta_pct):
            text += f" ({percent(c.delta_pct)})"
        return text
    return delta_text(c)


def _tags(c: Comparison) -> list[str]:
    d = c.diagnostics
    tags = []
    forks = d.forks or {}
    tag = methods.of(c.method).tag(min(forks.get(Side.BASE, 0), forks.get(Side.HEAD, 0)))
    if tag is not None:
        tags.append(tag)
    if any(cut_at_zero(e.value, e.ci, c.unit) for e in (c.base, c.head)):
        tags.append("interval cut at 0")
    if d.unsettled:
        tags.append("warm-up")
    if d.trending:
        tags.append("trend")
    for info in (d.bimodal or {}).values():
        tags.append("bimodal " + info.level)
    if d.fork_groups is not None:
        fast_base, fast_head = d.fork_groups.fast(c.direction)
        held = ", held" if d.fork_groups.held else ""
        held += ", split by the change" if explained(d.fork_groups) else ""
        tags.append(f"two groups: fast {fast_base} base / {fast_head} head{held}")
    if c.verdict is Verdict.INCONCLUSIVE and c.mde_pct is not None:
        tags.append(f"mde {detectable_interval(c.mde_pct)}")
    return list(dict.fromkeys(tags))


def common_prefix(result: CompareResult) -> str:
    """The dotted package/class prefix every compared benchmark shares (``fx.Codes.``)."""
    names = [c.key.benchmark.split(".") for c in result.comparisons]
    if not names:
        return ""
    shared: list[str] = []
    for parts in zip(*(n[:-1] for n in names), strict=False):
        if len(set(parts)) != 1:
            break
        shared.append(parts[0])
    return ".".join(shared) + "." if shared else ""


def in_order(result: CompareResult) -> list[Comparison]:
    """Entries in natural order (``size=2`` before ``size=10``), metrics in the order asked;
    off-heap bytes where nothing is allocated and GC costs that did not change left out."""
    indexed = [(i, c) for i, c in enumerate(result.comparisons) if costs.worth_showing(c)]
    indexed.sort(key=lambda ic: (results.sort_key(ic[1])[:3], ic[0]))
    return [c for _, c in indexed]


def rows(result: CompareResult) -> tuple[list[Row], list[str]]:
    """One row per comparison, and the numbered warning sentences the rows refer to.

    A sentence shared by several rows (e.g. "too few forks") is listed once.
    """
    out: list[Row] = []
    footnotes: list[str] = []
    prefix = common_prefix(result)
    # reach is a benchmark's (kept on its primary comparison): every metric of it says it
    reach = {c.key.benchmark: unreached_note(c.extra) for c in result.comparisons
             if c.key.metric == PRIMARY}  # fmt: skip
    for c in in_order(result):
        refs = []
        for w in c.warnings:
            if w not in footnotes:
                footnotes.append(w)
            refs.append(f"[{footnotes.index(w) + 1}]")
        params = ", ".join(f"{k}={v}" for k, v in c.key.params)
        out.append(
            Row(
                benchmark=c.key.benchmark[len(prefix) :],
                params=params,
                metric=_metric_label(c),
                base=_side(c, "base"),
                head=_side(c, "head"),
                delta=_delta(c),
                verdict=c.verdict,
                notes=" ".join(_tags(c) + refs),
                reach=reach.get(c.key.benchmark, ""),
            )
        )
    return out, footnotes


def method_line(result: CompareResult) -> str:
    """The method in two sentences; the counts are those of the tables above it."""
    opt = result.options
    words = " and ".join(m.words() for m in methods.described(c.method for c in result.comparisons))
    return (
        f"Ratio head/base by {words} (the fork is the unit); each verdict is "
        f"read off the interval shown; practical threshold {opt.threshold * 100:g}%; bytes/op "
        "compared exactly (within 0.5 B or 0.1%) when it barely varies. Multiplicity: "
        + family_words.family_sentence(result.comparisons, opt.family, opt.alpha)
    )


def jmh_rows(result: CompareResult) -> list[tuple[str, str, str, str]]:
    """JMH's own score ± scoreError per side, and whether the 99.9% intervals overlap; none
    for what JMH printed no score of (GC costs per operation)."""
    out = []
    for c in in_order(result):
        if c.jmh is None:
            continue
        j = c.jmh
        overlap = j.overlap
        out.append(
            (
                c.key.label(),
                _jmh(j.base_score, j.base_error, c.unit),
                _jmh(j.head_score, j.head_error, c.unit),
                MISSING if overlap is None else ("yes" if overlap else "no"),
            )
        )
    return out


def _jmh(score: object, error: object, unit: str) -> str:
    if not isinstance(score, float | int):
        return MISSING
    err = error if isinstance(error, float | int) else None
    ci = (score - err, score + err) if err is not None else None
    return f"{quantity(score, unit)} {spread(score, ci)}"


JMH_TITLE = "JMH's own score ± scoreError (99.9%, iterations pooled across forks)"
JMH_HEADERS = ("result", "base (JMH)", "head (JMH)", "overlap")


def unmatched_lines(result: CompareResult) -> list[str]:
    return [f"{u.key.label()} ({u.side}): {u.reason}" for u in result.unmatched]


MAX_NOTES = 10


def note_lines(result: CompareResult) -> list[str]:
    """What the reader worked around (NaN values dropped, no rawData), each once, capped."""
    notes = list(dict.fromkeys(result.notes))
    if len(notes) > MAX_NOTES:
        notes = [*notes[:MAX_NOTES], f"... and {len(notes) - MAX_NOTES} more (see --format json)"]
    return notes


# ---------------------------------------------------------------------------- terminal


def table(result: CompareResult) -> Group:
    """A rich renderable: the comparison table, footnotes, JMH's numbers, unmatched keys."""
    body, footnotes = rows(result)
    prefix = common_prefix(result)
    title = "perfproof compare" + (f" ({prefix}*)" if prefix else "")
    main = Table(title=title, title_justify="left", show_lines=False)
    level = levels.level_label(result.comparisons, result.options.confidence)
    for header in HEADERS:
        header = header.replace("[ci]", f"[{level}]")
        main.add_column(Text(header), overflow="fold", justify="right" if "±" in header else "left")
    for row in body:
        cells = [Text(cell) for cell in row.cells()]
        cells[6].stylize(VERDICT_STYLE[row.verdict])
        main.add_row(*cells)
    parts: list[Table | Text] = [main]
    means = geomean.geomean_rows(result.comparisons)
    if means:
        geo = Table(title="Geometric mean over keys", title_justify="left")
        for header in geomean.GEOMEAN_HEADER:
            geo.add_column(header, justify="left" if header == "Geometric mean" else "right")
        for texts in means:
            geo.add_row(*(Text(t) for t in texts))
        parts.append(geo)
    parts.append(Text(method_line(result), style="dim"))
    if footnotes:
        parts.append(Text("\n".join(f"[{i}] {w}" for i, w in enumerate(footnotes, 1))))
    jmh = Table(title=JMH_TITLE, title_justify="left")
    for header in JMH_HEADERS:
        jmh.add_column(header, overflow="fold")
    for r in jmh_rows(result):
        jmh.add_row(*(Text(cell) for cell in r))
    if result.comparisons:
        parts.append(jmh)
    if result.unmatched:
        parts.append(Text("Unmatched (not compared):\n" + "\n".join(unmatched_lines(result))))
    if result.notes:
        parts.append(Text("Input notes:\n" + "\n".join(note_lines(result)), style="dim"))
    return Group(*parts)


def print_table(result: CompareResult, console: Console | None = None) -> None:
    """Print to the terminal; when piped, use a wide page rather than rich's 80 columns."""
    if console is None:
        console = Console()
        if not console.is_terminal:
            console = Console(width=160)
    console.print(table(result))


# ---------------------------------------------------------------------------- markdown


def markdown(result: CompareResult) -> str:
    """GitHub Markdown for a PR body or a CI summary: the same summary line and results tables
    as a run's report.md (:mod:`perfproof.render.results`), then the metrics those tables do
    not hold, the method, warnings per key, JMH's own numbers, unmatched keys and input notes.
    """
    opt = result.options
    tables = results.build_tables(result.comparisons, confidence=opt.confidence)
    summary = results.summary_line(tables, opt.confidence, opt.threshold, opt.family)
    lines = [results.results_markdown(summary, tables, opt.confidence).rstrip("\n")]
    shown = {id(r.comparison) for t in tables for r in t.rows}
    shown |= {id(c) for c in results.shown_comparisons(tables)}
    others = [
        c for c in result.comparisons if id(c) not in shown and c.key.metric not in costs.COLUMNS
    ]
    if others:
        rest = CompareResult(others, [], opt)
        body, _ = rows(rest)
        lines += [
            "",
            "**Other metrics**",
            "",
            *markdown_table(HEADERS[:-1], [r.cells()[:-1] for r in body]),
        ]
    lines += ["", method_line(result)]
    warned = [
        (c, w) for c in result.comparisons if not is_gc_cost(c.key.metric) for w in c.warnings
    ]
    if warned:
        lines += ["", "**Warnings**", ""]
        by_key: dict[str, list[str]] = {}
        for c, w in warned:
            by_key.setdefault(c.key.label(), [])
            if w not in by_key[c.key.label()]:
                by_key[c.key.label()].append(w)
        for label, items in by_key.items():
            lines.append(f"- **{md_text(label)}**")
            lines += [f"  - {md_text(w)}" for w in items]
    if result.comparisons:
        lines += ["", f"**{JMH_TITLE}**", "", *markdown_table(JMH_HEADERS, jmh_rows(result))]
    if result.unmatched:
        lines += ["", "**Unmatched (not compared)**", ""]
        lines += [f"- {md_text(u)}" for u in unmatched_lines(result)]
    if result.notes:
        lines += ["", "**Input notes**", ""]
        lines += [f"- {md_text(n)}" for n in note_lines(result)]
    return "\n".join(lines) + "\n"
