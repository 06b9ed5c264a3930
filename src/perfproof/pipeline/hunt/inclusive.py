"""Hypotheses by inclusive cost: a method whose callees hold most of what it costs.

A fix often changes what a method asks of its callees (which algorithm, which thresholds, how
often) rather than any work of its own, and such a method holds few samples itself: ranked by
self cost alone it is no hypothesis, though most of the time is spent below it. An engineer
reads a profile by inclusive and self cost both, and so does the hunt: a method is ranked by
its inclusive cost (every CPU sample of the stacks it is on) where its callees hold most of it
and no one callee holds nearly all of what they hold, over the whole workload (else the method
only passes the call on, and that callee, or something below it, is the hypothesis; a method
calling one callee in one benchmark and another in the next is where the two meet). It ranks
with the others by the Amdahl ceiling of its share less one standard error.

Deduplicated against its callees: a method whose stacks lie mostly on those of an inclusive
hypothesis ranked above it, and that holds less than half of that one's cost (it is one part of
a cost spread below the method that decides it), is listed after every method whose stacks do
not, so the first
few hypotheses name different costs instead of one cost three times (the inclusive one names
its callees and their shares).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from dataclasses import dataclass

from perfproof.model.documents.hunt import CalleeShare, GroupCost, InclusiveShare, Ranking
from perfproof.pipeline.hunt.rank import (
    RecordedGroup,
    estimate,
    ranked_frames,
    share_of,
    steady,
)
from perfproof.profile.attribute import SiteCost
from perfproof.stats.amdahl import ceiling_if_removed

CALLEES_HOLD = 0.5
"""A method is ranked by inclusive cost only where its callees hold at least this share of it."""
PASS_THROUGH = 0.9
"""…and no one callee holds this share or more of what its callees hold."""
MIN_INCLUSIVE = 0.05
"""…and it holds at least this share of the group's CPU samples."""
HELD = 0.5
"""A method with this share of its stacks under an inclusive hypothesis above it, and less
than :data:`MAIN` of that hypothesis's cost, is listed after the rest."""
MAIN = 0.5
"""A method holding this share of the inclusive hypothesis above it keeps its place: it is
most of that cost, and may be where the fix belongs (a method and its one hot callee)."""
CALLEES_SHOWN = 4


@dataclass(frozen=True)
class Ranked:
    """One hypothesis before the source index names it: its method's frame and what ranks it."""

    frame: str
    costs: list[GroupCost]
    gain: float
    ranked_by: Ranking = "self"
    inclusive: tuple[InclusiveShare, ...] = ()
    """Callees by frame; the analysis names them."""
    under: str | None = None
    """The frame of the inclusive hypothesis that holds most of this one's samples."""


def _callees(sites: Iterable[SiteCost | None]) -> dict[str, int]:
    out: dict[str, int] = {}
    for s in sites:
        for callee, n in (s.callees if s else {}).items():
            out[callee] = out.get(callee, 0) + n
    return out


def spreads(groups: list[RecordedGroup], frame: str) -> bool:
    """Whether the method's callees hold most of it and no one of them nearly all, over the
    whole workload: a method that calls one callee in one benchmark and another in the next
    is where they meet, not a method that passes one call on."""
    sites = [a.sites.get(frame) for g in groups for a in g.forks]
    callees = _callees(sites)
    below = sum(callees.values())
    held = sum(s.inclusive for s in sites if s)
    return (
        bool(callees)
        and below >= CALLEES_HOLD * held
        and (max(callees.values()) < PASS_THROUGH * below)
    )


