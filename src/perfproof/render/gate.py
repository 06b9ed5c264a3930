"""What fails the regression gate, named: every key, by metric, in every place that says so.

A team whose CI job fails needs to know which benchmark to look at without opening the
artifact. The gate message of ``ab``/``compare``/``merge``/``prove --fail-on-regression``, the
job summary (``report --summary``), the report's results section (the PR comment) and the
JUnit XML all take their list from :func:`failures`, so a key whose only regression is its
bytes/op is named wherever a time regression would be. A long list is cut after a few names
and says how many more there are and where the whole list is, never silently.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from perfproof.jmh.units import THROUGHPUT_UNIT, TIME_UNIT
from perfproof.model import ALLOC_NORM, PRIMARY, Comparison, Verdict
from perfproof.model.metrics import COST_NAMES, OFF_HEAP, is_gc_cost
from perfproof.render.effect import delta_text
from perfproof.render.markdown import md_text
from perfproof.stats import methods
from perfproof.units import bytes_change

SHOWN = 10
"""Failures a one-line gate message names before "and N more"."""

SUMMARY_SHOWN = 25
"""Failures a job summary or a report lists before "and N more"."""


def metric_name(metric: str, unit: str) -> str:
    """What a metric measures, as a reader names it: ``time``, ``throughput``, ``bytes/op``,
    or the secondary metric's own name."""
    if metric == ALLOC_NORM:
        return "bytes/op"
    if metric in COST_NAMES:
        return COST_NAMES[metric]
    if metric == PRIMARY:
        if unit == TIME_UNIT:
            return "time"
        if unit == THROUGHPUT_UNIT:
            return "throughput"
        return unit or "score"
    return metric


def metric_word(c: Comparison) -> str:
    """:func:`metric_name` of a comparison."""
    return metric_name(c.key.metric, c.unit)


@dataclass(frozen=True)
class Failure:
    """One metric of one key that regressed: a reason the gate fails."""

    comparison: Comparison

    @property
    def name(self) -> str:
        """The key without its metric: ``fx.Codes.sum(n=16) [avgt]``."""
        return self.comparison.key.entry().label()

    @property
    def metric(self) -> str:
        return metric_word(self.comparison)

    @property
    def change(self) -> str:
        """The change as the report's tables spell it (bytes/op before → after)."""
        c = self.comparison
        if c.key.metric in (ALLOC_NORM, *OFF_HEAP) or methods.of(c.method).plain:
            return bytes_change(c.base.value, c.head.value, c.delta_pct)
        return delta_text(c)

    def text(self) -> str:
        return f"{self.name} {self.metric} {self.change}"


def failures(comparisons: Iterable[Comparison]) -> list[Failure]:
    """Every regressed comparison: time (or throughput) first, then bytes/op, then other
    metrics, each in key order; GC costs per operation never fail a gate."""
    order = {PRIMARY: 0, ALLOC_NORM: 1}
    regressed = [
        c for c in comparisons if c.verdict is Verdict.REGRESSED and not is_gc_cost(c.key.metric)
    ]
    regressed.sort(key=lambda c: (order.get(c.key.metric, 2), c.key.metric, c.key.entry()))
    return [Failure(c) for c in regressed]


def keys_of(found: Sequence[Failure]) -> list[str]:
    """The distinct keys (benchmark, mode, @Params) among ``found``, in order."""
    return list(dict.fromkeys(f.name for f in found))


def counts(found: Sequence[Failure]) -> str:
    """``6 keys regressed (3 in time, 3 in bytes/op)``."""
    keys = keys_of(found)
    by_metric: dict[str, int] = {}
    for f in found:
        by_metric[f.metric] = by_metric.get(f.metric, 0) + 1
    parts = ", ".join(f"{n} in {metric}" for metric, n in by_metric.items())
    noun = "key" if len(keys) == 1 else "keys"
    return f"{len(keys)} {noun} regressed ({parts})"


def named(items: Sequence[str], shown: int, where: str) -> str:
    """``a; b; c and 4 more (all in WHERE)``: a list cut after ``shown`` items, saying so."""
    head = "; ".join(items[:shown])
    rest = len(items) - shown
    if rest > 0:
        return f"{head}; and {rest} more (all of them in {where})"
    return head


def message(found: Sequence[Failure], where: str, shown: int = SHOWN) -> str:
    """The one-line reason a gate fails: ``--fail-on-regression: 2 keys regressed (1 in time,
    1 in bytes/op): A time +12.0% [+8.1, +16.0]; B bytes/op 64 → 128 B/op (+100.0%)``."""
    listed = named([f.text() for f in found], shown, where)
    return f"--fail-on-regression: {counts(found)}: {listed}"


def readable(label: str) -> str:
    """A stored key label (:meth:`BenchKey.label`) as a gate message names it: bytes/op for
    JMH's ``gc.alloc.rate.norm``."""
    suffix = f" {ALLOC_NORM}"
    return label[: -len(suffix)] + " bytes/op" if label.endswith(suffix) else label


def markdown_lines(found: Sequence[Failure], where: str, shown: int = SUMMARY_SHOWN) -> list[str]:
    """The failures as a Markdown list under a heading line, cut after ``shown``; empty when
    nothing regressed."""
    if not found:
        return []
    out = [f"**Regressed:** {counts(found)}", ""]
    for f in found[:shown]:
        out.append(f"- `{md_text(f.name)}` {f.metric}: {md_text(f.change)}")
    if len(found) > shown:
        out.append(f"- and {len(found) - shown} more: every one is in {where}")
    return [*out, ""]
