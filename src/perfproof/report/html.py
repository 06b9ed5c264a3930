"""The report as one self-contained HTML file: the Markdown's sections plus inline SVG plots.

Everything the page needs is inside it (styles, figures as SVG elements, no scripts, fonts or
images from elsewhere), so it can be attached to a ticket or opened offline and still look
the same.
"""

from __future__ import annotations

import jinja2

from perfproof.render.results import MODE_NAMES, interval_label
from perfproof.report import figures
from perfproof.report.context import ReportContext
from perfproof.report.rundir import RunFolder

_ENV = jinja2.Environment(
    loader=jinja2.PackageLoader("perfproof.report", "templates"),
    autoescape=jinja2.select_autoescape(("html", "j2")),
    trim_blocks=True,
    lstrip_blocks=True,
    undefined=jinja2.StrictUndefined,
)


def render_html(run: RunFolder, ctx: ReportContext) -> str:
    conf = ctx.options.get("confidence")
    conf_word = f"{float(conf) * 100:g}%" if conf is not None else ""
    template = _ENV.get_template("report.html.j2")
    return template.render(
        ctx=ctx,
        summary=ctx.summary,
        conf=interval_label(ctx.tables, conf),
        conf_word=conf_word,
        modes=MODE_NAMES,
        forest=figures.forest_figure(ctx),
        bytes_fig=figures.bytes_figure(ctx),
        forks=figures.fork_figures(run, ctx),
    )
