"""The report as a pull-request body (GitHub-flavoured Markdown).

Sections follow the order of a good JVM performance PR: summary, results, methodology,
reproduction, warnings, raw JMH output. Verdicts are words, not colours, so the body reads
the same in a terminal, an e-mail or a review tool.
"""

from __future__ import annotations

from perfproof.model import Verdict
from perfproof.render import gate
from perfproof.render.markdown import markdown_table, md_text
from perfproof.render.results import FULL_LIST, results_markdown, table_failures
from perfproof.report.context import ReportContext, rounds_table
from perfproof.report.rounds import ROUNDS_NOTE, rounds_header


def results_section(ctx: ReportContext) -> str:
    """The summary line and the results tables: what ``ab --format md`` prints."""
    return results_markdown(ctx.summary, ctx.tables, ctx.document.confidence, digest=ctx.digest)


def methodology_lines(ctx: ReportContext) -> list[str]:
    """How the run measured and decided, one labelled line each."""
    out = [f"- **{label}:** {value}" for label, value in ctx.methodology]
    return [*out, f"- **Statistics:** {ctx.method}"]


def reproduce_lines(ctx: ReportContext) -> list[str]:
    """The commands that repeat the run, numbered, each followed by a blank line."""
    out = [ctx.reproduce_note, ""]
    for i, step in enumerate(ctx.reproduce, start=1):
        out += [f"{i}. {step.caption}:", "", "   ```sh", f"   {step.command}", "   ```", ""]
    return out


GITHUB_COMMENT_LIMIT = 65_536
"""GitHub refuses a comment (and a job summary) longer than this many characters."""

DEFAULT_MAX_CHARS = 60_000
"""``report --max-chars``'s default: under GitHub's limit with room for a bot's own header."""


def render_markdown(ctx: ReportContext, max_chars: int | None = None) -> str:
    """The whole report; past ``max_chars``, JMH's raw tables give way to a pointer to the
    run folder, then the warnings to their count. The summary, every results table and the
    reproduction always stay: a report that cannot fit with them is refused by the caller."""
    head = _head(ctx)
    warnings_part = _warnings(ctx)
    raw = _raw(ctx)
    full = head + warnings_part + raw
    if max_chars is None or len(full) <= max_chars:
        return full
    moved = _moved_raw(len(raw))
    if len(head + warnings_part + moved) <= max_chars:
        return head + warnings_part + moved
    return head + _warnings_counted(ctx) + moved


def markdown_forms(ctx: ReportContext) -> list[tuple[str, str]]:
    """Every Markdown page perfproof may write for one run, named: the whole report, the two
    shapes ``--max-chars`` fits it to, and the ``--summary`` form (``ab --format md`` prints a
    part of the whole report). ``check`` recomputes a written report's numbers from these."""
    head, warnings_part, raw = _head(ctx), _warnings(ctx), _raw(ctx)
    moved = _moved_raw(len(raw))
    return [
        ("report.md", head + warnings_part + raw),
        ("report fitted to --max-chars", head + warnings_part + moved),
        ("report fitted to --max-chars", head + _warnings_counted(ctx) + moved),
        ("report --summary", render_summary(ctx)),
    ]


def _moved_raw(size: int) -> str:
    return "\n".join(
        [
            "### Raw JMH results",
            "",
            f"JMH's own tables ({size:,} characters) are left out to fit this page; they are "
            "in `report.md` of the run folder (the uploaded artifact), or run "
            "`perfproof report RUN_DIR`.",
            "",
        ]
    )


def _warnings_counted(ctx: ReportContext) -> str:
    count = sum(len(g.items) for g in ctx.warnings)
    text = f"{count} warning(s), left out to fit this page: see `report.md` of the run folder."
    return "\n".join(["### Warnings", "", text if count else "None.", "", ""])


