"""github-action-benchmark's custom tools: ``customSmallerIsBetter`` and ``customBiggerIsBetter``.

The action takes one tool per file, and a tool fixes the direction, so the export writes one
file per direction: times and bytes/op (smaller is better) in one, throughputs in the other.
Each entry names the benchmark with its @Param values and the metric, and gives the fork-level
interval as ``range`` (left out, as the action allows, when wider than 1,000× the value) and
the commit, forks and JDK as ``extra``.
"""

from __future__ import annotations

import numpy as np

from perfproof.export.source import ExportFile, ExportOptions, ExportRun, display_name
from perfproof.model.documents import dumps
from perfproof.model.documents.export import ActionEntry
from perfproof.units import short_sha

FILES = {"lower": "customSmallerIsBetter.json", "higher": "customBiggerIsBetter.json"}


def render(run: ExportRun, options: ExportOptions) -> dict[str, ExportFile]:
    out: dict[str, list[ActionEntry]] = {"lower": [], "higher": []}
    omitted: dict[str, list[str]] = {"lower": [], "higher": []}
    commit = run.commits.get("head") or "unknown commit"
    for value in run.values("head"):
        if value.key.metric not in options.metrics:
            continue
        name = display_name(value.key, with_metric=True)
        shown = None
        if value.lo is not None and value.hi is not None:
            # the action shows ``range`` as the benchmark tools it reads print it: ``± 1.23``,
            # in plain digits (``± 2.25847e+06`` is not a number those tools print)
            half = max(value.hi - value.mean, value.mean - value.lo)
            shown = "± " + np.format_float_positional(
                half, precision=6, unique=False, fractional=False, trim="-"
            )
        interval = (
            f"{run.confidence:.0%} CI {value.lo:.6g} to {value.hi:.6g}; "
            if value.lo is not None and value.hi is not None
            else ""
        )
        if value.omitted is not None:
            omitted[value.direction].append(f"{name}: {value.omitted}")
            interval = "interval left out: wider than 1,000× the value; "
        extra = (
            f"{interval}commit {short_sha(commit)}; {len(value.fork_means)} forks; "
            f"JDK {run.jdk or 'unknown'}"
        )
        entry = ActionEntry(name=name, unit=value.unit, value=value.mean, range=shown, extra=extra)
        out[value.direction].append(entry)
    return {
        FILES[d]: ExportFile(
            dumps([e.dump() for e in entries]), len(entries), len(entries), tuple(omitted[d])
        )
        for d, entries in out.items()
        if entries
    }