def inclusive_cost(group: RecordedGroup, frame: str) -> tuple[GroupCost, InclusiveShare] | None:
    """The method's inclusive cost in one group and what is whose, or None where it holds
    too little of the group (whether it is ranked by it at all is :func:`spreads`)."""
    totals = [steady(a)[0] for a in group.forks]
    sites = [a.sites.get(frame) for a in group.forks]
    held = [s.inclusive if s else 0 for s in sites]
    if not any(held) or not any(totals):
        return None
    callees = _callees(sites)
    shares = [share_of(h, t) for h, t in zip(held, totals, strict=True)]
    cpu = estimate(shares, (sum(held), sum(totals)))
    if cpu is None or cpu.mean < MIN_INCLUSIVE:
        return None
    ns = None
    if group.ops is not None:
        times = [x * o.ns_per_op for x, o in zip(shares, group.ops, strict=True) if o.ns_per_op]
        ns = estimate(times) if times else None
    ceiling = ceiling_if_removed(min(cpu.mean, 0.999))
    discounted = ceiling_if_removed(min(max(cpu.mean - (cpu.se or 0.0), 0.0), 0.999))
    own = [s.cpu if s else 0 for s in sites]
    own_share = [share_of(o, t) for o, t in zip(own, totals, strict=True)]
    mine = estimate(own_share, (sum(own), sum(totals))) if any(own) else None
    whole = sum(totals)
    heaviest = sorted(callees.items(), key=lambda kv: (-kv[1], kv[0]))[:CALLEES_SHOWN]
    split = InclusiveShare(group.name, mine, tuple(CalleeShare(c, n / whole) for c, n in heaviest))
    return GroupCost(group.name, cpu, None, ns, None, None, ceiling, discounted), split


def _inclusive_rows(groups: list[RecordedGroup]) -> dict[str, Ranked]:
    frames = sorted({f for g in groups for a in g.forks for f, s in a.sites.items() if s.callees})
    out = {}
    for frame in frames:
        if not spreads(groups, frame):
            continue
        found = [c for g in groups if (c := inclusive_cost(g, frame)) is not None]
        if found:
            costs = [cost for cost, _ in found]
            gain = max(c.ceiling_discounted or 0.0 for c in costs)
            out[frame] = Ranked(frame, costs, gain, "inclusive", tuple(s for _, s in found))
    return out


def _held_by(groups: list[RecordedGroup], frame: str, above: list[str]) -> str | None:
    """The first of the inclusive hypotheses ``above`` on whose stacks lie most of the
    stacks the method is on."""
    sites = [s for g in groups for a in g.forks if (s := a.sites.get(frame)) is not None]
    held = sum(s.inclusive for s in sites)
    if held <= 0:
        return None
    for caller in above:
        if sum(s.ancestors.get(caller, 0) for s in sites) >= HELD * held:
            return caller
    return None


def _main_part(groups: list[RecordedGroup], row: Ranked, under: str) -> bool:
    """Whether the method holds at least :data:`MAIN` of the inclusive hypothesis ``under``
    in the forks it runs in (its own samples, or with all it calls where it ranks so)."""
    mine = theirs = 0
    for a in (a for g in groups for a in g.forks):
        site, held = a.sites.get(row.frame), a.sites.get(under)
        if site is None or held is None:
            continue
        mine += site.inclusive if row.ranked_by == "inclusive" else site.cpu
        theirs += held.inclusive
    return mine >= MAIN * theirs


def ranked(groups: list[RecordedGroup]) -> list[Ranked]:
    """Every hypothesis, by self or inclusive cost, best expected gain first, a method
    mostly held by an inclusive hypothesis above it after the rest (see the module)."""
    rows = {frame: Ranked(frame, costs, gain) for frame, costs, gain in ranked_frames(groups)}
    for frame, row in _inclusive_rows(groups).items():
        if frame not in rows or row.gain > rows[frame].gain:
            rows[frame] = row
    order = sorted(rows.values(), key=lambda r: -r.gain)  # stable: ties keep rank's order
    kept: list[Ranked] = []
    held: list[Ranked] = []
    above: list[str] = []
    for row in order:
        under = _held_by(groups, row.frame, above)
        if under is not None and not _main_part(groups, row, under):
            held.append(dataclasses.replace(row, under=under))
            continue
        kept.append(row)
        if row.ranked_by == "inclusive":
            above.append(row.frame)
    return kept + held
