"""``perfproof history record|show|changes``: results over time, and where their level shifted.

``record`` and the ``--record``/``--db`` options ``ab`` and ``compare`` share live in
:mod:`perfproof.cli.history_record`; this module reads the history back.
"""

from __future__ import annotations

import io
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

import click

from perfproof import defaults
from perfproof.cli import SHORT_HELP
from perfproof.cli.flag import fill
from perfproof.cli.history_record import db_option, record_command
from perfproof.cli.options import (
    CONFIDENCE_DEFAULT,
    OUT_FILE,
    confidence_option,
    emit_json,
    format_option,
    threshold_option,
)
from perfproof.errors import GateFailed, InputError
from perfproof.model.enums import Format
from perfproof.units import short_sha

if TYPE_CHECKING:
    from perfproof.history.store import Series

EPILOG = """\b
Examples:
  perfproof history record .perfproof/runs/20260101-120000-ab12
  perfproof history record results.json --commit "$GITHUB_SHA" --branch main
  perfproof history record results.json --commit "$GITHUB_SHA" --machine ci-large
  perfproof history show --bench 'Codes\\.sum' --metric gc.alloc.rate.norm
  perfproof history show --bench Codes --format html --out trend.html
  perfproof history show --format html --out h.html --commit-url 'https://host/c/{commit}'
  perfproof history show --machine ci-large
  perfproof history changes --branch main --format json
  perfproof history changes --branch main --machine ci-large --fail-on-change
  PERFPROOF_DB=postgresql://ci@db/perf perfproof history changes

\b
Machines: a series is one key on one machine name. --machine NAME (or $PERFPROOF_MACHINE)
files a record under NAME; a run folder keeps the name `ab --machine` gave it. Without
either a record is unnamed: perfproof never invents a name from the recording host. show and
changes keep every machine's runs apart (unnamed runs are a machine of their own) and say which
machines they show; --machine NAME selects one.

Exit codes: 0 done; 1 --fail-on-change saw a regression shift; 2 bad input (a corrupt,
foreign or newer database, an unreachable server, an unknown option value)."""


SERIES_NOTE = """Each series is one key on one machine name: without --machine, every machine's runs
are still kept apart (unnamed runs are one more machine) and the output says which machines it
holds."""

SHOW_EPILOG = (
    """\b
Examples:
  perfproof history show --bench Codes --metric gc.alloc.rate.norm
  perfproof history show --branch main --format json --out history.json
  perfproof history show --branch main --format html --out history.html
  perfproof history show --branch main --format html --out history.html \\
      --commit-url 'https://github.com/org/repo/commit/{commit}'
  perfproof history show --branch main --machine ci-large

The HTML page opens with an index of every key: a sparkline, the latest value, its change
against the previous and the first run, and the change points (as `history changes` finds
them with its defaults), each row linking to the key's plot over dates. Commits are short
hashes unless --commit-url turns them into links (a template without {commit}, or not
http(s), exits 2).

"""
    + SERIES_NOTE
)


CHANGES_EPILOG = (
    """\b
Examples:
  perfproof history changes --branch main
  perfproof history changes --branch main --machine ci-large --fail-on-change
  perfproof history changes --bench Codec --format json

"""
    + SERIES_NOTE
)


@click.group(
    "history",
    short_help=SHORT_HELP["history"],
    epilog=EPILOG,
    context_settings={"max_content_width": 100},
)
def command() -> None:
    """Results over time in SQLite or PostgreSQL; change points on a branch."""


command.add_command(record_command)


