"""What a change changed: its production methods and constructors (found by
:mod:`perfproof.code.changes`) and the tests whose outcome differs between the sides (found by
:mod:`perfproof.workspace.tests`), as ``prove`` keeps them in ``prove.json``.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Annotated

from pydantic import BeforeValidator, Field, JsonValue, TypeAdapter

ADDED = "added"
REMOVED = "removed"
MODIFIED = "modified"
"""A changed method's kind: on the head side only, on the base side only, or on both."""

PASSED = "passed"
FAILED = "failed"
ERROR = "error"
SKIPPED = "skipped"
"""A test's outcome, as JUnit's XML reports give it."""


def _none_is_empty(value: object) -> object:
    """No parameters written (null) is none; a list of them is read as the tuple it was."""
    return () if value is None else tuple(value) if isinstance(value, list) else value


def _none_is_unknown(value: object) -> object:
    """Lines not written (null) are unknown, (0, 0); a pair is read as the tuple it was."""
    return (0, 0) if value is None else tuple(value) if isinstance(value, list) else value


@dataclass(frozen=True)
class ChangedMethod:
    """One changed method or constructor of production code."""

    owner: Annotated[str, Field(alias="class")]
    """Fully qualified declaring type."""
    name: str
    """Method name, ``<init>`` for constructors."""
    params: Annotated[tuple[str, ...], BeforeValidator(_none_is_empty)]
    kind: str
    """added, removed or modified."""
    file: str
    """Path on the side where the method exists (head unless removed)."""
    lines: Annotated[tuple[int, int], BeforeValidator(_none_is_unknown)]
    """First and last line of the declaration on that side."""
    base_lines: tuple[int, int] | None = None
    head_lines: tuple[int, int] | None = None
    signature_changed: Annotated[bool, BeforeValidator(bool)] = False
    base_overloads: int | None = None
    """The baseline's methods of this one's type and name, itself included when it is there
    (None in a bundle written before it was counted). A recording names a frame without its
    parameters, so a share matched by name is that of all of them: of an added method, the
    samples its name finds in the baseline are its overloads', never its own."""

    @property
    def label(self) -> str:
        """``ErrorReporter.report(short)``; constructors as ``new ErrorReporter()``."""
        args = ", ".join(self.params)
        owner = self.owner.rsplit(".", 1)[-1]
        if self.name == "<init>":
            return f"new {owner}({args})"
        return f"{owner}.{self.name}({args})"

    @property
    def key(self) -> tuple[str, str, tuple[str, ...]]:
        return self.owner, self.name, self.params

    @property
    def frame(self) -> str:
        """The method as a profile names its frames: ``pkg.Class.method``."""
        return f"{self.owner}.{self.name}"


def baseline_frames(methods: Iterable[ChangedMethod]) -> frozenset[str]:
    """The frames of the changed code a baseline recording can hold: its modified methods'.
    An added method is not in the baseline, and the samples its name finds there are those
    of overloads the change left as they were (kryo's new ``Output.writeInt(int, int)``
    beside ``writeInt(int, boolean)``); a removed one is left out as everywhere else."""
    return frozenset(m.frame for m in methods if m.kind == MODIFIED)


@dataclass(frozen=True)
class TestChange:
    """A test whose outcome differs between the sides."""

    __test__ = False  # not a pytest test class

    name: str
    base: str | None
    head: str | None

    @property
    def regression(self) -> bool:
        """Fails on the feature while it did not fail on the baseline."""
        return self.head in (FAILED, ERROR) and self.base not in (FAILED, ERROR)


# ------------------------------------------------------------ as prove.json writes them


_CODECS: dict[type, TypeAdapter[object]] = {}


def _codec(kind: type) -> TypeAdapter[object]:
    if kind not in _CODECS:
        _CODECS[kind] = TypeAdapter(kind)
    return _CODECS[kind]


def changed_method_json(m: ChangedMethod) -> dict[str, JsonValue]:
    """The method as a reader names it (``method``), then its fields."""
    fields: dict[str, JsonValue] = _codec(ChangedMethod).dump_python(m, mode="json", by_alias=True)
    return {"method": m.label, **fields}


def read_changed_method(doc: Mapping[str, JsonValue]) -> ChangedMethod:
    """What :func:`changed_method_json` wrote (``method`` is left out: it follows from the
    rest); a field of another shape raises the codec's ValidationError naming it."""
    text = json.dumps({"lines": None, "params": None, **doc}, allow_nan=False)
    read = _codec(ChangedMethod).validate_json(text, strict=True)
    if not isinstance(read, ChangedMethod):
        raise TypeError(read)
    return read


def changed_test_json(c: TestChange) -> dict[str, JsonValue]:
    """The test, its outcome on each side and whether it is a regression."""
    fields: dict[str, JsonValue] = _codec(TestChange).dump_python(c, mode="json")
    return {**fields, "regression": c.regression}
