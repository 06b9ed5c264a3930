"""A raw JMH result entry, typed, as the report and the audit quote it as JMH printed it.

:mod:`perfproof.jmh.reader` turns entries into samples for the statistics, refusing a file
that is not JMH output. The JMH tables of a report, its methodology and the check of a PR body
read the raw files of a run folder as they are, and need JMH's own score, error and unit per
metric, how many forks and iterations stand behind them, and the settings and versions JMH
recorded. :meth:`JmhEntry.read` reads those once, leniently (a field JMH did not write, or
wrote in another shape, is "not recorded", a score that is not a number is NaN), so the
readers ask for ``entry.metrics[0].score`` and never for ``primaryMetric.scoreError``: the
field names of JMH's JSON stay here.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from perfproof.jmh.names import normalise_metric
from perfproof.jmh.reader import entry_key
from perfproof.model import ALLOC_NORM, PRIMARY, BenchKey
from perfproof.model.metrics import OFF_HEAP

Setting = str | int | float | None
"""A setting as JMH wrote it (``5``, ``"10 s"``); None when it wrote none."""


def _number(value: object) -> float:
    """JMH's score or error: a number, or JMH's ``"NaN"``; anything else is NaN."""
    if not isinstance(value, int | float | str):
        return math.nan
    try:
        return float(value)
    except ValueError:
        return math.nan


def _text(value: object) -> str | None:
    return None if value is None else str(value)


def _setting(value: object) -> Setting:
    if value is None or isinstance(value, str | int | float):
        return value
    return str(value)


def _mapping(value: object) -> Mapping[str, object]:
    return value if isinstance(value, Mapping) else {}


def _length(value: object) -> int:
    return len(value) if isinstance(value, list) else 0


@dataclass(frozen=True)
class JmhMetric:
    """One metric of an entry as JMH printed it."""

    name: str
    """``primary``, ``gc.alloc.rate.norm`` or an off-heap bytes/op: the metric perfproof
    compares."""
    written: str
    """The name JMH gave it (``primary``, ``·gc.alloc.rate.norm``, ``gc.alloc.rate.norm``)."""
    score: float
    error: float
    unit: str
    iterations: int
    """Measurement iterations behind it, all forks together (raw values or histograms)."""
    forks: int
    """Forks with raw values (0 when JMH kept none)."""

    @classmethod
    def read(cls, name: str, written: str, value: object) -> JmhMetric:
        m = _mapping(value)
        raw = m.get("rawData")
        per_fork = raw if raw else m.get("rawDataHistogram")
        return cls(
            name=name,
            written=written,
            score=_number(m.get("score")),
            error=_number(m.get("scoreError")),
            unit=str(m.get("scoreUnit", "")),
            iterations=sum(_length(f) for f in per_fork) if isinstance(per_fork, list) else 0,
            forks=_length(raw),
        )


@dataclass(frozen=True)
class JmhEntry:
    """One entry (benchmark, mode, @Param values) of a raw JMH result file."""

    benchmark: str | None
    mode: str | None
    params: dict[str, str]
    key: BenchKey | None
    """The entry's key, None when the entry is not one the comparison could have read."""
    metrics: list[JmhMetric]
    """The metrics perfproof compares as JMH printed them: the primary first, then heap and
    off-heap bytes per operation."""
    jmh_version: str | None = None
    vm_name: str | None = None
    vm_version: str | None = None
    jdk_version: str | None = None
    jvm_args: tuple[str, ...] = ()
    forks: Setting = None
    warmup_iterations: Setting = None
    warmup_time: Setting = None
    measurement_iterations: Setting = None
    measurement_time: Setting = None
    threads: Setting = None
    jvm: str | None = None
    """The java executable the forks ran on."""

    @property
    def fork_count(self) -> int:
        """Forks behind the primary metric (0 when JMH kept no raw values)."""
        return self.metrics[0].forks

    @classmethod
    def read(cls, entry: Mapping[str, object]) -> JmhEntry:
        params = entry.get("params")
        metrics = [JmhMetric.read(PRIMARY, PRIMARY, entry.get("primaryMetric"))]
        for written, metric in _mapping(entry.get("secondaryMetrics")).items():
            name = normalise_metric(written)
            if name in (ALLOC_NORM, *OFF_HEAP):
                metrics.append(JmhMetric.read(name, written, metric))
        args = entry.get("jvmArgs")
        return cls(
            benchmark=_text(entry.get("benchmark")),
            mode=_text(entry.get("mode")),
            params={str(k): str(v) for k, v in _mapping(params).items()},
            key=_key(entry),
            metrics=metrics,
            jmh_version=_text(entry.get("jmhVersion")),
            vm_name=_text(entry.get("vmName")),
            vm_version=_text(entry.get("vmVersion")),
            jdk_version=_text(entry.get("jdkVersion")),
            jvm_args=tuple(str(a) for a in args) if isinstance(args, list) else (),
            forks=_setting(entry.get("forks")),
            warmup_iterations=_setting(entry.get("warmupIterations")),
            warmup_time=_setting(entry.get("warmupTime")),
            measurement_iterations=_setting(entry.get("measurementIterations")),
            measurement_time=_setting(entry.get("measurementTime")),
            threads=_setting(entry.get("threads")),
            jvm=_text(entry.get("jvm")),
        )


def _key(entry: Mapping[str, object]) -> BenchKey | None:
    try:
        return entry_key(dict(entry))
    except (KeyError, TypeError, ValueError):
        return None


def read_entries(doc: list[object]) -> list[JmhEntry]:
    """The entries of one raw file (anything in it that is not an object is left out)."""
    return [JmhEntry.read(e) for e in doc if isinstance(e, dict)]


def read_entry_file(path: Path) -> list[JmhEntry] | None:
    """The entries of a raw file JMH wrote, None when it holds no list: what a step that just
    ran, or the reach of a recorded run, needs of it (names, forks, JVM) without the samples.
    An unreadable file or one that is not JSON raises (OSError, ValueError): the caller says
    what that means for its step."""
    doc = json.loads(path.read_text(encoding="utf-8"))
    return read_entries(doc) if isinstance(doc, list) else None
