"""Exports of a run to the formats CI dashboards already read, one module per format.

``bencher`` (Bencher Metric Format JSON), ``github-action-benchmark`` (its two custom JSON
tools, one file per direction), ``benchstat`` (Go benchmark text, read by benchstat) and
``otava`` (Apache Otava CSV). Every format exports the same fork-level numbers
(``export.source``); adding a format means adding one module and one line here.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from perfproof.errors import InputError
from perfproof.export import bencher, github_action, gobench, otava
from perfproof.export.source import ExportRun, load
from perfproof.model import ALLOC_NORM, PRIMARY

DEFAULT_METRICS = (PRIMARY, ALLOC_NORM)


def _one(render: Callable[[ExportRun, tuple[str, ...]], dict[str, str]]):
    def wrapped(runs: list[ExportRun], metrics: tuple[str, ...]) -> dict[str, str]:
        if len(runs) != 1:
            raise InputError("this format takes exactly one RUN_DIR")
        return render(runs[0], metrics)

    return wrapped


FORMATS: dict[str, Callable[[list[ExportRun], tuple[str, ...]], dict[str, str]]] = {
    "bencher": _one(bencher.render),
    "github-action-benchmark": _one(github_action.render),
    "benchstat": gobench.render,
    "otava": otava.render,
}


def check_format(name: str) -> None:
    if name not in FORMATS:
        raise InputError(f"--to {name}: unknown export format (one of: {', '.join(FORMATS)})")


def export(
    paths: list[Path], fmt: str, metrics: tuple[str, ...] = DEFAULT_METRICS
) -> tuple[list[ExportRun], dict[str, str]]:
    """Read the run folders and render them: ``(runs, {file name: text})``."""
    check_format(fmt)
    runs = [load(p) for p in paths]
    files = FORMATS[fmt](runs, metrics)
    if not files:
        raise InputError(f"{paths[0]}: nothing to export in this format")
    return runs, files


def targets(runs: list[ExportRun], files: dict[str, str], out: str | None) -> dict[Path, str]:
    """Where each file goes: ``--out`` (a file, or a folder for several files), else
    ``RUN_DIR/export/``. A target that is one of the run's own files is refused."""
    if out is None:
        folder = runs[0].path / "export"
        placed = {folder / name: text for name, text in files.items()}
    elif len(files) == 1:
        placed = {Path(out): next(iter(files.values()))}
    else:
        placed = {Path(out) / name: text for name, text in files.items()}
    inputs = {p for run in runs for p in run.inputs}
    for target in placed:
        resolved = target.resolve()
        inside_jmh = any(resolved.is_relative_to((run.path / "jmh").resolve()) for run in runs)
        if resolved in inputs or inside_jmh:
            raise InputError(f"--out {target}: is an input of the export; choose another file")
    return placed
