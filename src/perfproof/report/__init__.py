"""Reports of a run folder: Markdown for the pull request, self-contained HTML, JSON; check.

``write_reports(run_dir)`` is what the A/B runner calls when a run finishes;
``render(run_dir, fmt)`` backs ``perfproof report``.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from perfproof.errors import PerfproofError
from perfproof.model.enums import Format
from perfproof.storage import skipped_output, write_text_atomic

if TYPE_CHECKING:
    from perfproof.render.prove import AbSection
    from perfproof.report.context import ReportContext
    from perfproof.report.figures import PageFigures
    from perfproof.report.rundir import RunFolder

FORMATS = (Format.MD, Format.HTML, Format.JSON)
FILE_NAMES = {Format.MD: "report.md", Format.HTML: "report.html", Format.JSON: "report.json"}


def _render(run: RunFolder, ctx: ReportContext, fmt: Format) -> str:
    match Format(fmt):
        case Format.MD:
            from perfproof.report.markdown import render_markdown

            return render_markdown(ctx)
        case Format.HTML:
            from perfproof.report.html import render_html

            return render_html(run, ctx)
        case Format.JSON:
            from perfproof.model.documents import dumps
            from perfproof.report.jsonreport import report_document

            return dumps(report_document(run, ctx).dump())
    raise ValueError(f"no report in format {fmt!r}")


def _load(run_dir: str | Path) -> tuple[RunFolder, ReportContext]:
    from perfproof.report.context import build_context
    from perfproof.report.rundir import load_run

    run = load_run(run_dir)
    return run, build_context(run)


def render(run_dir: str | Path, fmt: Format = Format.MD) -> str:
    """The report of ``run_dir`` in one format (``md``, ``html`` or ``json``) as text.

    A value of the wrong type in a hand-edited manifest.json or results.json is bad input
    naming its field (the typed readers check every field); anything else is a bug.
    """

    run, ctx = _load(run_dir)
    return _render(run, ctx, fmt)


def render_pr_markdown(run_dir: str | Path, max_chars: int | None, summary: bool = False) -> str:
    """The Markdown report fitted to ``max_chars`` (``None``: whole), or its short form for a
    CI job summary; refused when even the summary, results and reproduction do not fit."""
    from perfproof.errors import InputError
    from perfproof.report.markdown import render_markdown, render_summary

    ctx = _load(run_dir)[1]
    text = render_summary(ctx) if summary else render_markdown(ctx, max_chars)
    if max_chars is not None and len(text) > max_chars and summary:
        raise InputError(
            f"--max-chars {max_chars}: the summary alone takes {len(text):,} characters (one "
            "line per improved or regressed key); raise --max-chars, or --max-chars 0 for no limit"
        )
    if max_chars is not None and len(text) > max_chars:
        raise InputError(
            f"--max-chars {max_chars}: the report's summary, results tables and reproduction "
            f"alone take {len(text):,} characters; raise --max-chars, or post --summary and "
            "attach report.md"
        )
    return text


def markdown_forms(run_dir: str | Path) -> list[tuple[str, str]]:
    """Every Markdown page perfproof may write for ``run_dir``, named (see
    :func:`perfproof.report.markdown.markdown_forms`)."""
    from perfproof.report.markdown import markdown_forms as forms

    return forms(_load(run_dir)[1])


def results_section(run_dir: str | Path) -> str:
    """The summary line and results tables of ``run_dir``, exactly as its report.md holds
    them (what ``perfproof ab --format md`` prints)."""
    from perfproof.report.markdown import results_section as section

    return section(_load(run_dir)[1])


@dataclass(frozen=True)
class EmbeddedRun:
    """An A/B run folder read once (its report context built once) as the prove report embeds
    it: the lines its own report.md holds, and the figures its own report.html draws."""

    run: RunFolder
    ctx: ReportContext

    def section(self) -> AbSection:
        """Its summary, results, methodology and reproduction."""
        from perfproof.render.prove import AbSection
        from perfproof.render.results import results_lines
        from perfproof.report.markdown import methodology_lines, reproduce_lines

        def lines(text: list[str]) -> tuple[str, ...]:
            return tuple("\n".join(text).strip().splitlines())

        ctx = self.ctx
        return AbSection(
            summary=ctx.summary.strip(),
            results=lines(results_lines(ctx.tables, ctx.document.confidence)),
            methodology=lines(methodology_lines(ctx)),
            reproduce=lines(reproduce_lines(ctx)),
        )

    def figures(self) -> PageFigures:
        """Its forest plot, bytes/op bars and fork figures, drawn from the context by the
        functions report.html uses (needs the ``plots`` extra)."""
        from perfproof.report.figures import page_figures

        return page_figures(self.run, self.ctx)


def embedded_run(run_dir: str | Path) -> EmbeddedRun:
    """The A/B run of ``run_dir`` as another report embeds it."""
    return EmbeddedRun(*_load(run_dir))


def ab_section(run_dir: str | Path) -> AbSection:
    """What the prove report shows of an A/B run: its summary, results, methodology and
    reproduction, from the run's report context (the lines its own report.md holds)."""
    return embedded_run(run_dir).section()


