"""The ``perfproof.e2e/1`` document: an end-to-end A/B's settings, sides and per-metric results.

Written to ``results.json`` in the run folder and printed by ``perfproof e2e --format json``.
Every number that is not finite is written as null (strict JSON); field names are stable and
new fields may be added within the major version.
"""

from __future__ import annotations

import math
import shlex
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Annotated

from pydantic import Field, JsonValue, PlainSerializer

from perfproof.model import Direction, Verdict
from perfproof.model.documents import json_safe, schema_id
from perfproof.model.documents.codec import Document
from perfproof.model.documents.run import PreparedSide

NAME = "e2e"
MAJOR = 1
SCHEMA = schema_id(NAME, MAJOR)


@dataclass(frozen=True)
class AmdahlCeiling:
    """The ceiling and what it means for an end-to-end experiment of a given design."""

    share: float
    per_call_gain: float
    speedup: float
    time_cut: float

    @property
    def log_effect(self) -> float:
        """|log ratio| the ceiling would move an end-to-end metric by."""
        return math.log1p(self.speedup)


class RunsSummary(Document):
    """One side of an end-to-end experiment: whole-program runs, not forks, so besides the
    Student-t interval it keeps the df and sd that the power estimate and the JSON report use
    (``model.Estimate`` is the fork-level side of a JMH comparison). A block of the document
    as written, like :class:`PairedSummary`."""

    mean: float
    ci: tuple[float, float]
    n: int
    df: float
    sd: float


class PairedSummary(Document):
    """The paired (round by round) change: its mean in percent, interval, pairs and df."""

    delta_pct: float
    ci: tuple[float, float]
    pairs: int
    df: float


@dataclass
class AmdahlReport:
    """The ceiling applied to one metric of this run: can the design see it at all?"""

    metric: str
    ceiling: AmdahlCeiling
    mde_pct: float | None
    runs_needed: int | None
    visible: bool | None
    message: str


@dataclass(frozen=True)
class E2ESettings:
    """The settings the report states: runs per side (and warm-up runs), the order of the
    sides, the confidence and the threshold."""

    runs: int
    warmup_runs: int
    order: str
    confidence: float
    threshold_pct: float


@dataclass
class E2EResult:
    """A finished (or re-analysed) e2e run, the typed form of this document: what
    :mod:`perfproof.pipeline.e2e.run` returns and the renderers turn into text or JSON."""

    run_dir: Path
    settings: E2ESettings
    sides: dict[str, PreparedSide]
    command: list[str]
    metrics: list[MetricAnalysis]
    amdahl: AmdahlReport | None
    warnings: list[str]


# ------------------------------------------------------------------ the document as written


class Interval(Document):
    """A value with its interval."""

    value: float
    ci: tuple[float, float]


class MetricAnalysis(Document):
    """Everything the report and the JSON say about one metric: what the analysis returns and
    what ``results.json`` writes, one type (the bootstrap's interval and the runs-needed
    target under the names the document has always used)."""

    name: str
    unit: str
    direction: Direction
    base: RunsSummary
    head: RunsSummary
    delta_pct: float
    delta_ci: tuple[float, float]
    welch_df: float
    p_value: float
    ratio: float
    ratio_ci: tuple[float, float]
    diff: Interval
    """The difference head − base in the metric's unit, for a metric whose ratio is not finite."""
    bootstrap_ci: tuple[float, float] | None = Field(alias="bootstrap_delta_ci")
    paired: PairedSummary | None
    verdict: Verdict
    mde_pct: float | None
    runs_needed: int | None
    target_pct: float = Field(alias="runs_needed_for_pct")
    method: str
    warnings: list[str] = Field(default_factory=list)
    relative_sd: tuple[float, float] = Field(exclude=True)
    """Per-side spread on the scale the ratio is tested on (sd of log values), for power;
    not written."""


class AmdahlDoc(Document):
    """The Amdahl ceiling of one metric, in percent, and whether the run could see it."""

    metric: str
    share_pct: float
    per_call_gain_pct: float
    ceiling_speedup_pct: float
    ceiling_time_cut_pct: float
    mde_pct: float | None
    visible: bool | None
    runs_needed: int | None
    message: str

    @classmethod
    def of(cls, a: AmdahlReport) -> AmdahlDoc:
        return cls(
            metric=a.metric,
            share_pct=a.ceiling.share * 100.0,
            per_call_gain_pct=a.ceiling.per_call_gain * 100.0,
            ceiling_speedup_pct=a.ceiling.speedup * 100.0,
            ceiling_time_cut_pct=a.ceiling.time_cut * 100.0,
            mde_pct=a.mde_pct,
            visible=a.visible,
            runs_needed=a.runs_needed,
            message=a.message,
        )


def _sides(sides: dict[str, PreparedSide]) -> dict[str, dict[str, object]]:
    return {name: side.dump() for name, side in sides.items()}


class E2EDocument(Document):
    """The ``perfproof.e2e/1`` document (stable field names; extra fields may be added)."""

    schema_: str = Field(SCHEMA, alias="schema")
    run_dir: str
    command: str | None
    runs: int
    warmup_runs: int
    order: str
    confidence: float
    threshold_pct: float
    sides: Annotated[dict[str, PreparedSide], PlainSerializer(_sides)]
    """Each side's prepared checkout and commands, as the run manifest keeps them."""
    metrics: list[MetricAnalysis]
    amdahl: AmdahlDoc | None
    warnings: list[str]


def e2e_document(r: E2EResult) -> dict[str, JsonValue]:
    """The strict JSON document of an e2e run (every number that is not finite as null)."""
    doc = E2EDocument(
        run_dir=str(r.run_dir),
        command=shlex.join(r.command) if r.command else None,
        **asdict(r.settings),  # written flat, under the settings' own names
        sides=r.sides,
        metrics=r.metrics,
        amdahl=None if r.amdahl is None else AmdahlDoc.of(r.amdahl),
        warnings=r.warnings,
    )
    safe: dict[str, JsonValue] = json_safe(doc.model_dump(mode="json", by_alias=True))
    return safe
