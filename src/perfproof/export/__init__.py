"""Exports of a run to the formats CI dashboards already read, one module per format.

``bencher`` (Bencher Metric Format JSON), ``github-action-benchmark`` (its two custom JSON
tools, one file per direction), ``benchstat`` (Go benchmark text, read by benchstat) and
``otava`` (Apache Otava CSV with its test config) and ``csv`` (the comparisons, one row per
key). Every format exports the same fork-level numbers
(``export.source``); adding a format means adding one module and one line here.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from pathlib import Path

from perfproof.errors import InputError
from perfproof.export import bencher, csv_table, github_action, gobench, otava
from perfproof.export.source import ExportFile, ExportOptions, ExportRun, load
from perfproof.model import ALLOC_NORM, PRIMARY
from perfproof.model.enums import ExportFormat, SampleUnit
from perfproof.model.metrics import GC_COSTS, OFF_HEAP
from perfproof.storage import check_output_file, check_output_folder

DEFAULT_METRICS = (PRIMARY, ALLOC_NORM, *OFF_HEAP, *GC_COSTS)
"""Time, heap and off-heap bytes/op, GC time and collections per op (the costs only for keys
that have any on some side)."""


Render = Callable[[list[ExportRun], ExportOptions], dict[str, ExportFile]]


def _one(render: Callable[[ExportRun, ExportOptions], dict[str, ExportFile]]) -> Render:
    def wrapped(runs: list[ExportRun], options: ExportOptions) -> dict[str, ExportFile]:
        if len(runs) != 1:
            raise InputError("this format takes exactly one RUN_DIR")
        return render(runs[0], options)

    return wrapped


FORMATS: dict[ExportFormat, Render] = {
    ExportFormat.BENCHER: _one(bencher.render),
    ExportFormat.GITHUB_ACTION: _one(github_action.render),
    ExportFormat.BENCHSTAT: gobench.render,
    ExportFormat.OTAVA: otava.render,
    ExportFormat.CSV: csv_table.render,
}


FOLDER_FORMATS = frozenset({ExportFormat.GITHUB_ACTION, ExportFormat.OTAVA})
"""Formats whose output is a folder whatever the run holds: the action takes one file per
direction, so a suite with one direction today writes one file and two tomorrow, and a CI
step must be able to point at the same ``--out`` both days; Otava's ``otava.yaml`` names the
CSV files beside it."""


def export_format(name: str) -> ExportFormat:
    """``--to NAME`` read at the door: the format, or one line naming the formats there are."""
    if name not in set(ExportFormat):
        raise InputError(f"--to {name}: unknown export format (one of: {', '.join(FORMATS)})")
    return ExportFormat(name)


def export(
    paths: list[Path],
    fmt: ExportFormat,
    metrics: tuple[str, ...] = DEFAULT_METRICS,
    samples: SampleUnit = SampleUnit.AUTO,
) -> tuple[list[ExportRun], dict[str, ExportFile]]:
    """Read the run folders and render them: ``(runs, {file name: file})``."""
    _refuse_repeated(paths)
    runs = [load(p) for p in paths]
    _refuse_copies(runs)
    files = FORMATS[ExportFormat(fmt)](runs, ExportOptions(metrics, samples))
    if not files:
        raise InputError(f"{paths[0]}: nothing to export in this format")
    return runs, files


def targets(
    runs: list[ExportRun],
    files: dict[str, ExportFile],
    out: str | None,
    fmt: ExportFormat | None = None,
) -> dict[Path, ExportFile]:
    """Where each file goes: ``--out`` (a file, or a folder for a format that writes a
    folder), else ``RUN_DIR/export/``. A target inside a run folder other than its
    ``export/`` that already exists (a recording, the manifest, the run's own report), or
    anywhere under its ``jmh/``, is refused: the run's evidence is never overwritten."""
    if out is None:
        folder = runs[0].path / "export"
        placed = {folder / name: file for name, file in files.items()}
    elif fmt in FOLDER_FORMATS or len(files) > 1:
        if out == "-":
            raise InputError(f"--out -: {fmt or 'this format'} writes a folder; name a folder")
        if Path(out).exists() and not Path(out).is_dir():
            raise InputError(f"--out {out}: {fmt or 'this format'} writes a folder; name a folder")
        check_output_folder(out, "--out")
        placed = {Path(out) / name: file for name, file in files.items()}
    else:
        check_output_file(out, "--out")
        placed = {Path(out): next(iter(files.values()))}
    inputs = {p for run in runs for p in run.inputs}
    for target in placed:
        resolved = target.resolve()
        inside_run = any(
            resolved.is_relative_to((run.path / "jmh").resolve())
            or (
                resolved.exists()
                and resolved.is_relative_to(run.path.resolve())
                and not resolved.is_relative_to((run.path / "export").resolve())
            )
            for run in runs
        )
        if resolved in inputs or inside_run:
            raise InputError(
                f"--out {target}: is a file of the run folder; choose a file outside it "
                "or under its export/"
            )
    return placed


def _refuse_copies(runs: list[ExportRun]) -> None:
    """A copy of a run folder is the same run (the same measurements in its files): exported
    twice it would be two identical rows, one measurement counted as two points of a series."""
    seen: dict[str, ExportRun] = {}
    for run in runs:
        digest = hashlib.sha256()
        for path in sorted(run.inputs, key=lambda p: p.name):
            try:
                digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
            except OSError:
                continue
        first = seen.setdefault(digest.hexdigest(), run)
        if first is not run and run.inputs:
            raise InputError(
                f"{run.path}: the same run as {first.path} (the same measurements), given twice"
            )


def _refuse_repeated(paths: list[Path]) -> None:
    """A run named twice would export every value twice (two points on one commit)."""
    seen: dict[Path, Path] = {}
    for p in paths:
        real = p.resolve()
        if real in seen:
            raise InputError(f"{p}: the same run folder as {seen[real]}, given twice")
        seen[real] = p
