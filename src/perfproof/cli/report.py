"""``perfproof report``: render a run folder as Markdown, HTML or JSON."""

from __future__ import annotations

from pathlib import Path

import click

from perfproof.cli.options import format_option
from perfproof.errors import InputError

EPILOG = """Examples:

\b
  perfproof report .perfproof/runs/20261122-101500-3f9a
  perfproof report RUN --format html --out report.html
  perfproof report RUN --format json | jq '.results[].rows[].verdict'

Without --out the report goes to stdout; --out never replaces a file the report reads
(results.json, manifest.json, the raw JMH files, the logs). Exit codes: 0 done; 2 the folder
is not a run (no results.json and no raw JMH files), a file in it is unreadable, or --out
names one of its inputs.
"""


@click.command(
    "report", epilog=EPILOG, short_help="Render a run's results as Markdown, HTML or JSON."
)
@click.argument("run_dir", metavar="RUN_DIR", type=click.Path(path_type=Path))
@format_option(("md", "html", "json"), default="md")
@click.option(
    "--out",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Write the report to FILE (atomically) instead of stdout.",
)
def command(run_dir: Path, fmt: str, out: Path | None) -> None:
    """Render the report of RUN_DIR: summary, results per @Param, methodology, reproduction
    commands, warnings and JMH's raw tables (HTML adds inline plots; JSON is
    perfproof.report/1)."""
    from perfproof.report import input_files, render
    from perfproof.storage import write_text_atomic

    if out is not None and out.resolve() in {p.resolve() for p in input_files(run_dir)}:
        raise InputError(f"--out {out}: is an input of this report; write the report elsewhere")
    text = render(run_dir, fmt)
    if out is None:
        click.echo(text, nl=False)
    else:
        write_text_atomic(out, text)
        click.echo(f"wrote {out}", err=True)
