"""Apache Otava CSV: one row per run (``time``, ``commit``, one column per metric).

Otava finds change points in such a table; exporting several run folders at once gives it a
series. Column names are the benchmark with its @Param values (joined with ``;`` so no comma
needs quoting) plus the metric when not the primary one; the value is the head side's mean of
fork means. Times use the ``YYYY.MM.DD HH:MM:SS +0000`` form Otava's examples use.
"""

from __future__ import annotations

import csv
import io
from datetime import datetime

from perfproof.export.source import ExportFile, ExportOptions, ExportRun, display_name


def _otava_time(iso: str) -> str:
    return datetime.fromisoformat(iso).strftime("%Y.%m.%d %H:%M:%S +0000")


def render(runs: list[ExportRun], options: ExportOptions) -> dict[str, ExportFile]:
    rows: list[dict[str, str]] = []
    columns: dict[str, None] = {}
    for run in sorted(runs, key=lambda r: r.time):
        row = {"time": _otava_time(run.time), "commit": run.commits.get("head") or run.run_id}
        for value in run.values("head"):
            if value.key.metric in options.metrics:
                name = display_name(value.key, with_metric=True)
                columns.setdefault(name)
                row[name] = f"{value.mean:.6g}"
        rows.append(row)
    buf = io.StringIO()
    writer = csv.DictWriter(buf, fieldnames=["time", "commit", *columns], lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    return {"otava.csv": ExportFile(buf.getvalue(), len(columns), len(rows))}
