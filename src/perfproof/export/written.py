"""What ``perfproof export --format json`` prints: the files it wrote and what each holds.

A CI step that exports and then uploads or posts the files wants their paths and sizes without
listing folders or parsing four formats back; ``perfproof.export/1`` gives them, with the runs
they came from (run id, commits, time, machine name), under field names that only grow.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from pydantic import Field, JsonValue

from perfproof.export.source import ExportFile, ExportRun
from perfproof.model.documents.codec import Document
from perfproof.model.enums import ExportFormat, SampleUnit

EXPORT_SCHEMA = "perfproof.export/1"


@dataclass(frozen=True)
class Written:
    """One file on disk: where, and what it holds."""

    path: Path
    file: ExportFile


class FileDoc(Document):
    """A written file: its path, keys and rows, size, and the intervals it could not carry."""

    path: str
    keys: int
    rows: int
    bytes: int
    omitted_intervals: list[str]

    @classmethod
    def of(cls, w: Written) -> FileDoc:
        return cls(
            path=str(w.path),
            keys=w.file.keys,
            rows=w.file.rows,
            bytes=len(w.file.text.encode("utf-8")),
            omitted_intervals=list(w.file.omitted),
        )


class RunDoc(Document):
    """A run the files came from: its folder, id, commits, time and machine name."""

    run_dir: str
    run_id: str
    commit: str | None
    base_commit: str | None
    time: str
    machine: str | None

    @classmethod
    def of(cls, run: ExportRun) -> RunDoc:
        return cls(
            run_dir=str(run.path),
            run_id=run.run_id,
            commit=run.commits.get("head"),
            base_commit=run.commits.get("base"),
            time=run.time,
            machine=run.machine,
        )


class ExportDocument(Document):
    """``perfproof.export/1``."""

    schema_: str = Field(EXPORT_SCHEMA, alias="schema")
    format: str
    metrics: list[str]
    samples: str | None
    """What a benchstat sample is in the file (forks or iterations), else None."""
    runs: list[RunDoc]
    files: list[FileDoc]


def export_document(
    fmt: ExportFormat,
    runs: Sequence[ExportRun],
    written: Sequence[Written],
    metrics: Sequence[str],
    samples: SampleUnit | None,
) -> dict[str, JsonValue]:
    """``samples`` is what a benchstat sample is in the file (forks or iterations), else None."""
    doc = ExportDocument(
        format=fmt,
        metrics=list(metrics),
        samples=samples,
        runs=[RunDoc.of(r) for r in runs],
        files=[FileDoc.of(w) for w in written],
    )
    return doc.model_dump(mode="json", by_alias=True)
