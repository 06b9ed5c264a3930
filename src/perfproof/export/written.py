"""What ``perfproof export --format json`` prints: the files it wrote and what each holds.

A CI step that exports and then uploads or posts the files wants their paths and sizes without
listing folders or parsing four formats back; ``perfproof.export/1`` gives them, with the runs
they came from (run id, commits, time, machine name), under field names that only grow.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from perfproof.export.source import ExportFile, ExportRun

EXPORT_SCHEMA = "perfproof.export/1"


@dataclass(frozen=True)
class Written:
    """One file on disk: where, and what it holds."""

    path: Path
    file: ExportFile

    def to_json(self) -> dict[str, Any]:
        return {
            "path": str(self.path),
            "keys": self.file.keys,
            "rows": self.file.rows,
            "bytes": len(self.file.text.encode("utf-8")),
            "omitted_intervals": list(self.file.omitted),
        }


def run_doc(run: ExportRun) -> dict[str, Any]:
    return {
        "run_dir": str(run.path),
        "run_id": run.run_id,
        "commit": run.commits.get("head"),
        "base_commit": run.commits.get("base"),
        "time": run.time,
        "machine": run.machine,
    }


def export_document(
    fmt: str,
    runs: Sequence[ExportRun],
    written: Sequence[Written],
    metrics: Sequence[str],
    samples: str | None,
) -> dict[str, Any]:
    """``samples`` is what a benchstat sample is in the file (forks or iterations), else None."""
    return {
        "schema": EXPORT_SCHEMA,
        "format": fmt,
        "metrics": list(metrics),
        "samples": samples,
        "runs": [run_doc(r) for r in runs],
        "files": [w.to_json() for w in written],
    }
