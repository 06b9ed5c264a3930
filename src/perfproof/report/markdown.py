"""The report as a pull-request body (GitHub-flavoured Markdown).

Sections follow the order of a good JVM performance PR: summary, results, methodology,
reproduction, warnings, raw JMH output. Verdicts are words, not colours, so the body reads
the same in a terminal, an e-mail or a review tool.
"""

from __future__ import annotations

from perfproof.report.context import ReportContext, Table

CONF_FALLBACK = "CI"


def _conf_label(ctx: ReportContext) -> str:
    conf = ctx.options.get("confidence")
    return f"{float(conf) * 100:g}% CI" if conf is not None else CONF_FALLBACK


def table_lines(table: Table, conf: str) -> list[str]:
    header = [
        *table.param_names,
        "Baseline",
        "Feature",
        f"Δ% [{conf}]",
        "Verdict",
        "B/op baseline → feature (Δ%)",
    ]
    align = ["---:"] * len(table.param_names) + ["---:", "---:", "---:", ":---", "---:"]
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join(align) + "|"]
    for row in table.rows:
        cells = [row.params.get(p, "") for p in table.param_names]
        cells += [row.baseline, row.feature, row.delta, row.verdict, row.bytes]
        lines.append("| " + " | ".join(cells) + " |")
    return lines


def render_markdown(ctx: ReportContext) -> str:
    conf = _conf_label(ctx)
    out: list[str] = [f"## {ctx.title}", "", f"**Summary:** {ctx.summary}", "", "### Results", ""]
    for table in ctx.tables:
        out += [f"#### `{table.benchmark}` ({_mode(table)})", ""]
        out += table_lines(table, conf)
        out.append("")
    if not ctx.tables:
        out += ["No benchmark was measured on both sides.", ""]
    out += [
        "Baseline and feature: mean of fork means ± its "
        f"{conf.replace(' CI', '')} interval; Δ% = feature / baseline − 1 with the "
        "interval of the ratio; bytes/op from JMH's `-prof gc` (`gc.alloc.rate.norm`).",
        "",
        "### Methodology",
        "",
    ]
    out += [f"- **{label}:** {value}" for label, value in ctx.methodology]
    out += [f"- **Statistics:** {ctx.method}", "", "### Reproduce", "", ctx.reproduce_note, ""]
    for i, step in enumerate(ctx.reproduce, start=1):
        out += [f"{i}. {step.caption}:", "", "   ```sh", f"   {step.command}", "   ```", ""]
    out += ["### Warnings", ""]
    for group in ctx.warnings:
        if group.about:
            out.append(f"- **{group.about}**")
            out += [f"  - {w}" for w in group.items]
        else:
            out += [f"- {w}" for w in group.items]
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
            "| Benchmark | Baseline (JMH) | Feature (JMH) | JMH intervals overlap |",
            "|:---|---:|---:|:---|",
        ]
        out += [f"| {r.label} | {r.baseline} | {r.feature} | {r.overlap} |" for r in ctx.jmh_view]
        out.append("")
    for caption, text in ctx.raw:
        out += [f"**{caption}**", "", "```text", text, "```", ""]
    if not ctx.raw:
        out += ["No raw JMH files in this run folder.", ""]
    out += ["</details>", ""]
    return "\n".join(out)


def _mode(table: Table) -> str:
    return table.title.removeprefix(table.benchmark).strip().strip("()")
