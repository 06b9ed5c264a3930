"""What a run measured, as the numbers a PR body may quote for each benchmark entry.

For every entry (benchmark, mode, @Param values) and each side, the scores a careful author
could have copied: perfproof's fork-level estimate with the half-widths of its interval, JMH's
pooled score ± error, and JMH's score ± error of every round file. Entries measured on one
side only still carry JMH's numbers, so a quote of them is checked too.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from perfproof.audit.quotes import (
    BASE,
    BYTES_METRIC,
    DIRECT_METRIC,
    GC_COUNT_METRIC,
    GC_TIME_METRIC,
    HEAD,
    NATIVE_METRIC,
)
from perfproof.jmh.units import canonical
from perfproof.model import ALLOC_NORM, PRIMARY, Comparison
from perfproof.model.metrics import DIRECT_NORM, GC_COUNT_NORM, GC_TIME_NORM, NATIVE_NORM
from perfproof.render.costs import PER_MILLION
from perfproof.render.levels import side_interval
from perfproof.render.results import params_label, short_name
from perfproof.report.rundir import RunFolder

"""How a mismatch names a side to a reader."""


@dataclass
class Reference:
    """A score and the errors that may be quoted with it, from one source."""

    score: float
    errors: list[float]
    source: str
    unit: str = ""


@dataclass
class Truth:
    """What the run measured for one benchmark entry (all values in canonical units)."""

    benchmark: str
    mode: str
    params: dict[str, str]
    unit: str
    direction: str
    refs: dict[tuple[str, str], list[Reference]] = field(default_factory=dict)
    delta: dict[str, float] = field(default_factory=dict)
    ci: dict[str, tuple[float, float]] = field(default_factory=dict)
    jmh_interval: dict[str, tuple[float, float]] = field(default_factory=dict)
    compared: bool = True

    @property
    def label(self) -> str:
        text = short_name(self.benchmark)
        return f"{text} ({params_label(self.params)})" if self.params else text


QUOTED = {
    PRIMARY: PRIMARY,
    ALLOC_NORM: BYTES_METRIC,
    DIRECT_NORM: DIRECT_METRIC,
    NATIVE_NORM: NATIVE_METRIC,
    GC_TIME_NORM: GC_TIME_METRIC,
    GC_COUNT_NORM: GC_COUNT_METRIC,
}
"""Each compared metric as a quote of it is told apart (collections per million ops)."""


def _scaled(ref: Reference, factor: float) -> Reference:
    if factor == 1.0:
        return ref
    return Reference(ref.score * factor, [e * factor for e in ref.errors], ref.source, ref.unit)


def _f(value: Any) -> float:
    try:
        return float(value)
    except (TypeError, ValueError):
        return math.nan


def _side_refs(c: Comparison, side: str, confidence: float | None = None) -> list[Reference]:
    """The side's estimate with the half-widths of its interval as results.json holds it and
    as the report shows it (at the row's level)."""
    s = c.base if side == BASE else c.head
    est = _f(s.value)
    errors = []
    # the interval as stored last: a mismatch names its half-width as the measured error
    for ci in dict.fromkeys([side_interval(c, s, confidence), tuple(s.ci)]):
        lo, hi = _f(ci[0]), _f(ci[1])
        errors += [e for e in (hi - est, est - lo, (hi - lo) / 2) if math.isfinite(e)]
    refs = [Reference(est, errors, "perfproof")]
    score, error = _jmh(c, side)
    if score is not None:
        refs.append(Reference(_f(score), [_f(error)], "JMH"))
    return refs


def _jmh(c: Comparison, side: str) -> tuple[float | None, float | None]:
    """JMH's own score and error of one side, as the comparison carries them."""
    j = c.jmh
    if j is None:
        return None, None
    return (j.base_score, j.base_error) if side == BASE else (j.head_score, j.head_error)


def _raw_refs(run: RunFolder) -> dict[tuple[Any, ...], list[Reference]]:
    """JMH's score ± error of every raw file, keyed by (entry, metric, side)."""
    out: dict[tuple[Any, ...], list[Reference]] = {}
    for raw in run.raw:
        for e in raw.entries:
            key = (str(e.benchmark), str(e.mode), tuple(sorted(e.params.items())))
            for m in e.metrics:
                unit, factor = canonical(m.unit)
                ref = Reference(m.score * factor, [m.error * factor], f"JMH {raw.path.name}", unit)
                out.setdefault((*key, m.name, raw.side), []).append(ref)
    return out


def truths(run: RunFolder) -> list[Truth]:
    raw = _raw_refs(run)
    out: dict[tuple[Any, ...], Truth] = {}
    for c in run.document.comparisons:
        bench, mode, params, metric_name = c.key.benchmark, c.key.mode, c.key.params, c.key.metric
        t = out.get((bench, mode, params))
        if t is None and metric_name == PRIMARY:
            t = Truth(bench, mode, dict(params), c.unit, str(c.direction))
            out[(bench, mode, params)] = t
        if t is None:
            continue
        metric = QUOTED.get(metric_name)
        if metric is None:
            continue
        t.delta[metric] = _f(c.delta_pct)
        scale = PER_MILLION if metric_name == GC_COUNT_NORM else 1.0
        for side in (BASE, HEAD):
            refs = _side_refs(c, side, run.document.confidence)
            refs += raw.get((bench, mode, params, metric_name, side), [])
            t.refs[(metric, side)] = [_scaled(r, scale) for r in refs]
            if metric == PRIMARY:
                # an overlap claim is read on the intervals results.json holds (the run's
                # nominal level); a side's quoted error may be at either level (_side_refs)
                ci = (c.base if side == BASE else c.head).ci
                t.ci[side] = (_f(ci[0]), _f(ci[1]))
                s, e = (_f(v) for v in _jmh(c, side))
                t.jmh_interval[side] = (s - e, s + e)
    _add_uncompared(out, raw)
    return list(out.values())


def _add_uncompared(
    out: dict[tuple[Any, ...], Truth], raw: dict[tuple[Any, ...], list[Reference]]
) -> None:
    """Entries with raw JMH numbers but no comparison (one side only): JMH's numbers still count."""
    for (bench, mode, params, metric, side), refs in raw.items():
        t = out.get((bench, mode, params))
        if t is None:
            t = Truth(bench, mode, dict(params), "", "", compared=False)
            out[(bench, mode, params)] = t
        if t.compared:
            continue
        if metric == PRIMARY:
            t.unit = refs[0].unit
        key = (QUOTED.get(metric, BYTES_METRIC), side)
        t.refs.setdefault(key, []).extend(refs)


@dataclass
class Mismatch:
    """One quoted number that the run does not support, with the value it should have."""

    line: int
    kind: str
    quoted: str
    expected: str
    message: str
