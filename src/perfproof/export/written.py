"""What ``perfproof export --format json`` prints (``perfproof.export/1``, typed in
:mod:`perfproof.model.documents.export`), filled from the files written and the runs."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from pydantic import JsonValue

from perfproof.export.source import ExportFile, ExportRun
from perfproof.model.documents.export import ExportDocument, FileDoc, RunDoc
from perfproof.model.enums import ExportFormat, SampleUnit


@dataclass(frozen=True)
class Written:
    """One file on disk: where, and what it holds."""

    path: Path
    file: ExportFile


def _file_doc(w: Written) -> FileDoc:
    return FileDoc(
        path=str(w.path),
        keys=w.file.keys,
        rows=w.file.rows,
        bytes=len(w.file.text.encode("utf-8")),
        omitted_intervals=list(w.file.omitted),
        not_compared=list(w.file.not_compared),
    )


def _run_doc(run: ExportRun) -> RunDoc:
    return RunDoc(
        run_dir=str(run.path),
        run_id=run.run_id,
        commit=run.commits.get("head"),
        base_commit=run.commits.get("base"),
        time=run.time,
        machine=run.machine,
    )


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
        runs=[_run_doc(r) for r in runs],
        files=[_file_doc(w) for w in written],
    )
    return doc.model_dump(mode="json", by_alias=True)
