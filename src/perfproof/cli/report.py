"""``perfproof report``: render a run folder as Markdown, HTML or JSON."""

from __future__ import annotations

from pathlib import Path

import click

from perfproof.cli import SHORT_HELP
from perfproof.cli.options import OUT_FILE_PATH, format_option
from perfproof.errors import InputError
from perfproof.model.enums import Format
from perfproof.report.markdown import DEFAULT_MAX_CHARS

EPILOG = """Examples:

\b
  perfproof report .perfproof/runs/20261122-101500-3f9a
  perfproof report RUN --format html --out report.html
  perfproof report RUN --format json | jq '.results[].rows[].verdict'
  perfproof report RUN --summary >> "$GITHUB_STEP_SUMMARY"
  perfproof report RUN --max-chars 65536 --out comment.md
  perfproof report BUNDLE                 # a prove bundle: its PR body, rendered again

Without --out the report goes to stdout; --out never replaces a file the report reads
(results.json, manifest.json, the raw JMH files, the logs). Exit codes: 0 done; 2 the folder
is not a run (no results.json and no raw JMH files), a file in it is unreadable, or --out
names one of its inputs.
"""


@click.command("report", epilog=EPILOG, short_help=SHORT_HELP["report"])
@click.argument("run_dir", metavar="RUN_DIR", type=click.Path(path_type=Path))
@format_option((Format.MD, Format.HTML, Format.JSON), default=Format.MD)
@click.option(
    "--out",
    type=OUT_FILE_PATH,
    help="Write the report to FILE (atomically; '-' for stdout) instead of stdout.",
)
@click.option(
    "--max-chars",
    type=click.IntRange(min=0),
    default=DEFAULT_MAX_CHARS,
    show_default=True,
    help="With --format md: fit the page to N characters (a GitHub comment holds 65,536) by "
    "leaving JMH's raw tables, then the warnings' text, to the run folder; 0: no limit.",
)
@click.option(
    "--summary",
    is_flag=True,
    help="With --format md: the short form for a CI job summary ($GITHUB_STEP_SUMMARY): the "
    "summary line, every regressed key by metric (time or bytes/op; after 25, how many more), "
    "and one line per improved key.",
)
@click.pass_context
def command(
    ctx: click.Context, run_dir: Path, fmt: Format, out: Path | None, max_chars: int, summary: bool
) -> None:
    """Render the report of RUN_DIR: summary, results per @Param, methodology, reproduction
    commands, warnings and JMH's raw tables (HTML adds inline plots and results tables that
    sort and filter in the browser, offline; JSON is perfproof.report/1)."""
    from perfproof.report import input_files, render, render_pr_markdown
    from perfproof.report.bundle import is_bundle
    from perfproof.storage import write_text_atomic

    if summary and fmt is not Format.MD:
        raise InputError(f"--summary: a Markdown form; drop --format {fmt}")
    if (
        fmt is not Format.MD
        and ctx.get_parameter_source("max_chars") is click.core.ParameterSource.COMMANDLINE
    ):
        raise InputError(f"--max-chars: fits the Markdown page only; drop it with --format {fmt}")
    if out is not None and out.resolve() in {p.resolve() for p in input_files(run_dir)}:
        raise InputError(f"--out {out}: is an input of this report; write the report elsewhere")
    if is_bundle(run_dir):
        text = _bundle_page(ctx, run_dir, fmt, summary)
    elif fmt is Format.MD:
        text = render_pr_markdown(run_dir, max_chars or None, summary)
    else:
        text = render(run_dir, fmt)
    if out is None:
        click.echo(text, nl=False)
    else:
        write_text_atomic(out, text)
        click.echo(f"wrote {out}", err=True)


def _bundle_page(ctx: click.Context, bundle_dir: Path, fmt: Format, summary: bool) -> str:
    """A prove bundle's PR body or page, as ``prove`` wrote them; the forms of a run folder
    alone (its JSON, the CI summary, a fitted page) are its A/B run's, named in the refusal."""
    from perfproof.report.bundle import bundle_html, bundle_markdown, read_bundle

    ab = bundle_dir / "ab"
    fitted = ctx.get_parameter_source("max_chars") is click.core.ParameterSource.COMMANDLINE
    for wanted, given in (("--format json", fmt is Format.JSON), ("--summary", summary),
                          ("--max-chars N", fitted)):  # fmt: skip
        if given:
            raise InputError(
                f"{bundle_dir}: a prove bundle, whose report is its PR body; "
                f"{wanted.split()[0]} is a form of a run folder's report: "
                f"perfproof report {ab} {wanted}"
            )
    bundle = read_bundle(bundle_dir)
    return bundle_html(bundle) if fmt is Format.HTML else bundle_markdown(bundle)
