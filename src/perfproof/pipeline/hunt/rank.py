"""From charged recordings to ranked costs: one row per project method, with intervals.

Recordings come in groups (one JMH benchmark, or one command) and each recording is a fork:
a share is computed per fork and summarised across forks, so the interval says how much the
share moves from one JVM to the next. A single recording has no fork-to-fork spread; its
interval is the sampling error of the counts alone (binomial), and says so by ``forks == 1``.

Shares are of the group's steady work: the work that runs once (static initialisers, JMH's
set-up) is left out of the denominator, because it does not grow with the operations the
workload performs. The JVM's and the harness's own stacks stay in it (JMH's loop and
``Blackhole`` are part of every measured operation) but are never a hypothesis.
Hypotheses rank by the Amdahl ceiling of their CPU share less one standard error (their
expected gain discounted by its uncertainty), the largest over the groups. One standard error,
not the interval's low end: with three forks the 95% interval is four standard errors wide,
and a cost that is large in some forks and small in others would fall below every steady
trifle.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from perfproof.model.documents.hunt import ForkMean, GroupCost, OtherCost
from perfproof.profile.attribute import Attributed
from perfproof.profile.outside import LABELS
from perfproof.stats.amdahl import ceiling_if_removed
from perfproof.stats.welch import mean_interval

CONFIDENCE = 0.95
MIN_SHARE = 0.005
"""Methods below half a percent of CPU and of bytes in every group are not worth a line."""
_Z = 1.959963984540054  # two-sided 95% normal quantile, for the one-recording binomial case


@dataclass(frozen=True)
class ForkOps:
    """What JMH measured in one fork: time per operation and bytes per operation."""

    ns_per_op: float | None
    bytes_per_op: float | None


@dataclass
class RecordedGroup:
    name: str
    forks: list[Attributed]
    ops: list[ForkOps] | None = None
    """Aligned with ``forks`` when the workload is JMH."""


def steady(a: Attributed) -> tuple[int, int]:
    """CPU samples and bytes of the workload's steady work: all but the once-only work."""
    cpu, alloc = a.cpu_total, a.alloc_total
    for (bucket, _), (c, b) in a.buckets.items():
        if bucket == "once":
            cpu -= c
            alloc -= b
    return cpu, alloc


def estimate(values: list[float], counts: tuple[float, float] | None = None) -> ForkMean | None:
    """Mean and interval across forks; one fork gets the binomial interval of ``counts``
    (part, whole) when given, else none."""
    if not values:
        return None
    if len(values) == 1:
        if counts is None or counts[1] <= 0:
            return ForkMean(values[0], None, None, 1)
        p = counts[0] / counts[1]
        se = math.sqrt(max(p * (1 - p), 0.0) / counts[1])
        scale = values[0] / p if p > 0 else 0.0
        lo, hi = max(0.0, p - _Z * se) * scale, (p + _Z * se) * scale
        return ForkMean(values[0], lo, hi, 1, se * scale)
    m = mean_interval(np.asarray(values, dtype=float), CONFIDENCE)
    return ForkMean(m.mean, max(m.lo, 0.0), m.hi, len(values), m.se)  # costs are never < 0


def share_of(part: int, whole: int) -> float:
    """``part`` of ``whole`` (0 of nothing)."""
    return part / whole if whole > 0 else 0.0


def group_cost(group: RecordedGroup, frame: str) -> GroupCost | None:
    """One method's cost in one group, or None when it costs nothing there."""
    totals = [steady(a) for a in group.forks]
    sites = [a.sites.get(frame) for a in group.forks]
    if not any(s is not None and (s.cpu or s.alloc) for s in sites):
        return None
    cpu_parts = [s.cpu if s else 0 for s in sites]
    alloc_parts = [s.alloc if s else 0 for s in sites]
    has_cpu = any(t[0] > 0 for t in totals)
    has_alloc = any(t[1] > 0 for t in totals)
    cpu_shares = [share_of(c, t[0]) for c, t in zip(cpu_parts, totals, strict=True)]
    alloc_shares = [share_of(b, t[1]) for b, t in zip(alloc_parts, totals, strict=True)]
    cpu = estimate(cpu_shares, (sum(cpu_parts), sum(t[0] for t in totals))) if has_cpu else None
    alloc = estimate(alloc_shares) if has_alloc else None
    ns = per_op = per_s = None
    if group.ops is not None:
        ns_values = [
            s * o.ns_per_op
            for s, o in zip(cpu_shares, group.ops, strict=True)
            if o.ns_per_op is not None
        ]
        b_values = [
            s * o.bytes_per_op
            for s, o in zip(alloc_shares, group.ops, strict=True)
            if o.bytes_per_op is not None
        ]
        ns = estimate(ns_values) if has_cpu and ns_values else None
        per_op = estimate(b_values) if has_alloc and b_values else None
    durations = [a.duration_s for a in group.forks]
    if has_alloc and all(d for d in durations):
        per_s = estimate([b / d for b, d in zip(alloc_parts, durations, strict=True) if d])
    ceiling = lo = None
    if cpu is not None:
        ceiling = ceiling_if_removed(min(cpu.mean, 0.999))
        floor = cpu.mean - (cpu.se or 0.0)
        lo = ceiling_if_removed(min(max(floor, 0.0), 0.999))
    return GroupCost(group.name, cpu, alloc, ns, per_op, per_s, ceiling, lo)