def render_summary(ctx: ReportContext) -> str:
    """A short form for a CI job summary: the title, the summary line, every key that fails
    the regression gate by metric (bytes/op alone included), then one line per improved key."""
    out = [f"### {ctx.title}", "", ctx.summary, ""]
    out += gate.markdown_lines(table_failures(ctx.tables), FULL_LIST)
    for table in ctx.tables:
        for row in table.rows:
            if row.comparison.verdict is not Verdict.IMPROVED:
                continue
            params = ", ".join(f"{k}={v}" for k, v in row.params.items())
            name = f"{table.benchmark}({params})" if params else table.benchmark
            verdict = md_text(row.verdict_text)
            out.append(f"- **{verdict}** `{name}` {table.mode}: {md_text(row.delta)}")
    out += ["", "The full report is `report.md` in the run folder.", ""]
    return "\n".join(out)


def rounds_lines(ctx: ReportContext) -> list[str]:
    """The run by round: what the rounds say about the machine, then each key's ratio in
    every round (nothing for a run of one round)."""
    view = ctx.rounds
    if view is None:
        return []
    table = markdown_table(
        rounds_header(view), rounds_table(ctx), ["l", *("r" for _ in view.rounds), "l"]
    )
    return ["### Rounds", "", ctx.rounds_text, "", ROUNDS_NOTE, "", *table, ""]


def _head(ctx: ReportContext) -> str:
    out: list[str] = [f"## {ctx.title}", "", results_section(ctx).rstrip("\n"), ""]
    out += rounds_lines(ctx)
    out += ["### Methodology", "", *methodology_lines(ctx), ""]
    out += ["### Reproduce", "", *reproduce_lines(ctx)]
    return "\n".join(out) + "\n"


def _warnings(ctx: ReportContext) -> str:
    out = ["### Warnings", ""]
    for group in ctx.warnings:
        if group.about:
            out.append(f"- **{md_text(group.about)}**")
            out += [f"  - {md_text(w)}" for w in group.items]
        else:
            out += [f"- {md_text(w)}" for w in group.items]
    if not ctx.warnings:
        out.append("None.")
    return "\n".join([*out, "", ""])


def _raw(ctx: ReportContext) -> str:
    """JMH's view beside perfproof's, collapsed; JMH's own console tables stay in the run
    folder (one log per step), where nothing recomputes them."""
    if ctx.jmh_recomputed:
        summary = (
            "JMH's way, recomputed by perfproof over all rounds (score ± 99.9% error, "
            "iterations pooled); JMH's own tables are in the run folder"
        )
        intro = (
            "Score ± 99.9% error per side as JMH computes them (every measured iteration pooled, "
            "Student's t), recomputed by perfproof over all rounds together: JMH printed one such "
            "table per side and round, never this one. Whether those intervals overlap:"
        )
        heads = ("Benchmark", "Baseline (JMH's way)", "Feature (JMH's way)", "Intervals overlap")
    else:
        summary = "JMH's own score ± error per side (99.9%, iterations pooled)"
        intro = "JMH's own score ± its 99.9% error per side, and whether those intervals overlap:"
        heads = ("Benchmark", "Baseline (JMH)", "Feature (JMH)", "JMH intervals overlap")
    out = ["### Raw JMH results", "", "<details>", f"<summary>{summary}</summary>", ""]
    if ctx.jmh_view:
        rows = [(r.label, r.baseline, r.feature, r.overlap) for r in ctx.jmh_view]
        out += [intro, "", *markdown_table(heads, rows, ("l", "r", "r", "l")), ""]
    if ctx.raw:
        files = ", ".join(f"`{caption.rsplit('(', 1)[-1].rstrip(')')}`" for caption, _ in ctx.raw)
        out += [
            f"JMH's own console tables, one per side and round, stay in the run folder: its "
            f"JSON ({files}) under `jmh/`, and each step's console log under `logs/` where "
            "the run kept them.",
            "",
        ]
    else:
        out += ["No raw JMH files in this run folder.", ""]
    out += ["</details>", ""]
    return "\n".join(out)
