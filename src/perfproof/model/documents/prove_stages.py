"""What each stage of ``prove`` found, typed: the ``result`` of a stage in ``prove.json``.

A stage returns one of these; the bundle keeps it in its typed ``prove.json``
(:mod:`perfproof.model.documents.prove`, the ``perfproof.prove/1`` shape unchanged), and later
stages and the renderers read its fields, so a resumed chain and the report see exactly what the
first attempt saw. Each is a codec document (:mod:`perfproof.model.documents.codec`): its reader
and writer are derived from the fields, a ``prove.json`` edited into another shape is refused
naming the field path. A document another verb wrote (callers, guard, profile diff, e2e) is
kept whole, as that verb wrote it (its unknown fields kept), with the fields ``prove`` reads
typed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Annotated

from pydantic import ConfigDict, Field, PlainSerializer, PlainValidator
from pydantic_core import PydanticCustomError

from perfproof.model.changes import (
    ChangedMethod,
    TestChange,
    changed_method_json,
    changed_test_json,
    read_changed_method,
)
from perfproof.model.documents.codec import Document, Kept, Seq, ValidationError, problem_line

Json = dict[str, object]
"""A JSON object another verb wrote that ``prove`` passes on without reading its fields."""


class StageDocument(Document):
    """Base of a stage's result and its parts: a frozen value once read or made."""

    model_config = ConfigDict(frozen=True)


def _changed_method(value: object) -> ChangedMethod:
    if isinstance(value, ChangedMethod):
        return value
    if not isinstance(value, dict):
        raise PydanticCustomError("model_type", "a JSON object")
    try:
        return read_changed_method(value)
    except ValidationError as exc:
        raise PydanticCustomError("changed_method", problem_line(exc)) from None


def _test_change(value: object) -> TestChange:
    if isinstance(value, TestChange):
        return value
    if not isinstance(value, dict) or not isinstance(value.get("name"), str):
        raise PydanticCustomError("test_change", "a test change (name, base, head)")
    base, head = value.get("base"), value.get("head")
    return TestChange(
        value["name"],
        base if isinstance(base, str) else None,
        head if isinstance(head, str) else None,
    )


Changed = Annotated[
    ChangedMethod,
    PlainValidator(_changed_method),
    PlainSerializer(changed_method_json),
]
"""A changed method as ``perfproof.model.changes`` writes and reads it."""
Test = Annotated[TestChange, PlainValidator(_test_change), PlainSerializer(changed_test_json)]
"""A test whose outcome differs between the sides, as ``perfproof.model.changes`` writes it."""


# ---------------------------------------------------------------------------- 1 changes


class ChangesResult(StageDocument):
    """Stage 1: the changed methods, the classes that hold them, the changed files by scope."""

    methods: Seq[Changed] = ()
    classes: Seq[str] = ()
    files: dict[str, Seq[str]] = Field(default_factory=dict)
    """Scope (production, test, benchmark) → changed files."""

    def in_scope(self, scope: str) -> tuple[str, ...]:
        return self.files.get(scope, ())


# ---------------------------------------------------------------------------- 2 callers


class CallSiteRef(Kept):
    file: str
    line: int
    caller: str = ""


class CallerCounts(Kept):
    """A ``perfproof.callers/1`` document, kept whole, with what ``prove`` shows of it typed."""

    production: int
    exact: int
    likely: int
    distinct_callers: int
    library_primitive: bool = False
    test: int
    benchmark: int
    sites: list[CallSiteRef] = Field(default_factory=list)


class ViaSupertype(StageDocument):
    """Production calls through a declaration the changed method overrides."""

    declarations: Seq[str] = ()
    production: int
    distinct_callers: int


class CallersEntry(StageDocument):
    """The callers of one changed method; ``callers`` is None for a removed or unindexed one
    (``note`` says which)."""

    method: str
    kind: str
    callers: CallerCounts | None = None
    note: str = ""
    test_files: Seq[str] = ()
    via_supertype: ViaSupertype | None = None


