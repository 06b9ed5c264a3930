"""``report.html`` of a prove bundle: the PR body as one self-contained page, with the A/B
run's plots (forest plot of ratios, bytes/op bars, per-fork strips) drawn from that run's report
context by the functions its own report.html uses, handed in as SVG with their styles.

The Markdown is rendered by markdown-it-py (CommonMark with GFM tables), and a caution block
(a test the change broke) is shown in red, as GitHub shows it.
"""

from __future__ import annotations

import html
from collections.abc import Sequence

from markdown_it import MarkdownIt

_STYLE = """
body { font: 15px/1.5 system-ui, sans-serif; max-width: 1100px; margin: 2em auto; padding: 0 1em; }
table { border-collapse: collapse; margin: .5em 0; }
th, td { border: 1px solid #ccc; padding: .25em .6em; }
td { text-align: right; } td:first-child { text-align: left; }
code { background: #f4f4f4; padding: 0 .2em; }
pre { background: #f4f4f4; padding: .6em; overflow-x: auto; }
blockquote.caution { border-left: 6px solid #d1242f; background: #ffebe9; color: #82071e;
  margin: 1em 0; padding: .4em 1em; }
figure { margin: 1em 0; } svg { max-width: 100%; height: auto; }
"""


def render_html(markdown: str, plots: Sequence[str] = (), plot_css: str = "") -> str:
    """The page of ``markdown``, the A/B's ``plots`` (inline SVG) before its Allocation
    section, ``plot_css`` the styles they share."""
    md = MarkdownIt("commonmark", {"html": False}).enable("table")
    body = md.render(markdown)
    body = body.replace(
        "<blockquote>\n<p>[!CAUTION]", '<blockquote class="caution">\n<p><strong>Caution</strong>'
    )
    if plots:
        figures = "".join(f"<figure>{svg}</figure>" for svg in plots)
        marker = "<h3>Allocation</h3>"
        section = f"<h4>Plots of the A/B run</h4>{figures}"
        body = body.replace(marker, section + marker, 1) if marker in body else body + section
    title = html.escape(markdown.splitlines()[0].lstrip("# ") if markdown else "perfproof prove")
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f"<title>{title}</title><style>{_STYLE}{plot_css}</style></head>\n<body>\n{body}</body></html>\n"
    )