def input_files(run_dir: str | Path) -> list[Path]:
    """Every file a report of ``run_dir`` reads: an output must never replace one of them."""
    root = Path(run_dir)
    found = [root / "results.json", root / "manifest.json"]
    for sub in ("jmh", "logs"):
        if (root / sub).is_dir():
            found += [p for p in (root / sub).rglob("*") if p.is_file()]
    return found


def write_reports(
    run_dir: str | Path,
    formats: tuple[Format, ...] = (Format.MD, Format.HTML),
    say: Callable[[str], None] | None = None,
) -> list[Path]:
    """Write report.md and report.html (atomically) into the run folder; return the paths
    written.

    They are written after the measuring, whose results are already complete on disk, so a
    format that fails to render (a bug) must not take the run with it: that file is skipped
    with one line naming it (``say``, stderr by default; the traceback goes to the run's
    logs/), the others are written, and the caller goes on. ``perfproof report RUN --format
    F``, or ``--resume``, renders it again. Raises :class:`perfproof.errors.InputError` when the
    folder has no results to report. When the context every format shares fails to build,
    every report is skipped with one line naming them all.
    """
    return _write(Path(run_dir), lambda: _load(run_dir), formats, say)[0]


def write_run_reports(
    run: RunFolder,
    formats: tuple[Format, ...] = (Format.MD, Format.HTML),
    say: Callable[[str], None] | None = None,
) -> tuple[list[Path], ReportContext | None]:
    """:func:`write_reports` for a run held in memory (the run an ``ab`` just measured), and
    the context they were rendered from, for what the command prints next (None when it
    failed to build)."""
    from perfproof.report.context import build_context

    return _write(run.path, lambda: (run, build_context(run)), formats, say)


def _write(
    root: Path,
    load: Callable[[], tuple[RunFolder, ReportContext]],
    formats: tuple[Format, ...],
    say: Callable[[str], None] | None,
) -> tuple[list[Path], ReportContext | None]:
    try:
        run, ctx = load()
    except PerfproofError:
        raise
    except Exception as exc:
        names = ", ".join(FILE_NAMES[f] for f in formats)
        retry = f"perfproof report {root} --format FORMAT, or --resume"
        line = skipped_output(root, names, exc, retry, "report.error.log")
        (say or _to_stderr)(line)
        return [], None
    written = []
    for fmt in formats:
        name = FILE_NAMES[fmt]
        try:
            text = _render(run, ctx, fmt)
        except PerfproofError:
            raise
        except Exception as exc:
            retry = f"perfproof report {root} --format {fmt} --out {root / name}"
            (say or _to_stderr)(skipped_output(root, name, exc, retry))
            continue
        written.append(write_text_atomic(root / name, text))
    return written, ctx


def missing_reports(
    run_dir: str | Path, formats: tuple[Format, ...] = (Format.MD, Format.HTML)
) -> tuple[Format, ...]:
    """The formats among ``formats`` whose file the run folder lacks (one skipped earlier)."""
    return tuple(f for f in formats if not (Path(run_dir) / FILE_NAMES[f]).is_file())


def _to_stderr(line: str) -> None:
    print(line, file=sys.stderr, flush=True)
