"""GC time and collections per operation, from JMH's ``-prof gc`` totals per iteration.

JMH's GC profiler writes, per measurement iteration, ``gc.count`` (collections in it) and, only
in iterations where a collection happened, ``gc.time`` (their milliseconds): a fork's
``gc.time`` list holds one value per iteration whose ``gc.count`` is above zero (an empty list
for a fork without any). Divided by the operations each iteration ran they become costs per
operation, comparable between a baseline and a feature that run at different speeds (a fast
side runs more operations per iteration, and collects more often, for the same work).

The operations of an iteration are not in the JSON; they follow from its score and length:
``threads × time ÷ (time per op)`` in average-time mode, ``ops/s × time`` in throughput mode,
the batch size in single-shot mode. An iteration overruns its nominal time by less than one
operation, so the count is exact to that operation. Sampled-time results give no count (JMH
samples invocations), and get no GC cost.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from perfproof.jmh.names import normalise_metric
from perfproof.jmh.units import THROUGHPUT_UNIT, TIME_UNIT, canonical
from perfproof.model import BenchKey, Counted, Direction, Samples
from perfproof.model.metrics import GC_COUNT_NORM, GC_COUNT_UNIT, GC_TIME_NORM
from perfproof.units.durations import parse_time

_NS_PER_MS = 1e6


def gc_cost_samples(key: BenchKey, entry: dict[str, Any], source: str) -> list[Samples]:
    """The entry's ``gc.time.norm`` (ns/op) and ``gc.count.norm`` (GCs/op) samples, forks ×
    iterations like the primary's; none when JMH's GC profiler did not run or the operations
    of an iteration cannot be told."""
    metrics = {normalise_metric(k): v for k, v in (entry.get("secondaryMetrics") or {}).items()}
    counts = _forks(metrics.get("gc.count"))
    ops = operations(entry)
    if counts is None or ops is None or [len(f) for f in counts] != [len(f) for f in ops]:
        return []
    times = _forks(metrics.get("gc.time")) or [[] for _ in counts]
    if len(times) != len(counts):
        return []
    time_forks, count_forks = [], []
    for n, t, o in zip(counts, times, ops, strict=True):
        per_op = np.asarray(o, dtype=float)
        if not (np.isfinite(per_op).all() and (per_op > 0).all()):
            return []
        count = np.asarray(n, dtype=float)
        time_forks.append(_spread(count, t, per_op) * _NS_PER_MS / per_op)
        count_forks.append(count / per_op)
    events = [np.asarray(n, dtype=float) for n in counts]
    per_iteration = [np.asarray(o, dtype=float) for o in ops]
    return [
        Samples(key.with_metric(GC_TIME_NORM), TIME_UNIT, Direction.LOWER, time_forks,
                sources=[source], counted=Counted(events, per_iteration)),
        Samples(key.with_metric(GC_COUNT_NORM), GC_COUNT_UNIT, Direction.LOWER, count_forks,
                sources=[source], counted=Counted(list(events), list(per_iteration))),
    ]  # fmt: skip


def _spread(count: np.ndarray, times: list[float], ops: np.ndarray) -> np.ndarray:
    """Each iteration's GC milliseconds: JMH's values in the iterations that collected, in
    order; when they do not line up one to one (a collector whose time moved without a
    collection being counted), the fork's total shared out by operations."""
    out = np.zeros_like(count)
    collected = np.flatnonzero(count > 0)
    if len(collected) == len(times):
        out[collected] = times
    elif ops.sum() > 0:
        out = float(np.sum(times)) * ops / ops.sum()
    return out


def operations(entry: dict[str, Any]) -> list[list[float]] | None:
    """The operations of every measurement iteration (forks × iterations), from the primary
    score and the iteration's length; None where the mode gives no count."""
    mode = entry.get("mode")
    primary = entry.get("primaryMetric") or {}
    raw = _forks(primary)
    if raw is None:
        return None
    if mode == "ss":
        batch = _number(entry.get("measurementBatchSize"), 1.0)
        return [[batch] * len(f) for f in raw]
    if mode not in ("avgt", "thrpt"):
        return None
    try:
        seconds = parse_time(str(entry.get("measurementTime", "")).replace(" ", ""))
    except ValueError:
        return None
    unit, factor = canonical(str(primary.get("scoreUnit", "")))
    threads = _number(entry.get("threads"), 1.0)
    if mode == "avgt" and unit == TIME_UNIT:
        return [[threads * seconds * 1e9 / (v * factor) for v in f] for f in raw]
    if mode == "thrpt" and unit == THROUGHPUT_UNIT:
        return [[v * factor * seconds for v in f] for f in raw]
    return None


def _forks(metric: object) -> list[list[float]] | None:
    if not isinstance(metric, dict) or not isinstance(metric.get("rawData"), list):
        return None
    out = []
    for fork in metric["rawData"]:
        if not isinstance(fork, list):
            return None
        try:
            out.append([float(v) for v in fork])
        except (TypeError, ValueError):
            return None
    return out


def _number(value: object, default: float) -> float:
    try:
        number = float(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return default
    return number if number > 0 else default
