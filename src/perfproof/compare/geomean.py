"""The geometric mean across keys, as benchstat prints it below each table.

A suite-wide summary a benchstat user looks for first: "over all 24 keys the feature takes
×0.93 of the time". Ratios multiply, so their mean is geometric; it is taken per metric and
unit (times never mix with throughputs or bytes). A key with a zero or missing value on a
side has no logarithm and is left out, and counted. No interval is given: the keys are not a
sample of anything, so the figure describes this suite, it does not estimate a population.

The costs beside a key's time and heap bytes (off-heap bytes, GC time and collections per
operation) get no geometric mean: they are zero for most keys, so a mean over the few that
have one would speak for the suite on a handful of keys, and every output that prints a
geomean (the tables, ``compare --format json``, the report's JSON) takes this one rule.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

from perfproof.model import ALLOC_NORM, Comparison
from perfproof.model.documents.codec import by_name
from perfproof.model.documents.compare import GeoMeanDoc
from perfproof.model.metrics import COST_NAMES
from perfproof.units import BYTES_ZERO


@dataclass(frozen=True)
class GeoMean:
    """One metric's geometric means over the keys that have one on both sides."""

    metric: str
    """The key's metric (``primary`` or a secondary name such as ``gc.alloc.rate.norm``)."""
    unit: str
    keys: int
    base: float
    head: float
    left_out: int = 0
    """Keys of this metric and unit with a zero (for bytes/op: under half a byte), negative or
    missing value on a side."""
    to_zero: int = 0
    """Of those, the keys whose baseline had a value and whose feature fell to zero: a
    geometric mean cannot hold them, so a reader must be told they are outside it (bytes/op
    24 → 0 is the change itself)."""
    from_zero: int = 0
    """Of those, the keys at zero on the baseline only."""

    @property
    def ratio(self) -> float:
        """Geometric mean of head/base over the keys (equals ``head / base``)."""
        return self.head / self.base


def _log_mean(values: list[float]) -> float:
    return math.exp(sum(math.log(v) for v in values) / len(values))


def geomeans(comparisons: Iterable[Comparison]) -> list[GeoMean]:
    """Per metric and unit, in the order first met: the geometric means of both sides (time
    or throughput and heap bytes/op; never the costs beside them)."""
    groups: dict[tuple[str, str], list[Comparison]] = {}
    for c in comparisons:
        if c.key.metric in COST_NAMES:
            continue
        groups.setdefault((c.key.metric, c.unit), []).append(c)
    out = []
    for (metric, unit), members in groups.items():
        floor = BYTES_ZERO if metric == ALLOC_NORM else 0.0  # JMH's noise below half a byte
        usable = [
            c
            for c in members
            if all(math.isfinite(v) and v > floor for v in (c.base.value, c.head.value))
        ]
        if len(usable) < 2:
            continue  # one key is its own mean: the tables already show it

        def has(v: float, floor: float = floor) -> bool:
            return math.isfinite(v) and v > floor

        to_zero = sum(1 for c in members if has(c.base.value) and not has(c.head.value))
        from_zero = sum(1 for c in members if has(c.head.value) and not has(c.base.value))
        out.append(
            GeoMean(
                metric=metric,
                unit=unit,
                keys=len(usable),
                base=_log_mean([c.base.value for c in usable]),
                head=_log_mean([c.head.value for c in usable]),
                left_out=len(members) - len(usable),
                to_zero=to_zero,
                from_zero=from_zero,
            )
        )
    return out


def geomean_docs(comparisons: Iterable[Comparison]) -> list[GeoMeanDoc]:
    """The geomean rows as ``compare --format json`` and ``report --format json`` carry them."""
    return [
        GeoMeanDoc.model_validate({**by_name(GeoMeanDoc, g), "delta_pct": (g.ratio - 1.0) * 100})
        for g in geomeans(comparisons)
    ]
