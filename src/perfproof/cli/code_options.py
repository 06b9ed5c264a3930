"""Options shared by the verbs that read a repository's Java sources (callers, scan)."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

if TYPE_CHECKING:
    from perfproof.code.query import Sources

_SHOW_FROM = 200
"""Parsing fewer files than this is quick enough to need no progress line."""


def progress_line() -> Callable[[int, int], None] | None:
    """A ``done/total`` counter on stderr while a cold index parses, on terminals only."""
    if not sys.stderr.isatty():
        return None

    def show(done: int, total: int) -> None:
        if total < _SHOW_FROM:
            return
        end = "\n" if done == total else ""
        if done == total or done % 50 == 0:
            click.echo(f"\rindexing Java sources: {done}/{total} files{end}", err=True, nl=False)

    return show


def sources(
    repo: Path, exclude: tuple[str, ...], include: tuple[str, ...], no_cache: bool
) -> Sources:
    """The flags of :func:`source_options` as the one value the code package reads."""
    from perfproof.code.query import Sources

    return Sources(repo, exclude, include, use_cache=not no_cache, on_progress=progress_line())


def source_options(what: str) -> Callable[[Any], Any]:
    """``--repo``, ``--exclude``, ``--include`` and ``--no-cache``, spelled alike everywhere;
    the command takes them as keywords and hands them to :func:`sources`."""

    def decorate(func: Any) -> Any:
        options = [
            click.option(
                "--repo",
                type=click.Path(path_type=Path),
                default=Path("."),
                show_default=True,
                help=f"Repository root to {what}.",
            ),
            click.option(
                "--exclude",
                multiple=True,
                metavar="GLOB",
                help="Ignore matching files (repeatable).",
            ),
            click.option(
                "--include",
                multiple=True,
                metavar="GLOB",
                help="Count matching files as production whatever their path says (repeatable).",
            ),
            click.option(
                "--no-cache",
                is_flag=True,
                help="Re-parse every file; do not read or write the cache.",
            ),
        ]
        for option in reversed(options):
            func = option(func)
        return func

    return decorate
