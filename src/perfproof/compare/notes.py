"""Diagnostics as typed notes: what the data says about itself, as values with a kind.

A note travels with its comparison: ``kind`` lets a renderer pick a short tag or a CI script
filter (``jq '.comparisons[].diagnostics.notes[] | select(.kind == "unsettled")'``), ``text``
is the sentence a user reads and acts on. Every sentence about the data is written here, once;
the notes a comparison carries because of its method are the method's
(:mod:`perfproof.stats.method_notes`).
"""

from __future__ import annotations

import math

from perfproof.model import Direction
from perfproof.model.diagnostics import ForkGroups, Kind, Note, UnsettledFork
from perfproof.stats.method import Method
from perfproof.units import (
    MAX_BOUND_FACTOR,
    beyond_factor,
    change_interval,
    delta_with_interval,
    forks_words,
    log_half_width_bounds,
    quantity,
)


def trending(side: str) -> Note:
    return Note(
        Kind.TRENDING,
        f"{side} iterations still trending inside every fork: warm-up not reached, "
        "use more or longer warm-up iterations",
    )


def bimodal(
    side: str, level: str, low: tuple[int, float], high: tuple[int, float], unit: str
) -> Note:
    advice = (
        "the mean mixes two code shapes; run more forks to weigh them"
        if level == "forks"
        else "iterations jump between two levels (JIT deoptimisation, GC or a noisy "
        "machine); the fork means average them"
    )
    return Note(
        Kind.BIMODAL,
        f"bimodal {side} {level}: {low[0]} near {quantity(low[1], unit)} and {high[0]} near "
        f"{quantity(high[1], unit)}; {advice}",
    )


def explained(g: ForkGroups) -> bool:
    """Split exactly by side on a key the change reaches: taken as the change, not held."""
    clean = min(g.base_low, g.head_low) == min(g.base_high, g.head_high) == 0
    return bool(g.reached) and clean and not g.held


def _share(part: int, whole: int) -> str:
    return f"{100.0 * part / whole:.0f}%" if whole else "n/a"


def fork_groups(g: ForkGroups, direction: Direction, unit: str, last: bool) -> Note:
    """The pooled fork means in two groups: how each side fell, and what that allows."""
    fast_base, fast_head = g.fast(direction)
    nb, nh = g.base_low + g.base_high, g.head_low + g.head_high
    fast, slow = (g.low, g.high) if direction is Direction.LOWER else (g.high, g.low)
    where = (
        f"bimodal: {fast_base} of {nb} base forks in the fast group, {fast_head} of {nh} head "
        f"forks (fast near {quantity(fast, unit)}, slow near {quantity(slow, unit)}; the fast "
        f"shape's weight: base {_share(fast_base, nb)}, head {_share(fast_head, nh)})"
    )
    if explained(g):
        return Note(
            Kind.BIMODAL,
            f"{where}; the groups split exactly by side and the change reaches this benchmark: "
            "taken as the change's effect and decided at the normal look",
        )
    if not g.held:
        return Note(Kind.BIMODAL, f"{where}; groups found in both sides' forks pooled")
    then = "no verdict after the last look" if last else "more forks before any verdict"
    why = {
        None: "the change's reach is not known here, so a split by side is not taken as it",
        False: "no static call path from this benchmark to the changed code, so the split "
        "is not taken as the change",
        True: "the groups do not split exactly by side",
    }[g.reached]
    return Note(
        Kind.BIMODAL,
        f"{where}; the difference rests on which group the forks fell in, not on a shift "
        f"inside a group nor an occupancy beyond chance (exact test p={g.p_occupancy:.2g}) "
        f"({why}): {then}",
    )


def not_after_family(p_value: float, procedure: str, m: int, adjusted: float, level: str) -> Note:
    return Note(
        Kind.FAMILY,
        f"significant alone (p={p_value:.2g}) but not after {procedure} across the {m} "
        f"comparisons (adjusted p={adjusted:.2g}); the interval shown is at {level}",
    )


