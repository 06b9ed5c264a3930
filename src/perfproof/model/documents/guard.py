"""The ``perfproof.guard/1`` document: a guard's settings, verdict and one row per check.

Written to ``guard.json`` in the run folder and printed by ``perfproof guard --format json``.
An oriented ratio can be infinite (the feature allocates nothing) or undefined (a key on one
side only); both are written as null, as in every other perfproof document, with the row's
``reason`` saying which.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from pydantic import Field, JsonValue

from perfproof.model.documents import json_safe, schema_id
from perfproof.model.documents.settings import SettingEntry, WithSettings
from perfproof.model.enums import GuardKind

NAME = "guard"
MAJOR = 1
SCHEMA = schema_id(NAME, MAJOR)

PROTECTS: dict[GuardKind, str] = {  # guard kind → what a passing benchmark protects
    GuardKind.TIME: "the speed-up (time per operation or throughput)",
    GuardKind.ALLOC: "the allocation cut (bytes per operation)",
    GuardKind.BOTH: "both the speed-up and the allocation cut",
    GuardKind.OFFHEAP: "the off-heap allocation cut (direct and native bytes per operation)",
    GuardKind.GCTIME: "the GC time cut (garbage-collection time per operation)",
}


@dataclass(frozen=True)
class GuardRow:
    """One benchmark × @Param × metric: the oriented ratio and whether it passes."""

    benchmark: str
    mode: str
    params: dict[str, str]
    metric: str
    unit: str
    base: float | None
    head: float | None
    ratio: float
    ci: tuple[float, float]
    passed: bool
    reason: str

    @property
    def label(self) -> str:
        p = ", ".join(f"{k}={v}" for k, v in self.params.items())
        return f"{self.benchmark}({p})" if p else self.benchmark


@dataclass
class GuardResult:
    """A judged guard, the typed form of this document: :mod:`perfproof.pipeline.guard.judge`
    builds it, the renderers and :func:`guard_document` read it."""

    kind: GuardKind
    min_ratio: float
    confidence: float
    rows: list[GuardRow]
    run_dir: Path | None = None
    overlay_files: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        return bool(self.rows) and all(r.passed for r in self.rows)


class GuardDocument(WithSettings):
    """``guard.json`` as written: the settings, the verdict and the rows (:class:`GuardRow`'s
    own fields)."""

    schema_: str = Field(SCHEMA, alias="schema")
    kind: GuardKind
    protects: str
    min_ratio: float
    confidence: float
    passed: bool
    verdict: Literal["PASS", "FAIL"]
    run_dir: str | None
    overlay_files: list[str]
    rows: list[GuardRow]
    notes: list[str]


def guard_document(
    g: GuardResult, settings: Mapping[str, SettingEntry] | None = None
) -> dict[str, JsonValue]:
    """The document of one judged guard (strict JSON: no NaN, no infinity, no strings for them);
    with the settings it ran with where the verb prints it."""
    doc = GuardDocument(
        kind=g.kind,
        protects=PROTECTS[g.kind],
        min_ratio=g.min_ratio,
        confidence=g.confidence,
        passed=g.passed,
        verdict="PASS" if g.passed else "FAIL",
        run_dir=None if g.run_dir is None else str(g.run_dir),
        overlay_files=g.overlay_files,
        rows=g.rows,
        notes=g.notes,
        settings=None if settings is None else dict(settings),
    )
    safe: dict[str, JsonValue] = json_safe(doc.model_dump(mode="json", by_alias=True))
    return safe
