"""The report as a pull-request body (GitHub-flavoured Markdown).

Sections follow the order of a good JVM performance PR: summary, results, methodology,
reproduction, warnings, raw JMH output. Verdicts are words, not colours, so the body reads
the same in a terminal, an e-mail or a review tool.
"""

from __future__ import annotations

from perfproof.render.markdown import markdown_table, md_text
from perfproof.render.results import results_markdown
from perfproof.report.context import ReportContext


def results_section(ctx: ReportContext) -> str:
    """The summary line and the results tables: what ``ab --format md`` prints."""
    return results_markdown(ctx.summary, ctx.tables, ctx.options.get("confidence"))


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


def render_markdown(ctx: ReportContext) -> str:
    out: list[str] = [f"## {ctx.title}", "", results_section(ctx).rstrip("\n"), ""]
    out += ["### Methodology", "", *methodology_lines(ctx), ""]
    out += ["### Reproduce", "", *reproduce_lines(ctx)]
    out += ["### Warnings", ""]
    for group in ctx.warnings:
        if group.about:
            out.append(f"- **{md_text(group.about)}**")
            out += [f"  - {md_text(w)}" for w in group.items]
        else:
            out += [f"- {md_text(w)}" for w in group.items]
    if not ctx.warnings:
        out.append("None.")
    out += ["", "### Raw JMH results", ""]
    out += [
        "<details>",
        "<summary>JMH's own tables per side and round (score ± JMH's 99.9% error, "
        "iterations pooled)</summary>",
        "",
    ]
    if ctx.jmh_view:
        out += [
            "JMH's view: score ± JMH's 99.9% error per side, and whether those intervals overlap.",
            "",
            *markdown_table(
                ("Benchmark", "Baseline (JMH)", "Feature (JMH)", "JMH intervals overlap"),
                [(r.label, r.baseline, r.feature, r.overlap) for r in ctx.jmh_view],
                ("l", "r", "r", "l"),
            ),
        ]
        out.append("")
    for caption, text in ctx.raw:
        out += [f"**{caption}**", "", "```text", text, "```", ""]
    if not ctx.raw:
        out += ["No raw JMH files in this run folder.", ""]
    out += ["</details>", ""]
    return "\n".join(out)
