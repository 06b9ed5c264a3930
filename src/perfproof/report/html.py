"""The report as one self-contained HTML file: the Markdown's sections plus inline SVG plots.

Everything the page needs is inside it (styles, figures as SVG elements, one small script that
sorts and filters the results tables; no fonts, images or scripts from elsewhere), so it can be
attached to a ticket or opened offline and still look the same. Without scripts the tables
simply stay as rendered. The figures' styles are declared once for the page, not repeated in
every element, so a report of 50 keys stays well under a megabyte.
"""

from __future__ import annotations

import jinja2

from perfproof.render import costs
from perfproof.render.levels import levels_sentence
from perfproof.render.results import MODE_NAMES, Row, interval_label
from perfproof.report import figures
from perfproof.report.context import ReportContext, rounds_table
from perfproof.report.rounds import ROUNDS_NOTE, rounds_header
from perfproof.report.rundir import RunFolder

_ENV = jinja2.Environment(
    loader=jinja2.PackageLoader("perfproof.report", "templates"),
    autoescape=jinja2.select_autoescape(("html", "j2")),
    trim_blocks=True,
    lstrip_blocks=True,
    undefined=jinja2.StrictUndefined,
)


def sort_values(row: Row) -> dict[str, str]:
    """The numbers the page's script sorts each column by (the cells show scaled text, whose
    units differ between rows): canonical values for the sides, Δ% for the changes."""

    def num(x: float | None) -> str:
        return "" if x is None else repr(float(x))

    c, a = row.comparison, row.alloc
    return {
        "baseline": num(c.base.value),
        "feature": num(c.head.value),
        "delta": num(c.delta_pct),
        "bytes": num(a.delta_pct if a is not None else None),
    }


def cost_value(row: Row, metric: str) -> str:
    """A cost column's sort value: its Δ% (empty where the row has none)."""
    c = row.costs.get(metric)
    return "" if c is None else repr(float(c.delta_pct))


def row_tags(row: Row) -> str:
    """What the verdict filter matches: the row's verdict and its bytes/op verdict."""
    tags = [row.verdict]
    if row.reach:
        tags.append(row.reach.replace(" ", "-"))
    if row.alloc is not None:
        tags.append(f"bytes-{row.alloc.verdict}")
    return " ".join(tags)


def render_html(run: RunFolder, ctx: ReportContext) -> str:
    conf = ctx.document.confidence
    drawn = figures.page_figures(run, ctx)
    template = _ENV.get_template("report.html.j2")
    return template.render(
        ctx=ctx,
        summary=ctx.summary,
        conf=interval_label(ctx.tables, conf),
        digest=[line.removeprefix("- ").replace("`", "") for line in ctx.digest],
        rounds_header=rounds_header(ctx.rounds) if ctx.rounds else [],
        rounds_rows=rounds_table(ctx),
        rounds_note=ROUNDS_NOTE,
        levels=levels_sentence([r.comparison for t in ctx.tables for r in t.rows]).rstrip("."),
        modes=MODE_NAMES,
        forest=drawn.forest,
        bytes_fig=drawn.bytes,
        forks=drawn.forks,
        plot_css=drawn.css,
        sort_values=sort_values,
        row_tags=row_tags,
        cost_header=costs.header,
        cost_cell=costs.cell,
        cost_value=cost_value,
    )