def _commit_url(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """``--commit-url`` checked as it is parsed: before the database is opened."""
    from perfproof.history.links import check_commit_url

    return None if value is None else check_commit_url(value)


def _selection(func: Callable[..., Any]) -> Callable[..., Any]:
    func = click.option(
        "--commit-url",
        metavar="TEMPLATE",
        callback=_commit_url,
        help="With --format html: link each commit to this http(s) URL, {commit} replaced by "
        "the hash (e.g. https://github.com/org/repo/commit/{commit}) [default: short hashes, "
        "no links].",
    )(func)
    func = click.option(
        "--machine",
        metavar="NAME",
        help="Only runs filed under this machine name. Without it every machine's runs are "
        "still kept apart, one series per key and machine (unnamed runs are one more).",
    )(func)
    func = click.option("--branch", metavar="NAME", help="Only runs recorded on this branch.")(func)
    func = click.option(
        "--metric",
        "metrics",
        multiple=True,
        help="Metric (repeatable): primary, gc.alloc.rate.norm, ... [default: primary]",
    )(func)
    func = click.option("--bench", metavar="REGEX", help="Benchmarks whose name matches.")(func)
    func = confidence_option("Confidence of intervals.", default=CONFIDENCE_DEFAULT)(func)
    func = format_option((Format.TABLE, Format.JSON, Format.HTML), help="Output format.")(func)
    func = click.option("--out", type=OUT_FILE, help="Write the output to FILE instead of stdout.")(
        func
    )
    return db_option(func)


@dataclass(frozen=True)
class Selection:
    """What ``history show`` and ``changes`` read and how they print it: the flags of
    :func:`_selection`, checked once (:func:`selection`)."""

    db: str | None
    out: str | None
    fmt: Format
    confidence: float
    bench: str | None
    metrics: tuple[str, ...]
    branch: str | None
    commit_url: str | None
    machine: str | None


def selection(params: Mapping[str, Any]) -> Selection:
    """The one builder of the shared flags: the machine name checked, the rest typed."""
    from perfproof.history.records import check_machine

    machine = params["machine"]
    machine = None if machine is None else check_machine(machine)
    return fill(Selection, params, metrics=tuple(params["metrics"]), machine=machine)


def _load(s: Selection) -> list[Series]:
    """The selected series; a --machine no run was filed under is said on stderr, with the
    names there are (a typo shows as such, a runner's first night is no error)."""
    from perfproof.history.db import open_db, resolve_target
    from perfproof.history.render import UNNAMED
    from perfproof.history.store import machine_names, series
    from perfproof.storage import refuse_overwriting_inputs

    db, out, fmt, machine = s.db, s.out, s.fmt, s.machine
    if s.commit_url is not None and fmt is not Format.HTML:
        raise InputError(f"--commit-url: only with --format html (not --format {fmt})")
    target = resolve_target(db)
    if out is not None and out != "-" and target.kind == "sqlite":
        store = Path(target.location)
        sidecars = [store.with_name(store.name + suffix) for suffix in ("-wal", "-shm")]
        refuse_overwriting_inputs({"--out": Path(out)}, [store, *sidecars])
    with open_db(target, create=False) as handle:
        found = series(handle, s.bench, s.metrics or ("primary",), s.branch, machine)
        names = machine_names(handle) if machine is not None and not found else []
    if names and machine not in names:
        listed = ", ".join(UNNAMED if n is None else n for n in names)
        click.echo(
            f"--machine {machine}: no run is filed under this name (names here: {listed})",
            err=True,
        )
    return found


def _table(print_table: Callable[[TextIO | None], None], out: str | None) -> None:
    """A terminal table, or the same table as plain text in ``--out``."""
    if out is None:
        print_table(None)
        return
    buffer = io.StringIO()
    print_table(buffer)
    _write(buffer.getvalue(), out)


def _page(
    title: str,
    found: list,
    changes: list,
    options: Any,
    commit_url: str | None,
    machine: str | None = None,
) -> str:
    """The HTML page of ``show`` and ``changes``: one renderer, the same index and plots."""
    from perfproof.history.links import CommitLinks
    from perfproof.history.page import html_page
    from perfproof.units.percentages import fraction_pct

    detector = (
        f"threshold {fraction_pct(options.threshold)}, seed {options.seed}, "
        f"p ≤ {options.p_max:g}, {options.permutations} permutations"
    )
    return html_page(
        title,
        found,
        changes,
        options.confidence,
        CommitLinks(commit_url),
        detector=detector,
        machine=machine,
    )


def _write(text: str, out: str | None) -> None:
    """To ``--out`` (atomically) or to stdout."""
    from perfproof.storage import write_text_atomic

    if out is None:
        sys.stdout.write(text)
        return
    write_text_atomic(out, text)
    click.echo(f"wrote {out}", err=True)


@command.command("show", epilog=SHOW_EPILOG)
@_selection
def show_cmd(**params: Any) -> None:
    """Each key's series over commits, with fork-level intervals."""
    from perfproof.history import render

    s = selection(params)
    found = _load(s)
    out, fmt, confidence, machine, commit_url = s.out, s.fmt, s.confidence, s.machine, s.commit_url
    if fmt is Format.JSON:
        doc = render.history_document(found, confidence, machine)
        if out:
            from perfproof.model.documents import dumps

            _write(dumps(doc), out)
        else:
            emit_json(doc)
    elif fmt is Format.HTML:
        from perfproof.history.analysis import ChangeOptions, find_changes

        options = ChangeOptions(confidence=confidence)
        changes = [c for s in found for c in find_changes(s, options)]
        _write(_page("perfproof history", found, changes, options, commit_url, machine), out)
    else:
        _table(lambda f: render.print_history(found, confidence, f, machine), out)


@command.command("changes", epilog=CHANGES_EPILOG)
@_selection
@threshold_option("Smallest shift worth reporting.", default=f"{defaults.CHANGE_THRESHOLD:.0%}")
@click.option("--seed", type=int, default=0, show_default=True, help="Permutation test seed.")
@click.option("--fail-on-change", is_flag=True, help="Exit 1 when a shift is a regression.")
def changes_cmd(threshold: float, seed: int, fail_on_change: bool, **params: Any) -> None:
    """Commits where a key's level shifted on one machine (e-divisive means, permutation
    test); each machine's runs are searched apart."""
    from perfproof.history import render
    from perfproof.history.analysis import ChangeOptions, find_changes
    from perfproof.model.documents.history import ChangeSearch

    s = selection(params)
    found = _load(s)
    out, fmt, confidence, machine, commit_url = s.out, s.fmt, s.confidence, s.machine, s.commit_url
    branch = s.branch
    options = ChangeOptions(confidence=confidence, threshold=threshold, seed=seed)
    changes = [c for s in found for c in find_changes(s, options)]
    if fmt is Format.JSON:
        doc = render.changes_document(
            changes,
            len(found),
            ChangeSearch(
                confidence=confidence,
                threshold=threshold,
                seed=seed,
                p_max=options.p_max,
                permutations=options.permutations,
                branch=branch,
                machine=machine,
            ),
            found,
        )
        if out:
            from perfproof.model.documents import dumps

            _write(dumps(doc), out)
        else:
            emit_json(doc)
    elif fmt is Format.HTML:
        _write(_page("perfproof change points", found, changes, options, commit_url, machine), out)
    else:
        _table(lambda f: render.print_changes(changes, found, f, machine), out)
    regressions = [c for c in changes if c.kind == "regressed"]
    if fail_on_change and regressions:
        first = regressions[0]
        raise GateFailed(
            f"--fail-on-change: {len(regressions)} regression shift(s), first "
            f"{render.series_title(first.series, render.named(found))} at "
            f"{short_sha(first.point.commit or first.point.run_uid)}"
        )