class CallersStageResult(StageDocument):
    """Stage 2: the production call sites of each changed method."""

    methods: Seq[CallersEntry] = ()


# ---------------------------------------------------------------------------- 3 benchmarks


class ReachedBenchmark(StageDocument):
    """A benchmark that reaches a changed method, with one shortest call path."""

    benchmark: str
    path: Seq[str] = ()
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
    also: Seq[str] = ()
    """The other changed methods whose own walk over sure calls reaches this benchmark: ``path``
    ends at the changed method nearest the benchmark, so a changed helper it calls is off the
    path though the benchmark runs it (kryo's ``Input.readLong(int)``, called by the changed
    ``BigDecimalSerializer.read``)."""

    @property
    def regex(self) -> str:
        """A JMH include regex that selects exactly this benchmark."""
        return f"^{re.escape(self.benchmark)}$"


class DispatchSkip(StageDocument):
    """A benchmark reached only through dynamic dispatch that ``--reach profile`` left out of
    the A/B: its baseline recording never sampled the changed methods, or sampled them so
    rarely that removing them entirely could not move it by the A/B's threshold."""

    benchmark: str
    dispatch: str = ""
    cpu_samples: int
    """The recording's CPU samples outside the JVM's own work."""
    recording: str = ""
    reason: str = ""
    """Why it was left out, in the words the report prints (:meth:`of` writes it)."""
    cpu_inside: int = 0
    """Of ``cpu_samples``, those in a changed method."""
    ceiling: float | None = None
    """The Amdahl ceiling at the share's upper bound, when some samples were in the change."""

    @classmethod
    def of(
        cls,
        benchmark: str,
        dispatch: str,
        cpu_samples: int,
        recording: str,
        bounded: Bounded | None = None,
    ) -> DispatchSkip:
        reason = f"reached only through dynamic dispatch at {dispatch}; "
        if bounded is None:
            reason += (
                f"the baseline profile never sampled the changed code: 0 of {cpu_samples} "
                "samples, no allocation"
            )
            inside, ceiling = 0, None
        else:
            inside, ceiling = bounded.inside, bounded.ceiling
            reason += bounded.words(cpu_samples)
        return cls(benchmark=benchmark, dispatch=dispatch, cpu_samples=cpu_samples,
                   recording=recording, reason=reason, cpu_inside=inside,
                   ceiling=ceiling)  # fmt: skip


@dataclass(frozen=True)
class Bounded:
    """A changed code's share in a benchmark too small to matter: ``inside`` baseline samples
    whose upper bound at ``confidence`` sets an Amdahl ceiling below ``threshold``. A
    regression is bounded too, though more loosely: the benchmark slows by the threshold only
    if the changed code becomes ``1 + threshold / share`` times as slow."""

    inside: int
    ceiling: float
    threshold: float
    confidence: float

    @property
    def slower(self) -> float:
        """How many times as slow the changed code must become to slow the benchmark by the
        threshold, its share taken at the upper bound."""
        share = self.ceiling / (1.0 + self.ceiling)
        return 1.0 + self.threshold / share

    def words(self, samples: int) -> str:
        ceiling = f"{self.ceiling * 100:.2g}%"
        threshold = f"{self.threshold * 100:g}%"
        level = f"{self.confidence * 100:g}%"
        return (
            f"the changed code is {self.inside} of {samples} baseline samples, no allocation: "
            f"removing it entirely would make the benchmark at most {ceiling} faster "
            f"({level} bound), under the {threshold} threshold, and it would take that code "
            f"running {self.slower:.3g}× as slow to slow the benchmark by {threshold}"
        )


class BenchmarksResult(StageDocument):
    """Stage 3: the benchmarks to measure, from the call graph or from ``--bench``."""

    source: str
    depth: int
    reached: Seq[ReachedBenchmark] = ()
    regexes: Seq[str] = ()
    unreached: Seq[str] = ()
