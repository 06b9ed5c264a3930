"""``perfproof callers``: production call sites of a Java method."""

from __future__ import annotations

from pathlib import Path

import click

from perfproof.cli import SHORT_HELP
from perfproof.cli.code_options import source_options, sources
from perfproof.cli.options import format_option, show_in_format
from perfproof.model.enums import Format

EPILOG = """Examples:

\b
  perfproof callers Errors.forCode --repo ~/src/kafka
  perfproof callers org.apache.kafka.common.protocol.Errors.forCode --all --format json
  perfproof callers 'new ProduceResponse' --arity 2
  perfproof callers ProduceResponse.<init> --format md
  perfproof callers 'Errors.forCode(short)'   # the overload with one parameter

METHOD is Class.method (Class simple, nested as Outer.Inner, or fully qualified; `#` and `::`
work as separators too). Constructors: `new Class`, `Class.new` or `Class.<init>`. A
parameter list (`Class.method(int, String)`) selects overloads by length, like --arity.
Confidence: exact (the compiler would bind the site to the method) or likely (receiver type
unknown, name and argument count match, the file imports the class or shares its package).
"""


@click.command("callers", short_help=SHORT_HELP["callers"], epilog=EPILOG)
@click.argument("method")
@source_options("index")
@click.option(
    "--arity", type=click.IntRange(min=0), metavar="N", help="Only the overload with N parameters."
)
@click.option("--all", "show_all", is_flag=True, help="Also list test and benchmark call sites.")
@format_option()
def command(
    method: str,
    arity: int | None,
    show_all: bool,
    fmt: Format,
    repo: Path,
    exclude: tuple[str, ...],
    include: tuple[str, ...],
    no_cache: bool,
) -> None:
    """List the production call sites of METHOD and whether it is a library primitive."""
    from perfproof.code import render
    from perfproof.code.query import callers

    result = callers(sources(repo, exclude, include, no_cache), method, arity)
    show_in_format(
        fmt,
        lambda: render.callers_doc(result, show_all),
        lambda: render.callers_md(result, show_all),
        lambda: render.callers_table(result, show_all),
    )
