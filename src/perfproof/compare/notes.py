"""Diagnostics as typed notes: what the data says about itself, as values with a kind.

A note travels with its comparison: ``kind`` lets a renderer pick a short tag or a CI script
filter (``jq '.comparisons[].diagnostics.notes[] | select(.kind == "unsettled")'``), ``text``
is the sentence a user reads and acts on. Every sentence is written here, once.
"""

from __future__ import annotations

from perfproof.model import Direction
from perfproof.model.diagnostics import ForkGroups, Kind, Note, UnsettledFork
from perfproof.stats import power
from perfproof.units import delta_with_interval, quantity


def exact() -> Note:
    return Note(
        Kind.EXACT,
        "bytes/op compared exactly (equal within 0.5 B or 0.1%), not statistically: "
        "allocation per op is near-deterministic",
    )


def one_fork(base: int, head: int) -> Note:
    return Note(
        Kind.ONE_FORK,
        f"only {base} base / {head} head fork(s): no fork-to-fork variation measured, "
        "iterations compared as if independent, so the interval is too narrow; "
        "rerun with -f 3 or more",
    )


def bytes_vary() -> Note:
    return Note(
        Kind.BYTES_VARY,
        "bytes/op varies more than 0.5 B or 0.1% within a side: compared statistically",
    )


def few_forks(base: int, head: int, minimum: int) -> Note:
    return Note(
        Kind.FEW_FORKS,
        f"too few forks: {base} base, {head} head (fewer than {minimum} per side); "
        "the verdict rests on very few JVMs",
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


def fork_groups(g: ForkGroups, direction: Direction, unit: str, last: bool) -> Note:
    """The pooled fork means in two groups: how each side fell, and what that allows."""
    fast_base, fast_head = g.fast(direction)
    nb, nh = g.base_low + g.base_high, g.head_low + g.head_high
    fast, slow = (g.low, g.high) if direction is Direction.LOWER else (g.high, g.low)
    where = (
        f"bimodal: {fast_base} of {nb} base forks in the fast group, {fast_head} of {nh} head "
        f"forks (fast near {quantity(fast, unit)}, slow near {quantity(slow, unit)})"
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


def inconclusive(mde: float, forks_needed: int | None, threshold: float) -> Note:
    detects = "only changes beyond ±999%" if mde > 999.0 else f"about ±{mde:.1f}%"
    if forks_needed is None:
        forks = "an unknown number of forks"
    elif forks_needed < power.MAX_FORKS:
        forks = f"about {forks_needed} forks"
    else:
        forks = f"more than {power.MAX_FORKS} forks"
    return Note(
        Kind.INCONCLUSIVE,
        f"inconclusive: this design detects {detects} at 80% power; "
        f"{forks} per side would resolve {threshold * 100:g}%",
    )
