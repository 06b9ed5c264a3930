"""``perfproof history record``, and the ``--record``/``--db``/``--machine`` options ``ab`` and
``compare`` share, so recording is spelled the same way everywhere."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from perfproof.cli.options import emit_json, stdout_format_option
from perfproof.errors import InputError
from perfproof.model.enums import Format

DB_HELP = (
    "History database: a SQLite file path or a postgresql:// URL "
    "[default: $PERFPROOF_DB, else .perfproof/history.sqlite in the repository]."
)

MACHINE_HELP = (
    "Machine or testbed name (the runner kind, e.g. ci-large) the results were measured on; "
    "runs of different names never share a series [default: $PERFPROOF_MACHINE, else none: "
    "filed as unnamed, never named after the recording host]."
)

RECORD_EPILOG = """\b
Examples:
  perfproof history record .perfproof/runs/20260101-120000-ab12
  perfproof history record results.json --commit "$GITHUB_SHA" --branch main --machine ci-large
  PERFPROOF_MACHINE=ci-large perfproof history record results.json --commit "$GITHUB_SHA"
  perfproof history record RUN_DIR --format json | jq -r '.records[].run_id'

A record without --machine, $PERFPROOF_MACHINE or a run folder's own name is unnamed; perfproof
never makes a name up from the recording host (a host name does not say which runs compare).
A run recorded again keeps the name it was first filed under.

\b
--format json prints one perfproof.history-record/1 object on stdout:
  database, backend           where (a URL's password hidden): sqlite or postgresql
  recorded, already_recorded  how many records were new, how many were there already
  records[]                   source (as given), kind (ab, jmh), uid, run_id, commit,
                              base_commit, branch, time, machine (null: unnamed), new,
                              keys (head-side keys), rows (sample rows, both sides),
                              comparisons
Errors exit 2 with one line on stderr and no document."""


def db_option(func: Callable[..., Any]) -> Callable[..., Any]:
    return click.option("--db", metavar="PATH|URL", help=DB_HELP)(func)


def record_options(with_commit: bool) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """``--record`` and ``--db`` (plus ``--commit``/``--branch`` when the verb knows no refs)."""

    def wrap(func: Callable[..., Any]) -> Callable[..., Any]:
        if with_commit:
            func = click.option(
                "--machine", "record_machine", metavar="NAME", help=f"With --record: {MACHINE_HELP}"
            )(func)
            func = click.option(
                "--branch", "record_branch", metavar="NAME", help="With --record: the branch."
            )(func)
            func = click.option(
                "--commit",
                "record_commit",
                metavar="SHA",
                help="With --record: the commit HEAD measures [default: git HEAD here].",
            )(func)
        else:
            func = click.option(
                "--branch",
                "record_branch",
                metavar="NAME",
                help="With --record: the branch to file it under [default: --head if a branch].",
            )(func)
        func = db_option(func)
        return click.option(
            "--record", is_flag=True, help="Store the finished result in the history database."
        )(func)

    return wrap


def _report(line: str) -> None:
    click.echo(line, err=True)


def record_run_folder(run_dir: Path, db: str | None, branch: str | None, repo: Path | None) -> None:
    """Store a finished ``ab`` run (used by ``ab --record``)."""
    from perfproof.history.db import open_db, resolve_target
    from perfproof.history.records import from_run_dir
    from perfproof.history.store import record

    rec = from_run_dir(run_dir, branch)  # the machine name ab stored in the run's manifest
    with open_db(resolve_target(db, repo)) as handle:
        _say(record(handle, rec), rec.run_id or rec.uid, handle.target.label, rec.machine_name)


def _say(new: bool, name: str, where: str, machine: str | None = None) -> None:
    on = f" on {machine}" if machine else ""
    _report(f"{'recorded' if new else 'already recorded'}: {name}{on} in {where}")


def record_compare(
    base: str,
    head: str,
    document: dict[str, Any],
    commit: str | None,
    branch: str | None,
    db: str | None,
    machine: str | None = None,
) -> None:
    """Store a finished ``compare`` of the BASE and HEAD specs (used by ``compare --record``)."""
    from perfproof.history.db import open_db, resolve_target
    from perfproof.history.records import from_compare
    from perfproof.history.store import record
    from perfproof.jmh.reader import load_side

    rec = from_compare(
        load_side(base),
        load_side(head),
        document,
        commit=commit or _git_head(),
        branch=branch,
        machine=machine,
    )
    with open_db(resolve_target(db)) as handle:
        _say(record(handle, rec), rec.uid, handle.target.label, rec.machine_name)


def _git_head() -> str:
    from perfproof.workspace.git import resolve_ref

    try:
        return resolve_ref(Path.cwd(), "HEAD")
    except InputError:
        raise InputError("--record: no --commit given and no git commit here") from None


@click.command("record", epilog=RECORD_EPILOG)
@click.argument("paths", nargs=-1, required=True, metavar="RUN_DIR|JMH_JSON...")
@click.option("--commit", metavar="SHA", help="For plain JMH files: the commit they measured.")
@click.option("--branch", metavar="NAME", help="Branch to file the results under.")
@click.option("--time", "when", metavar="ISO", help="For plain JMH files: when they ran [now].")
@click.option(
    "--machine",
    metavar="NAME",
    help=MACHINE_HELP + " A run folder measured with `ab --machine` keeps its own name unless "
    "--machine is given.",
)
@stdout_format_option(
    "What stdout says: a line per record, or one JSON object (perfproof.history-record/1, "
    "see below) with each record's run id, commit, machine and counts."
)
@db_option
def record_command(
    paths: tuple[str, ...],
    commit: str | None,
    branch: str | None,
    when: str | None,
    machine: str | None,
    output: Format,
    db: str | None,
) -> None:
    """Store run folders or plain JMH result files; recording one twice changes nothing."""
    from perfproof.history.db import open_db, resolve_target
    from perfproof.history.records import check_machine, from_jmh_file, from_run_dir, iso_time
    from perfproof.history.render import Recorded, record_document
    from perfproof.history.store import filed_machine, record

    if when is not None:
        iso_time(when)  # a bad --time is refused before anything is read
    if machine is not None:
        machine = check_machine(machine)
    records = []
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            records.append((raw, from_run_dir(path, branch, machine)))
        elif path.is_file():
            if not commit:
                raise InputError(f"{path}: a plain JMH file needs --commit SHA")
            records.append((raw, from_jmh_file(path, commit, branch, when, machine)))
        else:
            raise InputError(f"{path}: no such run folder or file")
    done = []
    with open_db(resolve_target(db)) as handle:
        for raw, rec in records:
            new = record(handle, rec)
            done.append(Recorded(raw, rec, new, filed_machine(handle, rec.uid)))
            if output is Format.TEXT:
                on = f" on {done[-1].machine}" if done[-1].machine else ""
                name = rec.run_id or rec.source
                click.echo(f"{'recorded' if new else 'already recorded'}: {name}{on}")
        target = handle.target
    if output is Format.JSON:
        emit_json(record_document(target.label, target.kind, done))
    else:
        click.echo(f"history: {target.label}")
