"""Which forks' first iterations were warm-up, read from the iteration traces and JMH's logs.

A look leaves out a fork's leading iterations that sit far from the rest on the worse side
(:func:`perfproof.stats.warmup.unsettled_prefixes`). That is warm-up only when the warm-up
before them had not reached the steady level either: a fork whose warm-up iterations already
ran at it, then dipped for its first measured iterations (a GC, a deoptimisation, another
process), was warmed up, and calling it "not warmed up" says more than the data do. JMH's
console log keeps each fork's warm-up scores; where a log is missing the claim cannot be
refuted and stands.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from perfproof.jmh.reader import read_file
from perfproof.model import PRIMARY, BenchKey, Direction
from perfproof.report.rundir import BASE, HEAD, RunFolder
from perfproof.report.warmuplog import read_warmups
from perfproof.stats.warmup import unsettled_prefixes, warmed_before, worse_for


@dataclass
class WarmFacts:
    """One key's forks whose first iterations were left out, by what they were."""

    warm_up: list[str] = field(default_factory=list)
    """``base fork 3``: the warm-up had not reached the steady level either."""
    dips: list[str] = field(default_factory=list)
    """Forks whose warm-up already ran at the steady level: a later dip, not warm-up."""


def warm_facts(run: RunFolder) -> dict[BenchKey, WarmFacts]:
    """Every primary key with a fork whose first iterations sat far from the rest."""
    forks: dict[tuple[BenchKey, str], list[np.ndarray]] = {}
    directions: dict[BenchKey, Direction] = {}
    for raw in run.raw:
        if raw.side not in (BASE, HEAD):
            continue
        for s in read_file(raw.path):
            if s.key.metric == PRIMARY:
                forks.setdefault((s.key, raw.side), []).extend(s.forks)
                directions[s.key] = s.direction
    warmups = {side: read_warmups(run.logs.get(side, [])) for side in (BASE, HEAD)}
    out: dict[BenchKey, WarmFacts] = {}
    for (key, side), side_forks in forks.items():
        higher = directions[key] is Direction.HIGHER
        traces = warmups[side].get((key.benchmark, tuple(key.params)), [])
        for i, k in enumerate(unsettled_prefixes(side_forks, worse_for(higher))):
            if not k:
                continue
            facts = out.setdefault(key, WarmFacts())
            steady = float(np.median(side_forks[i][k:]))
            trace = traces[i] if i < len(traces) and len(traces) == len(side_forks) else None
            name = f"{side} fork {i + 1}"
            if trace and warmed_before(trace, steady, higher):
                facts.dips.append(name)
            else:
                facts.warm_up.append(name)
    return out


WARM_UP_CLAIMS = ("not warmed up", "warm-up not reached")
"""The words that say a fork's first iterations were still warming up."""


REWORDED = (
    (
        "first iterations not warmed up (far from the rest of their own fork)",
        "first iterations far from the rest of their own fork",
    ),
    (
        "left out as not warmed up (first iterations far from the rest of their own fork,",
        "left out as far from the rest of their own fork (first iterations,",
    ),
    ("warm-up not reached: first measurement iterations unsettled", "first iterations unsettled"),
)
"""The notes' warm-up sentences (``compare.notes``, ``compare.sequential_forks``) said
without the claim, for forks the traces show were warmed up."""


def claims_warm_up(text: str) -> bool:
    """Whether a sentence says some fork was not warmed up (and not that it was a dip)."""
    lowered = text.lower()
    return any(w in lowered for w in WARM_UP_CLAIMS) and "not warm-up:" not in lowered


def warm_note(note: str, facts: WarmFacts | None) -> str:
    """A note that says "not warmed up", said only where the traces agree: forks whose
    warm-up had reached the steady level are named as a dip instead."""
    if facts is None or not facts.dips or not claims_warm_up(note):
        return note
    dips = ", ".join(facts.dips)
    if not facts.warm_up:
        text = note
        for said, meant in REWORDED:
            text = text.replace(said, meant)
        for claim in WARM_UP_CLAIMS:
            text = text.replace(claim, "far from the rest")
        return (
            f"{text} (not warm-up: in {dips} the warm-up had already reached the steady level "
            "before the measured iterations dipped)"
        )
    return (
        f"{note}; of these, {dips} had warmed up already (their warm-up reached the steady "
        "level): a later dip, not warm-up"
    )
