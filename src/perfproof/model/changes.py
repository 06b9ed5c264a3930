"""What a change changed: its production methods and constructors (found by
:mod:`perfproof.code.changes`) and the tests whose outcome differs between the sides (found by
:mod:`perfproof.workspace.tests`), as ``prove`` keeps them in ``prove.json``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from perfproof.errors import InputError

PASSED = "passed"
FAILED = "failed"
ERROR = "error"
SKIPPED = "skipped"
"""A test's outcome, as JUnit's XML reports give it."""


@dataclass(frozen=True)
class ChangedMethod:
    """One changed method or constructor of production code."""

    owner: str
    """Fully qualified declaring type."""
    name: str
    """Method name, ``<init>`` for constructors."""
    params: tuple[str, ...]
    kind: str
    """added, removed or modified."""
    file: str
    """Path on the side where the method exists (head unless removed)."""
    lines: tuple[int, int]
    """First and last line of the declaration on that side."""
    base_lines: tuple[int, int] | None = None
    head_lines: tuple[int, int] | None = None
    signature_changed: bool = False

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

    def to_json(self) -> dict[str, object]:
        return {
            "method": self.label,
            "class": self.owner,
            "name": self.name,
            "params": list(self.params),
            "kind": self.kind,
            "file": self.file,
            "lines": list(self.lines),
            "base_lines": list(self.base_lines) if self.base_lines else None,
            "head_lines": list(self.head_lines) if self.head_lines else None,
            "signature_changed": self.signature_changed,
        }

    @classmethod
    def from_json(cls, doc: Mapping[str, object]) -> ChangedMethod:
        """Read back what :meth:`to_json` wrote; another shape is refused naming the field."""

        def text(key: str) -> str:
            value = doc.get(key)
            if isinstance(value, str):
                return value
            raise InputError(f"{key!r} is not str ({value!r:.60})")

        def pair(key: str) -> tuple[int, int] | None:
            value = doc.get(key)
            if value is None:
                return None
            if isinstance(value, list) and len(value) == 2 and all(type(v) is int for v in value):
                return int(value[0]), int(value[1])
            raise InputError(f"{key!r} is not a pair of line numbers ({value!r:.60})")

        params = doc.get("params") or []
        if not isinstance(params, list) or not all(isinstance(p, str) for p in params):
            raise InputError(f"'params' is not a list of str ({params!r:.60})")
        return cls(
            owner=text("class"),
            name=text("name"),
            params=tuple(params),
            kind=text("kind"),
            file=text("file"),
            lines=pair("lines") or (0, 0),
            base_lines=pair("base_lines"),
            head_lines=pair("head_lines"),
            signature_changed=bool(doc.get("signature_changed")),
        )


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

    def to_json(self) -> dict[str, object]:
        return {
            "name": self.name,
            "base": self.base,
            "head": self.head,
            "regression": self.regression,
        }
