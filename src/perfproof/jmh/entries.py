"""The parts of a raw JMH result entry that the report and the audit quote as JMH printed them.

:mod:`perfproof.jmh.reader` turns entries into samples for the statistics; the JMH table of a
report and the check of a PR body also need JMH's own score, error and unit per metric, and
how many forks and iterations stand behind them. The field names of JMH's JSON stay here: the
other packages ask for a metric's score, not for ``primaryMetric.scoreError``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from perfproof.jmh.names import normalise_metric
from perfproof.model import ALLOC_NORM, PRIMARY

Metric = dict[str, Any]
"""One metric object of an entry, as JMH wrote it."""


@dataclass(frozen=True)
class Score:
    """JMH's score ± error and unit of one metric, the values as written (not checked)."""

    score: Any
    error: Any
    unit: str


def compared_metrics(entry: dict[str, Any]) -> list[tuple[str, str, Metric]]:
    """The metrics perfproof compares of one entry: (``primary`` or ``gc.alloc.rate.norm``,
    the name JMH gave it, the metric) — the primary first, then the allocation rate."""
    out: list[tuple[str, str, Metric]] = [(PRIMARY, PRIMARY, entry.get("primaryMetric") or {})]
    for name, metric in (entry.get("secondaryMetrics") or {}).items():
        if normalise_metric(name) == ALLOC_NORM:
            out.append((ALLOC_NORM, name, metric))
    return out


def score_of(metric: Metric) -> Score:
    return Score(metric.get("score"), metric.get("scoreError"), str(metric.get("scoreUnit", "")))


def iteration_count(metric: Metric) -> int:
    """Measurement iterations behind a metric, all forks together (raw values or histograms)."""
    raw = metric.get("rawData")
    if raw:
        return sum(len(f) for f in raw)
    hist = metric.get("rawDataHistogram")
    if hist:
        return sum(len(f) for f in hist)
    return 0


def fork_count(entry: dict[str, Any]) -> int:
    """Forks behind an entry's primary metric (0 when JMH kept no raw values)."""
    return len(entry.get("primaryMetric", {}).get("rawData") or [])
