"""A run's reports rendered from what the pipeline holds in memory (manifest and results
document) are the reports ``perfproof report`` renders from the folder."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from perfproof.model.documents.compare import SCHEMA, CompareDocument
from perfproof.report import FILE_NAMES, render, write_run_reports
from perfproof.report.markdown import results_section
from perfproof.report.rundir import find_compare_document, read_manifest, run_in_memory

RUNS = Path(__file__).parents[1] / "fixtures" / "runs"
FOLDERS = sorted(
    p.name
    for p in RUNS.iterdir()
    if (p / "results.json").is_file() and (p / "manifest.json").is_file()
)


@pytest.mark.parametrize("name", FOLDERS)
def test_reports_from_memory_are_the_reports_read_back(name: str, tmp_path: Path) -> None:
    run_dir = tmp_path / name
    shutil.copytree(RUNS / name, run_dir)
    for fmt in ("md", "html"):
        (run_dir / FILE_NAMES[fmt]).unlink(missing_ok=True)
    written = find_compare_document(json.loads((run_dir / "results.json").read_text()))
    assert written is not None
    document = CompareDocument.read({"schema": SCHEMA, **written}, "results.json")
    run = run_in_memory(run_dir, read_manifest(run_dir / "manifest.json"), document)
    written, ctx = write_run_reports(run)
    assert written == [run_dir / "report.md", run_dir / "report.html"] and ctx is not None
    for fmt, path in zip(("md", "html"), written, strict=True):
        assert path.read_text() == render(run_dir, fmt)
    assert results_section(ctx) in (run_dir / "report.md").read_text()