def unsettled(
    forks: list[UnsettledFork],
    unit: str,
    verdict: str,
    alternative: str,
    effect: tuple[float, float, float],
) -> Note:
    where = ", ".join(
        f"{u.side} fork {u.fork} ({u.iterations} at "
        f"{quantity(u.unsettled_mean, unit)} vs {quantity(u.settled_mean, unit)} after)"
        for u in forks
    )
    delta, lo, hi = effect
    return Note(
        Kind.UNSETTLED,
        f"warm-up not reached: first measurement iterations unsettled in {where}; "
        f"verdict with them {verdict}, without them {alternative} "
        f"({delta_with_interval(delta, (lo, hi))})",
    )


def inconclusive(
    mde_pct: float,
    forks_needed: int | None,
    threshold: float,
    forks: int,
    alpha: float,
    method: Method,
) -> Note:
    """A fixed design's undecided key: the changes it would see (both ends, on the ratio's
    scale), what :data:`NEXT_FORKS` more forks a side would see, and the forks ±θ needs only
    while that is a step anyone would take (by the power of the comparison's ``method``)."""
    mde_log = math.log1p(mde_pct / 100.0) if math.isfinite(mde_pct) else math.inf
    text = f"inconclusive: this design would see {_seen(mde_log)} (80% power)"
    if forks >= 2 and math.isfinite(mde_log):
        # the fork variance that gives this design its MDE (the method's power, inverted)
        fork_var = method.fork_var_for(mde_log, forks, alpha)
        if math.isfinite(fork_var):
            text += "; " + next_step(fork_var, forks, alpha, threshold, method)
            return Note(Kind.INCONCLUSIVE, text)
    if forks_needed is not None and forks_needed <= REACHABLE_FORKS:
        text += f"; about {forks_needed} forks per side would resolve ±{threshold * 100:g}%"
    return Note(Kind.INCONCLUSIVE, text)


# ---------------------------------------------------------- a sequential key without a verdict

NEXT_FORKS = 10
"""The next step a note offers a key left without a verdict: this many more forks a side."""
REACHABLE_FORKS = 100
"""Forks a side to resolve ±θ that a note still offers as a step; beyond it is out of reach."""


def within(lo: float, hi: float) -> str:
    """What an undecided interval of the ratio still says, as an interval on the metric's own
    scale (never a ± past -100%), or that it bounds nothing worth a number."""
    if not (lo > 0.0 and math.isfinite(hi)) or beyond_factor(1.0, lo, hi):
        return "the interval is too wide to bound the change"
    return f"the change is within {change_interval(lo, hi)}"


def _seen(mde_log: float) -> str:
    """The changes a design sees at 80% power: those outside ``e^±mde``, or past a thousand-fold
    when that interval is too wide to be worth numbers."""
    if math.isfinite(mde_log) and mde_log < math.log(MAX_BOUND_FACTOR):
        return f"a change outside {change_interval(*log_half_width_bounds(mde_log))}"
    return "only a change past a thousand-fold"


def could_have_seen(mde_log: float, forks: int) -> str:
    """The changes the forks used would have found (80% power, the look's level)."""
    return f"it would have seen {_seen(mde_log)} (80% power, {forks_words(forks, forks)})"


def next_step(
    fork_var_log: float, forks: int, alpha: float, threshold: float, method: Method
) -> str:
    """What more forks would buy, for a fresh run at the design's overall α: the changes
    :data:`NEXT_FORKS` more forks a side would see (80% power by ``method``), and the forks ±θ
    needs while that is within reach (a count of thousands is no step anyone takes)."""
    more = forks + NEXT_FORKS
    text = (
        f"a run with {NEXT_FORKS} more forks a side ({more} in all) would see "
        f"{_seen(method.mde_log(fork_var_log, more, alpha))}"
    )
    need = method.forks_needed(fork_var_log, threshold, alpha)
    if need <= REACHABLE_FORKS:
        text += f"; ±{threshold * 100:g}% needs about {need} forks a side"
    return text
