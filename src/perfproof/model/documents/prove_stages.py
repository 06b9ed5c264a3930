"""What each stage of ``prove`` found, typed: the ``result`` of a stage in ``prove.json``.

A stage returns one of these; the bundle stores its ``to_json()`` (the ``perfproof.prove/1``
shape, unchanged), and later stages and the renderers read it back with ``from_json``, so a
resumed chain and the report see exactly what the first attempt saw. A document another verb
wrote (callers, guard, the comparisons of the A/B, profile diff, e2e) is kept whole, as that
verb wrote it, beside the fields ``prove`` reads from it. A ``prove.json`` edited into another
shape is refused naming the field, never read as a traceback.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Protocol, TypeVar

from perfproof.errors import InputError
from perfproof.model.changes import ChangedMethod

Json = dict[str, object]
"""A JSON object as ``prove.json`` holds it."""

T = TypeVar("T")


class StageResult(Protocol):
    """What a stage returns: anything ``prove.json`` can keep as the stage's ``result``."""

    def to_json(self) -> Json: ...


def need(doc: Mapping[str, object], key: str, kind: type[T]) -> T:
    value = doc.get(key)
    if isinstance(value, kind) and not (kind is int and isinstance(value, bool)):
        return value
    raise InputError(f"{key!r} is not {kind.__name__} ({value!r:.60})")


def opt(doc: Mapping[str, object], key: str, kind: type[T]) -> T | None:
    return None if doc.get(key) is None else need(doc, key, kind)


def num(doc: Mapping[str, object], key: str) -> float | None:
    value = doc.get(key)
    if value is None:
        return None
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return float(value)
    raise InputError(f"{key!r} is not a number ({value!r:.60})")


def strs(doc: Mapping[str, object], key: str) -> tuple[str, ...]:
    return tuple(str(v) for v in opt(doc, key, list) or [])


def objs(doc: Mapping[str, object], key: str) -> list[Json]:
    items = opt(doc, key, list) or []
    if not all(isinstance(i, dict) for i in items):
        raise InputError(f"{key!r} holds a value that is not an object")
    return [i for i in items if isinstance(i, dict)]


# ---------------------------------------------------------------------------- 1 changes


@dataclass(frozen=True)
class ChangesResult:
    """Stage 1: the changed methods, the classes that hold them, the changed files by scope."""

    methods: tuple[ChangedMethod, ...]
    classes: tuple[str, ...]
    files: Mapping[str, tuple[str, ...]]
    """Scope (production, test, benchmark) → changed files."""

    def in_scope(self, scope: str) -> tuple[str, ...]:
        return self.files.get(scope, ())

    def to_json(self) -> Json:
        return {
            "methods": [m.to_json() for m in self.methods],
            "classes": list(self.classes),
            "files": {scope: list(paths) for scope, paths in self.files.items()},
        }

    @classmethod
    def from_json(cls, doc: Json) -> ChangesResult:
        files = opt(doc, "files", dict) or {}
        return cls(
            tuple(ChangedMethod.from_json(m) for m in objs(doc, "methods")),
            strs(doc, "classes"),
            {str(scope): strs(files, scope) for scope in files},
        )


# ---------------------------------------------------------------------------- 2 callers


@dataclass(frozen=True)
class CallSiteRef:
    file: str
    line: int
    caller: str


@dataclass(frozen=True)
class CallerCounts:
    """What ``prove`` shows of a ``perfproof.callers/1`` document (kept whole in ``document``)."""

    production: int
    exact: int
    likely: int
    distinct_callers: int
    library_primitive: bool
    test: int
    benchmark: int
    sites: tuple[CallSiteRef, ...]
    document: Json

    @classmethod
    def from_json(cls, doc: Json) -> CallerCounts:
        sites = tuple(
            CallSiteRef(need(s, "file", str), need(s, "line", int), str(s.get("caller", "")))
            for s in objs(doc, "sites")
        )
        return cls(
            production=need(doc, "production", int),
            exact=need(doc, "exact", int),
            likely=need(doc, "likely", int),
            distinct_callers=need(doc, "distinct_callers", int),
            library_primitive=bool(doc.get("library_primitive")),
            test=need(doc, "test", int),
            benchmark=need(doc, "benchmark", int),
            sites=sites,
            document=doc,
        )


@dataclass(frozen=True)
class ViaSupertype:
    """Production calls through a declaration the changed method overrides."""

    declarations: tuple[str, ...]
    production: int
    distinct_callers: int

    def to_json(self) -> Json:
        return {
            "declarations": list(self.declarations),
            "production": self.production,
            "distinct_callers": self.distinct_callers,
        }


