"""Which forks of an entry a look may use, and what the run loop must measure again.

A fork whose first iterations had not settled (a leading run far from the rest of its own
trace, ``stats.warmup``) keeps its steady iterations: those first iterations are left out of
its mean in every metric of its entry, and the fork counts like any other. That is sound for
the same reason dropping it was: the judgement is the fork's own trace, blind to its side, so
under A/A the trimmed forks are a random share of both sides; and the fork is still the unit of
replication: it gives the look one mean, of one JVM, whose spread across forks is what Welch's
t measures (a trimmed mean over fewer iterations is a little noisier, which the spread of fork
means carries into the interval). Only a fork left with fewer than ``MIN_STEADY`` steady
iterations is left out whole and its side run again next round until it has the forks the plan
says. Before, every such fork was dropped and re-run: a fork of JVM time for nothing.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

import numpy as np

from perfproof.compare import compare_sides
from perfproof.compare.effects import worse_side
from perfproof.model import PRIMARY, SIDES, BenchKey, Comparison, Samples
from perfproof.model.diagnostics import ForkGroups
from perfproof.model.enums import Family
from perfproof.stats import bimodal
from perfproof.stats.forks import fork_means
from perfproof.stats.warmup import unsettled_prefixes

if TYPE_CHECKING:
    from perfproof.compare.sequential_design import SequentialDesign

Members = list[tuple[Samples, Samples]]


MIN_STEADY = 2
"""Steady iterations a fork must keep to count with their mean (one says nothing of a level)."""


@dataclass(frozen=True)
class Unsettled:
    """Per side, the forks of an entry whose first iterations had not settled."""

    trimmed: dict[str, dict[int, int]] = field(default_factory=dict)
    """Fork index → leading iterations left out of its mean (the fork counts)."""
    excluded: dict[str, list[int]] = field(default_factory=dict)
    """Forks left out whole: too few steady iterations after the unsettled start."""
    shape: dict[str, list[int]] = field(default_factory=dict)
    """Iterations per fork of the primary metric: a metric of the same shape is cut alike."""

    def any(self) -> bool:
        return any(self.trimmed.values()) or any(self.excluded.values())


def unsettled_forks(members: Members) -> Unsettled:
    """The forks of the entry whose primary trace started unsettled (judged fork by fork)."""
    primary = next(((b, h) for b, h in members if b.key.metric == PRIMARY), members[0])
    sides = list(zip(SIDES, primary, strict=True))
    out = Unsettled(shape={side: [len(f) for f in s.forks] for side, s in sides})
    for side, s in sides:
        prefixes = unsettled_prefixes(s.forks, worse_side(s))
        for i, (k, fork) in enumerate(zip(prefixes, s.forks, strict=True)):
            if k == 0:
                continue
            if len(fork) - k >= MIN_STEADY:
                out.trimmed.setdefault(side, {})[i] = k
            else:
                out.excluded.setdefault(side, []).append(i)
    return out


def without(b: Samples, h: Samples, unsettled: Unsettled) -> tuple[Samples, Samples]:
    """Both sides with the unsettled starts left out of their forks and the forks left out
    whole removed, in every metric that has one array per fork of the primary's length."""
    out = []
    for side, s in zip(SIDES, (b, h), strict=True):
        drop = set(unsettled.excluded.get(side, []))
        cut = unsettled.trimmed.get(side, {})
        if (drop or cut) and [len(f) for f in s.forks] == unsettled.shape.get(side):
            forks = [f[cut.get(i, 0) :] for i, f in enumerate(s.forks) if i not in drop]
            s = replace(s, forks=forks, counted=None)
        out.append(s)
    return out[0], out[1]


