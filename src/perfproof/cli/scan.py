"""``perfproof scan``: known hot-path anti-patterns, ranked by profile or by callers."""

from __future__ import annotations

from pathlib import Path

import click

from perfproof.cli import SHORT_HELP
from perfproof.cli.code_options import source_options, sources
from perfproof.cli.options import format_option, show_in_format
from perfproof.model.enums import Format

EPILOG = """Examples:

\b
  perfproof scan --repo ~/src/kafka
  perfproof scan --profile cpu.collapsed --profile alloc.collapsed --format md
  perfproof scan --profile rec.jfr --rule format-in-hot-path --rule boxing-in-loop
  perfproof scan --format json --exclude 'examples/*'

Rules (`--rule ID`; the JSON output carries each rule's explanation and rewrite):

\b
  boxed-key-lookup        static map keyed by Short/Integer/... read with a primitive
  stream-on-empty         stream().collect() over a collection field or parameter
  enummap-per-call        new EnumMap<>(X.class) in an ordinary method
  direct-buffer-per-call  ByteBuffer.allocateDirect outside set-up code
  format-in-hot-path      String.format outside errors and guarded or printed logging
  boxing-in-loop          boxed accumulator or boxed-key map update in a loop

Only production files are scanned. With --profile (JFR recordings, or collapsed stacks
`frame;frame weight`: CPU samples unless the leaf is an allocated class marked `_[a]`, as
`perfproof profile --collapsed` writes them) findings rank by their method's inclusive share
of CPU samples and allocated bytes, averaged over the two; otherwise by the method's
production call sites.
"""


@click.command("scan", short_help=SHORT_HELP["scan"], epilog=EPILOG)
@source_options("scan")
@click.option(
    "--profile",
    "profiles",
    multiple=True,
    type=click.Path(path_type=Path),
    help="JFR recording or collapsed stacks to rank by (repeatable).",
)
@click.option("--rule", "rules", multiple=True, metavar="ID", help="Only this rule (repeatable).")
@format_option()
def command(
    profiles: tuple[Path, ...],
    rules: tuple[str, ...],
    fmt: Format,
    repo: Path,
    exclude: tuple[str, ...],
    include: tuple[str, ...],
    no_cache: bool,
) -> None:
    """Find allocation and lookup patterns that performance fixes target, hottest first."""
    from perfproof.code import render
    from perfproof.code.query import scan_repo

    result = scan_repo(sources(repo, exclude, include, no_cache), rules, profiles)
    show_in_format(
        fmt,
        lambda: render.scan_doc(result),
        lambda: render.scan_md(result),
        lambda: render.scan_table(result),
    )
