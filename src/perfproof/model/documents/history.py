"""The history's documents: ``perfproof.history/1`` (``history show``), ``perfproof.changes/1``
(``history changes``) and ``perfproof.history-record/1`` (``history record``), each with
``--format json``; ``history.render`` fills them with the numbers its tables print."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from perfproof.model.documents.codec import Document

HISTORY_SCHEMA = "perfproof.history/1"
CHANGES_SCHEMA = "perfproof.changes/1"
RECORD_SCHEMA = "perfproof.history-record/1"


class KeyDoc(Document):
    """Which series: the key, its unit and direction, and the machine it was measured on."""

    benchmark: str
    mode: str
    params: dict[str, str]
    metric: str
    unit: str
    direction: str
    machine: str | None


class PointDoc(Document):
    """One run of a series: the run, its commit and time, the estimate and the fork means."""

    run: str
    uid: str
    commit: str | None
    branch: str | None
    time: str
    estimate: float
    ci: tuple[float | None, float | None]
    forks: int
    fork_means: list[float]


class SeriesDoc(KeyDoc):
    points: list[PointDoc]


class HistoryDocument(Document):
    """``perfproof.history/1``: every series with its points."""

    schema_: str = Field(HISTORY_SCHEMA, alias="schema")
    confidence: float
    machine: str | None
    machines: list[str | None]
    keys: list[SeriesDoc]


class ChangeDoc(KeyDoc):
    """A change point of one series: where, what kind, the levels around it and its test."""

    index: int
    run: str
    commit: str | None
    time: str
    kind: Literal["regressed", "improved"]
    before: float
    after: float
    ratio: float
    ratio_ci: tuple[float, float]
    delta_pct: float
    delta_ci_pct: tuple[float, float]
    p_value: float


class ChangeSearch(Document):
    """The settings the change points were searched with."""

    confidence: float
    threshold: float
    seed: int
    p_max: float
    permutations: int
    branch: str | None
    machine: str | None


class ChangesDocument(Document):
    """``perfproof.changes/1``: the change points found, with the search's settings."""

    schema_: str = Field(CHANGES_SCHEMA, alias="schema")
    options: ChangeSearch
    keys: int
    machines: list[str | None]
    changes: list[ChangeDoc]


class RecordedDoc(Document):
    """One recorded argument: the record's identity, its machine, and what it holds."""

    source: str
    kind: str
    uid: str
    run_id: str | None
    commit: str | None
    base_commit: str | None
    branch: str | None
    time: str | None
    machine: str | None
    new: bool
    keys: int
    rows: int
    comparisons: int


class RecordDocument(Document):
    """``perfproof.history-record/1``: the database (password hidden) and every record."""

    schema_: str = Field(RECORD_SCHEMA, alias="schema")
    database: str
    backend: str
    recorded: int
    already_recorded: int
    records: list[RecordedDoc]