def skeletons(
    usable: dict[BenchKey, Members],
    grouped: dict[BenchKey, Members],
    design: SequentialDesign,
) -> dict[BenchKey, list[Comparison]]:
    """Estimates, diagnostics and JMH's numbers of every comparison from ``compare_sides``
    (no family adjustment); the sequential interval and verdict replace its own below. A side
    left with no usable fork is described from all its forks (it is not tested at this look)."""
    originals = {b.key: (b, h) for members in grouped.values() for b, h in members}
    base, head = {}, {}
    for members in usable.values():
        for b, h in members:
            if not b.forks or not h.forks:
                b, h = originals[b.key]
            base[b.key], head[h.key] = b, h
    options = replace(design.verdict, family=Family.NONE)
    result = compare_sides(base, head, options)
    out: dict[BenchKey, list[Comparison]] = {}
    for c in result.comparisons:
        out.setdefault(c.key.entry(), []).append(c)
    return out


def log_fork_means(c: Comparison, side: str, usable: dict[BenchKey, Members]) -> np.ndarray:
    """Log fork means of one side of a comparison (empty when a value is not positive)."""
    for b, h in usable[c.key.entry()]:
        if b.key == c.key:
            means = fork_means((b if side == "base" else h).forks)
            return np.log(means) if len(means) and bool((means > 0).all()) else np.array([])
    return np.array([])


def rerun_counts(
    members: Members,
    excluded: dict[str, list[int]],
    look_no: int,
    design: SequentialDesign,
) -> dict[str, int]:
    """Forks per side the entry is short of the plan at this look (to run again next round)."""
    b, h = next(((b, h) for b, h in members if b.key.metric == PRIMARY), members[0])
    planned = design.schedule.forks_at(look_no)
    usable = {
        side: len(s.forks) - len(excluded.get(side, []))
        for side, s in zip(SIDES, (b, h), strict=True)
    }
    return {side: planned - n for side, n in usable.items() if planned > n}


def trimmed_note(unsettled: Unsettled) -> str:
    """What a look did with forks that started unsettled but kept enough steady iterations."""
    where = "; ".join(
        f"{side} " + ", ".join(
            f"fork {i + 1} ({k} of {unsettled.shape[side][i]})" for i, k in sorted(cut.items())
        )
        for side, cut in unsettled.trimmed.items()
        if cut
    )  # fmt: skip
    return (
        f"first iterations not warmed up (far from the rest of their own fork) left out of the "
        f"fork's mean: {where}; those forks count with their steady iterations"
    )


def left_out_note(excluded: dict[str, list[int]], decided: bool) -> str:
    where = "; ".join(
        f"{side} fork{'s' if len(idx) > 1 else ''} {', '.join(str(i + 1) for i in idx)}"
        for side, idx in excluded.items()
        if idx
    )
    then = "" if decided else ", to be run again next round"
    return (
        f"left out as not warmed up (first iterations far from the rest of their own fork, "
        f"fewer than {MIN_STEADY} steady ones after them): {where}; kept in the record{then}"
    )


def fork_groups(
    s: bimodal.Splits, support: bimodal.Support, i: int, reached: bool | None = None
) -> ForkGroups | None:
    """Row ``i`` of a look's 2-means split as the typed diagnostic (None: not bimodal), with
    whether the change reaches the key (None: not known)."""
    if not bool(s.bimodal[i]):
        return None
    counts = [int(x[i]) for x in (s.base_low, s.base_high, s.head_low, s.head_high)]
    tested = (min(counts[0], counts[2]) >= 2, min(counts[1], counts[3]) >= 2)
    separation = float(s.separation()[i])
    return ForkGroups(
        low=float(np.exp(s.low_mean[i])),
        high=float(np.exp(s.high_mean[i])),
        base_low=counts[0],
        base_high=counts[1],
        head_low=counts[2],
        head_high=counts[3],
        separation=separation if np.isfinite(separation) else None,
        p_occupancy=float(support.occupancy_p[i]),
        p_within_low=float(support.low_p[i]) if tested[0] else None,
        p_within_high=float(support.high_p[i]) if tested[1] else None,
        held=bool(support.held[i]),
        reached=reached,
    )
