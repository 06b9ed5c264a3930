"""Apache Otava: CSV series (one row per run) and the ``otava.yaml`` test config that reads them.

Otava finds change points in a table of runs; exporting several run folders at once gives it a
series. A CSV alone is not enough: Otava takes every CSV metric as higher-is-better unless its
config says ``direction: -1``, so a slowdown in ns/op or a rise in B/op would read as an
improvement. The export therefore writes ``otava.yaml`` beside the CSV, naming each metric
with its direction. Otava 0.8's CSV metric config has no unit field (its metric unit is always
empty), so the unit rides in the column and metric name (``fx.Codes.sum(n=16) [us/op]``): the
report shows it, and a benchmark whose unit changed between runs becomes a second series
instead of mixing us and ns in one.

Otava aborts on an empty cell and accepts ``nan``, but a single ``nan`` blinds its detection
for the whole column. So there are no missing cells: columns present in the same runs share
one CSV holding just those runs (``otava.csv`` for the largest set, ``otava-2.csv``, … for
benchmarks added, dropped or filtered out in some runs), each an Otava test, all in the group
``perfproof-all``. Values are the head side's mean of fork means.
"""

from __future__ import annotations

import csv
import io
import json
from dataclasses import dataclass
from datetime import datetime

from perfproof.export.source import ExportFile, ExportOptions, ExportRun, display_name

GROUP = "perfproof-all"
"""The Otava test group naming every test the export wrote: ``otava analyze perfproof-all``."""

CONFIG = "otava.yaml"
DIRECTION = {"lower": -1, "higher": 1}


@dataclass(frozen=True)
class _Column:
    name: str
    direction: int


@dataclass(frozen=True)
class _Series:
    """One Otava test: columns present in exactly the same runs, and those runs' rows."""

    test: str
    file: str
    columns: tuple[_Column, ...]
    rows: tuple[dict[str, str], ...]


def _otava_time(iso: str) -> str:
    return datetime.fromisoformat(iso).strftime("%Y-%m-%d %H:%M:%S +0000")


def _table(
    runs: list[ExportRun], options: ExportOptions
) -> tuple[list[dict[str, str]], dict[str, _Column]]:
    rows: list[dict[str, str]] = []
    columns: dict[str, _Column] = {}
    for run in sorted(runs, key=lambda r: r.time):
        row = {"time": _otava_time(run.time), "commit": run.commits.get("head") or run.run_id}
        for value in run.values("head"):
            if value.key.metric in options.metrics:
                name = f"{display_name(value.key, with_metric=True)} [{value.unit}]"
                columns.setdefault(name, _Column(name, DIRECTION.get(value.direction, 1)))
                row[name] = f"{value.mean:.6g}"
        rows.append(row)
    return rows, columns


def _series(rows: list[dict[str, str]], columns: dict[str, _Column]) -> list[_Series]:
    """Split the columns by the set of runs that have them; the largest set comes first."""
    by_runs: dict[tuple[int, ...], list[_Column]] = {}
    for column in columns.values():
        present = tuple(i for i, row in enumerate(rows) if column.name in row)
        by_runs.setdefault(present, []).append(column)
    order = sorted(by_runs, key=len, reverse=True)  # stable: ties keep column order
    out = []
    for n, present in enumerate(order, start=1):
        suffix = "" if n == 1 else f"-{n}"
        out.append(
            _Series(
                test=f"perfproof{suffix}",
                file=f"otava{suffix}.csv",
                columns=tuple(by_runs[present]),
                rows=tuple(rows[i] for i in present),
            )
        )
    return out


def _csv(series: _Series) -> ExportFile:
    buf = io.StringIO()
    names = ["time", "commit", *(c.name for c in series.columns)]
    writer = csv.DictWriter(buf, fieldnames=names, extrasaction="ignore", lineterminator="\n")
    writer.writeheader()
    writer.writerows(series.rows)
    return ExportFile(buf.getvalue(), len(series.columns), len(series.rows))


def _q(text: str) -> str:
    """A YAML double-quoted scalar (JSON's string syntax is a subset of it)."""
    return json.dumps(text, ensure_ascii=False, allow_nan=False)


def _config(all_series: list[_Series]) -> ExportFile:
    """The test config; its rows are its metric entries, one per key of the CSVs."""
    lines = [
        "# Apache Otava tests for perfproof's CSV export. File paths are relative to the",
        "# folder Otava runs in: cd to this folder, then",
        f"#   otava analyze {GROUP} --config-file {CONFIG}",
        "# direction -1: lower is better (times, bytes/op); 1: higher is better (throughput).",
        "tests:",
    ]
    for s in all_series:
        lines += [
            f"  {s.test}:",
            "    type: csv",
            f"    file: {s.file}",
            "    time_column: time",
            "    attributes: [commit]",
            "    metrics:",
        ]
        for c in s.columns:
            lines += [f"      {_q(c.name)}:", f"        column: {_q(c.name)}"]
            lines.append(f"        direction: {c.direction}")
    lines += ["test_groups:", f"  {GROUP}: [{', '.join(s.test for s in all_series)}]"]
    keys = sum(len(s.columns) for s in all_series)
    return ExportFile("\n".join(lines) + "\n", keys, keys)


def render(runs: list[ExportRun], options: ExportOptions) -> dict[str, ExportFile]:
    rows, columns = _table(runs, options)
    if not columns:
        return {}
    all_series = _series(rows, columns)
    files = {s.file: _csv(s) for s in all_series}
    files[CONFIG] = _config(all_series)
    return files
