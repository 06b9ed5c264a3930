"""``perfproof.report/1``: ``report --format json``, the report for agents and CI.

Same content and order as the Markdown, with each number twice: as the text a human reads and
as the value it was formatted from, so a consumer never has to parse ``12.3 ± 0.4 ns/op``.
Every entry is written, null where it is unknown, except a row's ``machine``, which only a
merged run's rows carry. The compare document the report was built from is embedded as it was
read (``perfproof.compare/1``).
"""

from __future__ import annotations

from typing import ClassVar

from pydantic import Field

from perfproof.model.documents.codec import Document, absent
from perfproof.model.documents.compare import GeoMeanDoc
from perfproof.model.enums import DecidedFamily

REPORT_SCHEMA = "perfproof.report/1"


class Block(Document):
    """A part of the report: its nulls written (the document says "unknown" as null)."""

    nulls_written: ClassVar[bool] = True


class SideDoc(Block):
    """One side of a row: the text shown and the numbers it was formatted from (its interval
    at the row's level)."""

    text: str
    estimate: float
    ci: list[float]
    forks: int
    unit: str


class DeltaDoc(Block):
    text: str
    pct: float
    ci_pct: list[float]
    interval_confidence: float | None


class DriftDoc(Block):
    found: bool
    p_value: float
    keys: int
    shifts: dict[str, float]
    """Round → its level relative to round 1 across keys, time per operation − 1."""


class RoundsDoc(Block):
    """The run by round: what the rounds say about the machine, each key's ratio per round."""

    text: str
    header: list[str]
    rows: list[list[str]]
    drift: DriftDoc | None


class BytesDoc(Block):
    """The bytes/op comparison of the row's key."""

    text: str
    baseline: float
    feature: float
    delta_pct: float
    verdict: str


class RowDoc(Block):
    params: dict[str, str]
    baseline: SideDoc
    feature: SideDoc
    delta: DeltaDoc
    verdict: str
    reach: str | None
    """Beside the verdict: ``no static path`` or ``not in a recording`` (the change may not
    run in the benchmark); null where it reaches or nothing is known."""
    p_adjusted: float | None
    family: DecidedFamily
    display_unit: str
    machine: str | None = Field(None, exclude_if=absent)
    """Only for a merged run, where each key names the machine that measured it."""
    bytes: BytesDoc | None
    costs: dict[str, BytesDoc] = Field(default_factory=dict)
    """Off-heap bytes and GC costs per operation, by metric (as bytes/op is written)."""


class TableDoc(Block):
    benchmark: str
    mode: str
    param_names: list[str]
    rows: list[RowDoc]


class LabelledDoc(Block):
    label: str
    value: str


class StepDoc(Block):
    caption: str
    command: str


class ReproduceDoc(Block):
    note: str
    steps: list[StepDoc]


class WarningDoc(Block):
    about: str
    items: list[str]


class JmhRowDoc(Block):
    label: str
    baseline: str
    feature: str
    overlap: str


class JmhTableDoc(Block):
    caption: str
    text: str


class JmhDoc(Block):
    view: list[JmhRowDoc]
    tables: list[JmhTableDoc]


class ReportDocument(Block):
    """The whole report (before non-finite numbers become null)."""

    schema_: str = Field(REPORT_SCHEMA, alias="schema")
    run_dir: str
    title: str
    summary: str
    digest: list[str]
    rounds: RoundsDoc | None
    results: list[TableDoc]
    geomean: list[GeoMeanDoc]
    methodology: list[LabelledDoc]
    reproduce: ReproduceDoc
    warnings: list[WarningDoc]
    jmh: JmhDoc
    compare: dict[str, object]
