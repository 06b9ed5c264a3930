"""``perfproof check``: verify the numbers a hand-written PR body quotes against a run."""

from __future__ import annotations

from pathlib import Path

import click

from perfproof.cli import SHORT_HELP
from perfproof.cli.options import emit_json, format_option
from perfproof.model.enums import Format

EPILOG = """Examples:

\b
  perfproof check PR.md .perfproof/runs/20261122-101500-3f9a
  perfproof check PR.md RUN --format json
  perfproof check RUN/report.md RUN
  perfproof check BUNDLE/report.md BUNDLE

A report perfproof wrote (report.md of `ab` or `report`, in any shape, or the PR body of
`prove`) is held to every number: the folder is rendered again with the same code and each
number must equal the one rendered for the run; a number on a line added by hand must be a
score, error or Δ% of a benchmark, or stand in a code block, a version, a date, a commit id or
a name, or it is reported as tied to nothing.

The body is read as GitHub Markdown (tables with or without a leading '|', escaped pipes,
fences of any kind, pasted JMH console tables). Numbers are tied to a benchmark by its name and
@Param values on the same table row or line (or in the heading above). Scores and errors must
round to the run's values (perfproof's or JMH's) at the precision quoted; each Δ% must equal
feature/baseline − 1 from the quoted or the measured numbers; "intervals do not overlap" must
be true.

Exit codes: 0 every number matches; 1 a mismatch (each printed with its line and the correct
value); 2 the PR file or the run folder (or prove bundle) is unreadable.
"""


@click.command("check", epilog=EPILOG, short_help=SHORT_HELP["check"])
@click.argument("pr_file", metavar="PR.md", type=click.Path(path_type=Path))
@click.argument("run_dir", metavar="RUN_DIR", type=click.Path(path_type=Path))
@format_option((Format.TABLE, Format.JSON), default=Format.TABLE)
def command(pr_file: Path, run_dir: Path, fmt: Format) -> None:
    """Check every score, error, Δ% and bytes/op that PR.md quotes against RUN_DIR, and
    every number of a report perfproof wrote for it."""
    from perfproof.audit.check import check_file, render_table
    from perfproof.errors import GateFailed

    result = check_file(pr_file, run_dir)
    if fmt is Format.JSON:
        emit_json(result.document())
    else:
        click.echo(render_table(result), nl=False)
    if not result.ok:
        n = len(result.mismatches)
        raise GateFailed(f"{n} number(s), word(s) or level(s) in {pr_file} do not match the run")
