"""The settings a team pins in its repository: ``perfproof.toml`` at the root, or the
``[tool.perfproof]`` table of the root's ``pyproject.toml``. When both pin settings they are
merged key by key, ``perfproof.toml`` over ``pyproject.toml``, and :func:`both_files` says so
(the door warns naming both), so a key set only in the pyproject table is never lost silently.

Every pinnable setting has one key, one ``PERFPROOF_…`` variable and one flag; a value given
on the command line beats the environment, which beats the file, which beats perfproof's
default. Each effective value keeps where it came from, so the run manifest and the report's
methodology can say why a run was judged at 5 % and not at 1 %. A key perfproof does not know
or a value it cannot use is refused (exit 2) naming the file and the line, before any work.
"""

from __future__ import annotations

import os
import re
import shlex
import tomllib
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, TypeAlias

from perfproof.errors import InputError

if TYPE_CHECKING:
    from perfproof.measure.plan import JmhArgs
    from perfproof.model.budget import Budget

FILE = "perfproof.toml"
PYPROJECT = "pyproject.toml"
TABLE = ("tool", "perfproof")

Value: TypeAlias = "str | float | tuple[str, ...] | Budget | JmhArgs"
"""A setting's value, parsed once where it enters (a flag, a variable, a file's line)."""


@dataclass(frozen=True)
class Key:
    """One pinnable setting: its key in the file, the option it fills, its variable."""

    key: str
    option: str
    """The parameter name of the flag (and the ``AbOptions`` field) it fills."""
    parse: Callable[[object, str], Value]
    variable: str = ""
    """The environment variable, when not ``PERFPROOF_`` and the key in capitals."""

    @property
    def env(self) -> str:
        return self.variable or "PERFPROOF_" + self.key.upper().replace("-", "_")


def _text(value: object, where: str) -> Value:
    if isinstance(value, str) and value.strip():
        return value
    raise InputError(f"{where}: expected a non-empty string, got {value!r}")


def _jmh_args(value: object, where: str) -> Value:
    """``jmh-args``: read now, as the flag's text is, so a bad one names the file's line."""
    from perfproof.measure.plan import parse_jmh_args

    text = str(_text(value, where))
    try:
        return parse_jmh_args(text)
    except InputError as exc:
        raise InputError(str(exc).replace("--jmh-args", where, 1)) from None


def _texts(value: object, where: str) -> Value:
    if isinstance(value, str):
        return tuple(shlex.split(value))
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return tuple(value)
    raise InputError(f"{where}: expected a list of strings, got {value!r}")


def _fraction(check: Callable[[float, str], float]) -> Callable[[object, str], Value]:
    def parse(value: object, where: str) -> Value:
        from perfproof.stats.verdict import parse_fraction

        if isinstance(value, bool) or not isinstance(value, (int, float, str)):
            raise InputError(f'{where}: expected a number such as 0.01 or "1%", got {value!r}')
        number = parse_fraction(where, str(value)) if isinstance(value, str) else float(value)
        return check(number, where)

    return parse


def _family(value: object, where: str) -> Value:
    from perfproof.model.enums import Family

    if value in tuple(Family):
        return Family(str(value))
    raise InputError(f"{where}: expected one of {', '.join(Family)}, got {value!r}")


def _budget(value: object, where: str) -> Value:
    from perfproof.measure.plan import parse_budget

    text = str(_text(value, where))
    try:
        return parse_budget(text)
    except InputError:
        raise InputError(f"{where}: {text!r} is not a duration such as 90s, 15m or 1h") from None


def _launcher(tool_name: str) -> Callable[[object, str], Value]:
    def parse(value: object, where: str) -> Value:
        from perfproof.workspace.launcher import GRADLE, MAVEN

        tool = MAVEN if tool_name == "maven" else GRADLE
        if isinstance(value, str) and value in tool.choices():
            return value
        raise InputError(f"{where}: expected one of {', '.join(tool.choices())}, got {value!r}")

    return parse


def _keys() -> tuple[Key, ...]:
    from perfproof.stats.verdict import check_confidence, check_threshold

    return (
        Key("threshold", "threshold", _fraction(check_threshold)),
        Key("confidence", "confidence", _fraction(check_confidence)),
        Key("family", "family", _family),
        Key("jmh-args", "jmh_args", _jmh_args),
        Key("module", "module", _text),
        Key("build-args", "build_args", _texts),
        Key("maven", "maven", _launcher("maven")),
        Key("gradle", "gradle", _launcher("gradle")),
        Key("budget", "budget", _budget),
        Key("history-db", "db", _text, "PERFPROOF_DB"),
    )


KEYS = {k.key: k for k in _keys()}
"""Every key a team can pin, by its name in the file."""


@dataclass(frozen=True)
class Setting:
    """An effective value and where it came from: ``flag``, ``environment PERFPROOF_X``,
    ``perfproof.toml:3`` or ``default``."""

    value: Value | None
    source: str