def central_gain(costs: list[GroupCost]) -> float:
    """The best ceiling of the mean share over the groups (bytes' share without CPU): what
    ``--compare`` asks of a hypothesis, undiscounted, so a cost that merely became noisier
    is not taken for a cost that went away."""
    gains = [c.ceiling for c in costs if c.ceiling is not None]
    if gains:
        return max(gains)
    return max((c.alloc_share.mean for c in costs if c.alloc_share is not None), default=0.0)


def worth_a_line(costs: list[GroupCost]) -> bool:
    for c in costs:
        for e in (c.cpu_share, c.alloc_share):
            if e is not None and e.mean >= MIN_SHARE:
                return True
    return False


def expected_gain(costs: list[GroupCost]) -> float:
    """The best discounted ceiling over the groups; allocation-only recordings rank by the
    lower bound of the bytes' share instead, since there is no time to bound."""
    gains = [c.ceiling_discounted for c in costs if c.ceiling_discounted is not None]
    if gains:
        return max(gains)
    shares = [
        c.alloc_share.mean - (c.alloc_share.se or 0.0) for c in costs if c.alloc_share is not None
    ]
    return max((max(s, 0.0) for s in shares), default=0.0)


def ranked_frames(groups: list[RecordedGroup]) -> list[tuple[str, list[GroupCost], float]]:
    """Every project method worth a line, with its costs, best expected gain first."""
    frames = sorted({f for g in groups for a in g.forks for f in a.sites})
    rows = []
    for frame in frames:
        costs = [c for g in groups if (c := group_cost(g, frame)) is not None]
        if costs and worth_a_line(costs):
            rows.append((frame, costs, expected_gain(costs)))
    rows.sort(key=lambda r: (-r[2], -_best_mean(r[1]), r[0]))
    return rows


def _best_mean(costs: list[GroupCost]) -> float:
    return max(
        (e.mean for c in costs for e in (c.cpu_share, c.alloc_share) if e is not None),
        default=0.0,
    )


_KIND_LABELS = {
    "once": {"static-init": "static initialisers (run once)", "setup": "JMH @Setup/@TearDown"},
}


def other_costs(groups: list[RecordedGroup]) -> list[OtherCost]:
    """The costs that are no hypothesis, as shares of all samples and bytes recorded.

    The JVM's and the harness's own work is one row whatever its parts, as every report
    shows it; once-only work, the benchmark's (or test's) own code and stacks with no project
    frame get a row each."""
    cpu_total = sum(a.cpu_total for g in groups for a in g.forks)
    alloc_total = sum(a.alloc_total for g in groups for a in g.forks)
    sums: dict[tuple[str, str], list[int]] = {}
    for g in groups:
        for a in g.forks:
            for (bucket, detail), (c, b) in a.buckets.items():
                key = (bucket, _label(bucket, detail))
                acc = sums.setdefault(key, [0, 0])
                acc[0] += c
                acc[1] += b
    rows = [
        OtherCost(
            kind,
            label,
            c / cpu_total if cpu_total else None,
            b / alloc_total if alloc_total else None,
        )
        for (kind, label), (c, b) in sums.items()
    ]
    rows.sort(key=lambda r: (-(r.cpu_share or 0.0) - (r.alloc_share or 0.0), r.label))
    return rows


def _label(bucket: str, detail: str) -> str:
    if bucket == "outside":
        return "outside the benchmark (JVM and harness)"
    if bucket == "once":
        return _KIND_LABELS["once"].get(detail, detail)
    if bucket == "driver":
        return "the benchmark's or test's own code"
    return "no project frame (JDK and libraries only)"


def outside_parts(groups: list[RecordedGroup]) -> dict[str, int]:
    """CPU samples per kind of the JVM's and harness's work, for the row's explanation."""
    out: dict[str, int] = {}
    for g in groups:
        for a in g.forks:
            for (bucket, detail), (c, _b) in a.buckets.items():
                if bucket == "outside":
                    name = next((v for k, v in LABELS.items() if k == detail), detail)
                    out[name] = out.get(name, 0) + c
    return out
