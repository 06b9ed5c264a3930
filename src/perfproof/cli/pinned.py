"""The door's side of pinned settings: a verb's parsed flags, the environment and the
repository's ``perfproof.toml`` / ``[tool.perfproof]`` settled into the values it runs with,
each with where it came from (:mod:`perfproof.pipeline.config` holds the rules)."""

from __future__ import annotations

from collections.abc import Collection, Mapping
from pathlib import Path

import click

from perfproof import defaults
from perfproof.measure.plan import Budget, JmhArgs
from perfproof.pipeline.config import KEYS, Setting, Value, both_files, read_pinned, settle

DEFAULTS: Mapping[str, Value | None] = {
    "threshold": defaults.THRESHOLD,
    "confidence": defaults.CONFIDENCE,
    "family": defaults.FAMILY,
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


def settings_block(
    params: Mapping[str, object], sources: Mapping[str, str]
) -> dict[str, dict[str, object]]:
    """The ``settings`` of a JSON document: each settled option's value and where it came
    from (``flag``, ``environment PERFPROOF_X``, ``perfproof.toml:3``, ``default``)."""
    out: dict[str, dict[str, object]] = {}
    for name, source in sources.items():
        value = params.get(name)
        if isinstance(value, (Budget, JmhArgs)):
            value = str(value)  # as typed
        out[name] = {"value": list(value) if isinstance(value, tuple) else value, "source": source}
    return out