@dataclass(frozen=True)
class PinnedFile:
    """The settings a repository pins, each with where it is (``perfproof.toml:3``)."""

    paths: tuple[Path, ...]
    """The files read: ``perfproof.toml``, ``pyproject.toml``, or both (in that order)."""
    values: Mapping[str, tuple[Value, str]]
    overridden: tuple[str, ...] = ()
    """Keys both files pin: ``perfproof.toml``'s value is the one used."""


def _line_of(text: str, key: str, nested: bool) -> int:
    """The line of ``key`` in the perfproof table (tomllib keeps no positions): ``key = …``,
    a dotted ``key.x = …``, a table ``[key]`` (``[tool.perfproof.key]``); else the first line
    naming it as a key anywhere (an inline table, ``tool.perfproof.key = …``); 0 if none."""
    table = list(TABLE) if nested else []
    name = rf"[\"']?{re.escape(key)}[\"']?"
    inside = not nested
    lines = text.splitlines()
    for number, line in enumerate(lines, start=1):
        header = re.match(r"^\s*\[\[?([^\[\]]+)\]\]?\s*(#.*)?$", line)
        if header:
            parts = [p.strip().strip("\"'") for p in header.group(1).split(".")]
            if parts[: len(table) + 1] == [*table, key]:
                return number
            inside = parts == table
            continue
        if inside and re.match(rf"^\s*{name}\s*[=.]", line):
            return number
    for number, line in enumerate(lines, start=1):
        if re.search(rf"(^|[\s.{{,]){name}\s*[=.]", line):
            return number
    return 0


def _read_table(path: Path, nested: bool) -> dict[str, tuple[Value, str]] | None:
    """The keys one file pins, each with its ``file:line``; None when a ``pyproject.toml``
    has no ``[tool.perfproof]`` table (it pins nothing)."""
    try:
        text = path.read_text(encoding="utf-8")
        doc = tomllib.loads(text)
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"{path}: cannot read: {exc}") from None
    except tomllib.TOMLDecodeError as exc:
        raise InputError(f"{path}: not valid TOML: {exc}") from None
    table: object = doc
    for part in TABLE if nested else ():
        if isinstance(table, dict) and part not in table:
            return None
        table = table.get(part) if isinstance(table, dict) else None
    if not isinstance(table, dict):
        raise InputError(f"{path}: [{'.'.join(TABLE)}] is not a table")
    values: dict[str, tuple[Value, str]] = {}
    for name, raw in table.items():
        line = _line_of(text, name, nested)
        where = f"{path}:{line}: {name}" if line else f"{path}: {name}"
        if name not in KEYS:
            known = ", ".join(KEYS)
            raise InputError(f"{where}: not a setting perfproof knows (one of {known})")
        values[name] = (KEYS[name].parse(raw, where), f"{path}:{line}")
    return values


def read_pinned(root: Path | None) -> PinnedFile:
    """The pinned settings of the repository at ``root`` (none when it pins nothing): both
    files merged key by key, ``perfproof.toml`` over ``[tool.perfproof]``."""
    if root is None:
        return PinnedFile((), {})
    own, pyproject = root / FILE, root / PYPROJECT
    mine = _read_table(own, nested=False) if own.is_file() else None
    theirs = _read_table(pyproject, nested=True) if pyproject.is_file() else None
    paths = tuple(p for p, v in ((own, mine), (pyproject, theirs)) if v is not None)
    overridden = tuple(k for k in (mine or {}) if k in (theirs or {}))
    return PinnedFile(paths, {**(theirs or {}), **(mine or {})}, overridden)


def both_files(pinned: PinnedFile) -> str | None:
    """The warning when both files pin settings (None otherwise): which wins, and which keys
    of ``pyproject.toml`` it overrides."""
    if len(pinned.paths) < 2:
        return None
    own, pyproject = pinned.paths
    shadowed = (
        f"; {PYPROJECT}'s {', '.join(pinned.overridden)} not used" if pinned.overridden else ""
    )
    return (
        f"both {own} and [{'.'.join(TABLE)}] in {pyproject} pin settings: merged key by key, "
        f"{FILE} first{shadowed}"
    )


def settle(
    pinned: PinnedFile,
    options: Collection[str],
    given: Mapping[str, Value | None],
    defaults: Mapping[str, Value | None],
    environ: Mapping[str, str] | None = None,
) -> dict[str, Setting]:
    """The effective value of every option a key fills: flag > environment > file > default.

    ``options`` are those the verb has; ``given`` the ones typed on the command line;
    ``defaults`` perfproof's own values (an option absent from both, and unpinned, is left out).
    """
    env = os.environ if environ is None else environ
    out: dict[str, Setting] = {}
    for key in KEYS.values():
        if key.option not in options:
            continue
        if key.option in given:
            out[key.option] = Setting(given[key.option], "flag")
        elif env.get(key.env):
            out[key.option] = Setting(key.parse(env[key.env], key.env), f"environment {key.env}")
        elif key.key in pinned.values:
            value, where = pinned.values[key.key]
            out[key.option] = Setting(value, where)
        elif key.option in defaults:
            out[key.option] = Setting(defaults[key.option], "default")
    return out
