"""The door's side of pinned settings: a verb's parsed flags, the environment and the
repository's ``perfproof.toml`` / ``[tool.perfproof]`` settled into the values it runs with,
each with where it came from (:mod:`perfproof.cli.config` holds the rules)."""

from __future__ import annotations

from collections.abc import Collection, Mapping
from pathlib import Path

import click

from perfproof import defaults
from perfproof.cli.config import KEYS, Setting, Value, both_files, read_pinned, settle
from perfproof.model.documents.settings import SettingEntry, settings_of
from perfproof.model.enums import Family

DEFAULTS: Mapping[str, Value | None] = {
    "threshold": defaults.THRESHOLD,
    "confidence": defaults.CONFIDENCE,
    "family": Family(defaults.FAMILY),
    "jmh_args": None,
    "module": None,
    "build_args": (),
    "maven": "auto",
    "gradle": "auto",
    "budget": None,
    "db": None,
}
"""perfproof's own value of every pinnable option (None: the option's own default applies)."""


def repo_root(repo: str | Path | None) -> Path | None:
    """The top of the repository whose file pins settings (the nearest folder holding
    ``.git``); None outside a repository (the verb refuses a missing one itself)."""
    start = Path(repo or ".").resolve()
    for folder in (start, *start.parents):
        if (folder / ".git").exists():
            return folder
    return None


def settled(
    ctx: click.Context,
    repo: str | Path | None,
    *,
    skip: Collection[str] = (),
    only: Collection[str] | None = None,
    keep_unset: bool = False,
) -> tuple[dict[str, object], dict[str, str]]:
    """The verb's parameters with every pinnable option settled (flag > environment > file >
    default), and where each came from. ``skip`` names options the verb judges its own way;
    ``only`` limits the settling to those options; ``keep_unset`` leaves an option nobody set
    as the verb's own (merge keeps the shards')."""
    names = [
        k.option
        for k in KEYS.values()
        if k.option in ctx.params and k.option not in skip and (only is None or k.option in only)
    ]
    source = click.core.ParameterSource.COMMANDLINE
    given = {n: ctx.params[n] for n in names if ctx.get_parameter_source(n) is source}
    defaults = {} if keep_unset else {n: DEFAULTS[n] for n in names}
    pinned_files = read_pinned(repo_root(repo))
    warning = both_files(pinned_files)
    if warning:
        click.echo(f"perfproof: warning: {warning}", err=True)
    wanted: dict[str, Setting] = settle(pinned_files, names, given, defaults)
    params = {**ctx.params, **{n: s.value for n, s in wanted.items()}}
    sources = {n: s.source for n, s in wanted.items()}
    if params.get("rounds") is not None and "budget" in sources and sources["budget"] != "flag":
        # a pinned budget belongs to the sequential design; --rounds asks for the fixed one
        params["budget"], sources["budget"] = None, "not used by --rounds"
    return params, sources


def json_settings(
    params: Mapping[str, object], sources: Mapping[str, str], db: str | None = None
) -> dict[str, SettingEntry]:
    """The ``settings`` block of a verb's JSON: :func:`settings_of`, with the history
    database (``db``, its resolved name) where the verb records into one, and left out where
    it does not (a pinned or exported database the verb never opens is no setting of it)."""
    shown = dict(sources)
    values = dict(params)
    if db is None:
        shown.pop("db", None)
    else:
        values["db"] = db
    return settings_of(values, shown)


def run_settings(run_dir: Path) -> dict[str, SettingEntry]:
    """The ``settings`` block of a run folder's own settings, as its manifest recorded them
    with their sources (a resumed run keeps them): the history database where it was
    recorded into one."""
    from perfproof.report.rundir import read_manifest

    if not (run_dir / "manifest.json").is_file():
        return {}
    options = read_manifest(run_dir / "manifest.json").options
    if options.sources is None:
        return {}
    return json_settings(options.dump(), options.sources, options.history_db)
