"""The report stage of ``perfproof prove``: the PR body and its page, rendered from the stages'
typed results and the A/B run's report context, written into the bundle.

The renderers (:mod:`perfproof.render.prove`, :mod:`perfproof.render.prove_html`) return text;
this module is where the files are written.
"""

from __future__ import annotations

import sys
from collections.abc import Callable

from perfproof.errors import PerfproofError
from perfproof.model.documents.prove import ProveResults
from perfproof.model.documents.prove_measured import ReportResult
from perfproof.render.prove import render_markdown, summary_line
from perfproof.report import EmbeddedRun
from perfproof.report.bundle import bundle_page
from perfproof.storage import skipped_output, write_text_atomic


def write_bundle_reports(
    bundle: ProveResults,
    ab: EmbeddedRun | None,
    say: Callable[[str], None] | None = None,
    keep: Callable[[str], object] | None = None,
) -> ReportResult:
    """Write report.md and report.html into the bundle; their paths (and the summary line
    they open with) are the stage result. The page is the Markdown dressed up: when it fails to
    render (a bug) the PR body still stands, so the page is skipped with one line (``say``,
    stderr by default), its path left empty, and ``prove --resume`` renders it again. ``keep``
    gets the PR body as rendered, for a command that prints it."""
    section = ab.section() if ab is not None else None
    md = render_markdown(bundle, section)
    if keep is not None:
        keep(md)
    md_path = write_text_atomic(bundle.path / "report.md", md)
    html_path = ""
    try:
        page = bundle_page(md, ab)
        html_path = str(write_text_atomic(bundle.path / "report.html", page))
    except PerfproofError:
        raise
    except Exception as exc:
        retry = f"perfproof prove --resume {bundle.path}"
        line = skipped_output(bundle.path, "report.html", exc, retry)
        (say or _to_stderr)(line)
    summary = summary_line(bundle, section.summary if section else None)
    return ReportResult(markdown=str(md_path), html=html_path, summary=summary)


def _to_stderr(line: str) -> None:
    print(line, file=sys.stderr, flush=True)