@dataclass(frozen=True)
class CallersEntry:
    """The callers of one changed method; ``callers`` is None for a removed or unindexed one
    (``note`` says which)."""

    method: str
    kind: str
    callers: CallerCounts | None
    note: str = ""
    test_files: tuple[str, ...] = ()
    via_supertype: ViaSupertype | None = None

    def to_json(self) -> Json:
        doc: Json = {"method": self.method, "kind": self.kind}
        if self.callers is None:
            doc.update(callers=None, note=self.note)
            return doc
        doc.update(callers=self.callers.document, test_files=list(self.test_files))
        if self.via_supertype is not None:
            doc["via_supertype"] = self.via_supertype.to_json()
        return doc

    @classmethod
    def from_json(cls, doc: Json) -> CallersEntry:
        callers = opt(doc, "callers", dict)
        via = opt(doc, "via_supertype", dict)
        return cls(
            method=need(doc, "method", str),
            kind=need(doc, "kind", str),
            callers=CallerCounts.from_json(callers) if callers is not None else None,
            note=str(doc.get("note") or ""),
            test_files=strs(doc, "test_files"),
            via_supertype=None
            if via is None
            else ViaSupertype(
                strs(via, "declarations"),
                need(via, "production", int),
                need(via, "distinct_callers", int),
            ),
        )


@dataclass(frozen=True)
class CallersStageResult:
    """Stage 2: the production call sites of each changed method."""

    methods: tuple[CallersEntry, ...]

    def to_json(self) -> Json:
        return {"methods": [m.to_json() for m in self.methods]}

    @classmethod
    def from_json(cls, doc: Json) -> CallersStageResult:
        return cls(tuple(CallersEntry.from_json(m) for m in objs(doc, "methods")))


# ---------------------------------------------------------------------------- 3 benchmarks


@dataclass(frozen=True)
class ReachedBenchmark:
    """A benchmark that reaches a changed method, with one shortest call path."""

    benchmark: str
    path: tuple[str, ...]
    changed: str
    via_dispatch: bool = False
    """Reached only through a call to a declaration the reached method overrides (dynamic
    dispatch): the call graph cannot say which override the benchmark runs."""
    dispatch: str = ""
    """With ``via_dispatch``: that call, ``Caller(...) → Super.m(...)``."""
    seen_in: str = ""
    """The hunt.json whose recordings showed this benchmark running the changed method, when
    the call graph found no path (a call through a JDK interface, reflection): ``path`` is
    then the recorded stack's."""

    def to_json(self) -> Json:
        doc: Json = {"benchmark": self.benchmark, "path": list(self.path), "changed": self.changed}
        doc["via_dispatch"] = self.via_dispatch
        if self.via_dispatch:
            doc["dispatch"] = self.dispatch
        if self.seen_in:
            doc["seen_in"] = self.seen_in
        return doc

    @classmethod
    def from_json(cls, doc: Json) -> ReachedBenchmark:
        return cls(
            need(doc, "benchmark", str),
            strs(doc, "path"),
            need(doc, "changed", str),
            bool(doc.get("via_dispatch")),
            str(doc.get("dispatch") or ""),
            str(doc.get("seen_in") or ""),
        )

    @property
    def regex(self) -> str:
        """A JMH include regex that selects exactly this benchmark."""
        return f"^{re.escape(self.benchmark)}$"


@dataclass(frozen=True)
class DispatchSkip:
    """A benchmark reached only through dynamic dispatch that ``--reach profile`` left out of
    the A/B: its baseline recording never sampled the changed methods."""

    benchmark: str
    dispatch: str
    cpu_samples: int
    """The recording's CPU samples outside the JVM's own work (none of them in the change)."""
    recording: str

    @property
    def reason(self) -> str:
        return (
            f"reached only through dynamic dispatch at {self.dispatch}; the baseline profile "
            f"never sampled the changed code: 0 of {self.cpu_samples} samples, no allocation"
        )

    def to_json(self) -> Json:
        return {
            "benchmark": self.benchmark,
            "dispatch": self.dispatch,
            "cpu_samples": self.cpu_samples,
            "recording": self.recording,
            "reason": self.reason,
        }

    @classmethod
    def from_json(cls, doc: Json) -> DispatchSkip:
        return cls(
            need(doc, "benchmark", str),
            str(doc.get("dispatch") or ""),
            need(doc, "cpu_samples", int),
            str(doc.get("recording") or ""),
        )


@dataclass(frozen=True)
class BenchmarksResult:
    """Stage 3: the benchmarks to measure, from the call graph or from ``--bench``."""

    source: str
    depth: int
    reached: tuple[ReachedBenchmark, ...]
    regexes: tuple[str, ...]
    unreached: tuple[str, ...]

    def to_json(self) -> Json:
        return {
            "source": self.source,
            "depth": self.depth,
            "reached": [r.to_json() for r in self.reached],
            "regexes": list(self.regexes),
            "unreached": list(self.unreached),
        }

    @classmethod
    def from_json(cls, doc: Json) -> BenchmarksResult:
        reached = tuple(ReachedBenchmark.from_json(r) for r in objs(doc, "reached"))
        return cls(
            need(doc, "source", str),
            need(doc, "depth", int),
            reached,
            strs(doc, "regexes"),
            strs(doc, "unreached"),
        )
