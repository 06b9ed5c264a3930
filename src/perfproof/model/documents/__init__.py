"""Every versioned JSON document perfproof writes or reads, and the one way to read them.

A document is a JSON object whose ``schema`` field is ``perfproof.<name>/<major>``. Readers
accept any minor evolution of the same major version (new fields are ignored) and refuse
another name or major version with one line naming the file and what was expected, so a
results file from a future perfproof, or a foreign JSON file, never turns into a traceback
half-way through a report. Each schema's typed class lives in a module of this package
(``run``, ``compare``, ``e2e``, ``guard``, ``hunt``, ``prove``, …), read and written
through the codec (:mod:`perfproof.model.documents.codec`, pydantic).
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from pathlib import Path
from typing import overload

from pydantic import JsonValue

from perfproof.errors import InputError, unreadable

MAX_DEPTH = 64
"""Deepest nesting any perfproof document has (with margin); deeper input is refused early."""


def schema_id(name: str, major: int) -> str:
    """``perfproof.<name>/<major>``: the value of a document's ``schema`` field."""
    return f"perfproof.{name}/{major}"


def parse_schema(value: object) -> tuple[str, int] | None:
    """``("run", 1)`` from ``"perfproof.run/1"``; None for anything else."""
    if not isinstance(value, str) or not value.startswith("perfproof.") or "/" not in value:
        return None
    name, _, major = value[len("perfproof.") :].partition("/")
    if not name or not major.isdigit():
        return None
    return name, int(major)


def check_depth(text: str, source: str, limit: int = MAX_DEPTH) -> None:
    """Refuse JSON nested deeper than ``limit`` before ``json.loads`` recurses into it.

    Counting brackets outside strings is linear and needs no recursion, so a file nested
    200,000 levels deep is named and refused instead of raising ``RecursionError``.
    """
    depth = 0
    in_string = False
    escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            if depth > limit:
                raise InputError(f"{source}: JSON nested deeper than {limit} levels")
        elif ch in "]}":
            depth -= 1


def _reject_constant(name: str) -> float:
    raise ValueError(f"non-standard JSON constant {name}")


def loads_strict(text: str, source: str) -> JsonValue:
    """Parse strict JSON (no NaN/Infinity), naming ``source`` and the position on failure."""
    check_depth(text, source)
    try:
        value: JsonValue = json.loads(text, parse_constant=_reject_constant)
        return value
    except json.JSONDecodeError as exc:
        raise InputError(
            f"{source}: not valid JSON ({exc.msg} at line {exc.lineno} column {exc.colno})"
        ) from None
    except ValueError as exc:
        raise InputError(f"{source}: not valid JSON ({exc})") from None


def read_document(path: Path, name: str, major: int) -> dict[str, JsonValue]:
    """Read ``path`` and check it is a ``perfproof.<name>/<major>`` document."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise unreadable(path, exc, f"a perfproof.{name} JSON file") from None
    doc = loads_strict(text, str(path))
    return check_document(doc, str(path), name, major)


def check_document(doc: object, source: str, name: str, major: int) -> dict[str, JsonValue]:
    """Check an already parsed document's schema name and major version."""
    expected = schema_id(name, major)
    if not isinstance(doc, dict):
        raise InputError(f"{source}: expected a {expected} document (a JSON object)")
    found = parse_schema(doc.get("schema"))
    if found is None:
        raise InputError(f"{source}: not a {expected} document (schema: {doc.get('schema')!r})")
    if found[0] != name:
        raise InputError(f"{source}: is a {schema_id(*found)} document, expected {expected}")
    if found[1] != major:
        newer = "a newer" if found[1] > major else "an older"
        raise InputError(
            f"{source}: {schema_id(*found)} is {newer} schema than this perfproof reads "
            f"({expected})"
        )
    return doc


@overload
def json_safe(value: Mapping[str, object]) -> dict[str, JsonValue]: ...


@overload
def json_safe(value: object) -> JsonValue: ...


def json_safe(value: object) -> object:
    """Replace NaN and ±infinity by None at any depth: perfproof documents are strict JSON."""
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {k: json_safe(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [json_safe(v) for v in value]
    return value


def dumps(doc: object) -> str:
    """Serialise a document as strict JSON (``allow_nan=False`` after :func:`json_safe`)."""
    return json.dumps(json_safe(doc), indent=2, allow_nan=False) + "\n"
