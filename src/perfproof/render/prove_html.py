"""``report.html`` of a prove bundle: the PR body as one self-contained page, with the A/B
run's plots (forest plot of ratios, per-fork strips) taken from that run's own report.

The Markdown is rendered by markdown-it-py (CommonMark with GFM tables), and a caution block
(a test the change broke) is shown in red, as GitHub shows it.
"""

from __future__ import annotations

import html
import re
from pathlib import Path

from markdown_it import MarkdownIt

from perfproof.model.documents.prove import BundleView as Bundle
from perfproof.model.documents.prove_measured import AbStageResult

_SVG = re.compile(r"<svg\b.*?</svg>", re.S)
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


def _plots(bundle: Bundle) -> list[str]:
    ab = bundle.read("ab", AbStageResult.from_json)
    if ab is None or not ab.run_dir:
        return []  # no A/B ran: --reach profile left every benchmark out
    page = Path(ab.run_dir) / "report.html"
    try:
        text = page.read_text(encoding="utf-8")
    except OSError:
        return []
    return _SVG.findall(text)


def render_html(bundle: Bundle, markdown: str) -> str:
    md = MarkdownIt("commonmark", {"html": False}).enable("table")
    body = md.render(markdown)
    body = body.replace(
        "<blockquote>\n<p>[!CAUTION]", '<blockquote class="caution">\n<p><strong>Caution</strong>'
    )
    plots = _plots(bundle)
    if plots:
        figures = "".join(f"<figure>{svg}</figure>" for svg in plots)
        marker = "<h3>Allocation</h3>"
        section = f"<h4>Plots of the A/B run</h4>{figures}"
        body = body.replace(marker, section + marker, 1) if marker in body else body + section
    title = html.escape(markdown.splitlines()[0].lstrip("# ") if markdown else "perfproof prove")
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f"<title>{title}</title><style>{_STYLE}</style></head>\n<body>\n{body}</body></html>\n"
    )
