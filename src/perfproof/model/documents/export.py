"""``perfproof.export/1``: what ``perfproof export --format json`` prints, the files it wrote
and what each holds.

A CI step that exports and then uploads or posts the files wants their paths and sizes without
listing folders or parsing four formats back; this document gives them, with the runs they
came from (run id, commits, time, machine name), under field names that only grow.
"""

from __future__ import annotations

from pydantic import Field

from perfproof.model.documents.codec import Document

EXPORT_SCHEMA = "perfproof.export/1"


class FileDoc(Document):
    """A written file: its path, keys and rows, size, and the intervals it could not carry."""

    path: str
    keys: int
    rows: int
    bytes: int
    omitted_intervals: list[str]
    not_compared: list[str]
    """Metrics measured and asked for that the file has no rows of, each with why (a CSV of
    an old run's comparisons; see ``ExportFile.not_compared``)."""


class RunDoc(Document):
    """A run the files came from: its folder, id, commits, time and machine name."""

    run_dir: str
    run_id: str
    commit: str | None
    base_commit: str | None
    time: str
    machine: str | None


class ExportDocument(Document):
    """The export's format, metrics and benchstat sample, the runs and the files."""

    schema_: str = Field(EXPORT_SCHEMA, alias="schema")
    format: str
    metrics: list[str]
    samples: str | None
    """What a benchstat sample is in the file (forks or iterations), else None."""
    runs: list[RunDoc]
    files: list[FileDoc]


class ActionEntry(Document):
    """One entry of a github-action-benchmark custom tool's file (``export --to
    github-action``), as the action reads it."""

    name: str
    unit: str
    value: float
    range: str | None = None
    """``± 1.23``: left out when the interval is wider than 1,000× the value."""
    extra: str
