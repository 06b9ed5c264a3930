"""The sequential design as the round loop sees it: rounds become looks, looks a comparison.

The statistics live in :mod:`perfproof.compare.sequential` (repeated intervals, the family
procedure, the stopping rule, forks that never warmed up); this module maps a plan's rounds
and forks per step onto the design's look schedule, and the last look's decisions onto the
run's comparison, so the run loop itself holds no statistics.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from perfproof import defaults
from perfproof.compare import CompareOptions, CompareResult, compare_gc_costs, compare_sides
from perfproof.compare.match import match
from perfproof.compare.sequential import KeyDecision, look
from perfproof.compare.sequential_design import FIRST_FORKS, SequentialDesign
from perfproof.compare.sequential_method import methodology
from perfproof.compare.undecided import forks_a_side, too_few_forks, undecided_note
from perfproof.errors import InputError
from perfproof.measure.plan import FIXED, Plan
from perfproof.measure.rounds import BUDGET, Looker, SequentialState, run_sides
from perfproof.measure.store import RunStore
from perfproof.model import BenchKey, Comparison, Samples
from perfproof.model.documents.reach import RunReach
from perfproof.stats.sequential import Schedule
from perfproof.units import eta as format_duration


def forks_per_step(options: Sequence[str]) -> int:
    """JMH's ``-f`` in a step's options (the last one wins, as in JMH); 1 when absent."""
    value = 1
    for i, token in enumerate(options[:-1]):
        if token == "-f" and options[i + 1].isdigit():
            value = int(options[i + 1])
    return max(value, 1)


def first_look_round(plan: Plan) -> int:
    """The first round after which both sides have the forks the first look needs."""
    if plan.design:
        return _design_of(plan).schedule.first_forks // forks_per_step(plan.jmh_options)
    return math.ceil(FIRST_FORKS / forks_per_step(plan.jmh_options))


def budget_shortfall(plan: Plan, round_s: float) -> str | None:
    """A warning when ``--budget`` ends before the first look: every key would then stop with
    no interval at all, so the time spent would buy nothing. ``round_s`` is the estimate of
    the first round; the estimate leaves out JVM start-up, so real rounds only take longer."""
    budget = plan.budget
    if budget is None or plan.stopping == FIXED or round_s <= 0:
        return None
    rounds = first_look_round(plan)
    need = rounds * round_s
    if budget.fits(0.0, need):
        return None
    return (
        f"--budget {format_duration(budget.seconds)} ends before the first look, which needs "
        f"{rounds} rounds of about {format_duration(round_s)} each (about "
        f"{format_duration(need)}): every key would stay inconclusive with no interval; "
        "narrow --bench or the @Param values (-p in --jmh-args), or give a larger --budget"
    )


def design_for(
    plan: Plan, futility: float = defaults.FUTILITY, verdict: CompareOptions | None = None
) -> SequentialDesign:
    """The design of a new sequential plan: one look per round from the first with enough
    forks a side, the last look at the plan's last round.

    Only schedules with calibrated levels exist; anything else is refused before a build.
    """
    forks = forks_per_step(plan.jmh_options)
    first = math.ceil(FIRST_FORKS / forks)
    looks = plan.rounds - first + 1
    try:
        schedule = Schedule(looks, first_forks=first * forks, forks_per_look=forks)
        return SequentialDesign.judging_as(verdict or CompareOptions(), schedule, futility)
    except ValueError as exc:
        raise InputError(
            f"--max-rounds {plan.rounds} with -f {forks} per step: {exc}; the sequential "
            "design is calibrated for -f 1, 2 or 3 and up to 20 looks (or use --rounds N, "
            "the fixed design)"
        ) from None


def fixed_options(store: RunStore) -> CompareOptions:
    """How a fixed run (or one stopped before its first look) is judged: the confidence,
    threshold and family it was started with, perfproof's defaults for a run that names none."""
    from perfproof.pipeline.merge.run import compare_options_of

    return compare_options_of(store.manifest)


def _design_of(plan: Plan) -> SequentialDesign:
    """The design recorded in the plan when the run started, else the one it implies."""
    if plan.design:
        return SequentialDesign.from_block(plan.design)
    return design_for(plan)


def looker_for(plan: Plan, reach: RunReach | None = None) -> Looker:
    """One look per round of a sequential plan; a fixed plan never stops a key early.

    ``reach`` is what the run knows, before its first look, about whether the change runs in
    each benchmark (None when nothing is known, as for ``compare`` on files without a
    repository): a clean split of forks by side is the signature of a real change only where
    the change runs, so the looks hold it everywhere else."""
    if plan.stopping == FIXED:
        return _never
    design = _design_of(plan)
    first = first_look_round(plan)
    metrics = design.verdict.normalised_metrics()
    known = reach.flags() if reach is not None else None

    def look_at(
        base: dict[BenchKey, Samples],
        head: dict[BenchKey, Samples],
        round_no: int,
        previous: dict[BenchKey, Any],
    ) -> dict[BenchKey, Any]:
        if round_no < first:
            return {}
        pairs, _ = match(base, head, metrics)
        return look(pairs, round_no - first + 1, design, previous, known)

    return look_at


def _never(
    base: dict[BenchKey, Samples], head: dict[BenchKey, Samples], round_no: int, previous: dict
) -> dict[BenchKey, Any]:
    return {}


def final_comparison(
    store: RunStore, state: SequentialState, ended: str | None = None
) -> tuple[CompareResult, str]:
    """The run's comparison and its methodology sentence on the design (empty when fixed).

    A sequential run shows, for every entry, the comparison of the look at which it stopped
    (or of the last look taken), with the interval its verdict was decided on; every fork
    measured is in it. A fixed run, or one stopped before its first look, is compared once,
    over all forks. A sequential run (or any run its budget ended) never gives a key a verdict
    from fewer than two forks a side (:mod:`perfproof.compare.undecided`).
    """
    plan = store.plan
    base, head = run_sides(store)
    why = "budget ended" if ended == BUDGET else "the run ended"
    if plan.stopping == FIXED or not state.decisions:
        result = compare_sides(base, head, fixed_options(store))
        if plan.stopping != FIXED or ended == BUDGET:
            result.comparisons = too_few_forks(result.comparisons, why)
        return result, ""
    design = _design_of(plan)
    decisions: dict[BenchKey, KeyDecision] = state.decisions
    options = design.verdict
    _, unmatched = match(base, head, options.normalised_metrics())
    comparisons = [c for _, d in sorted(decisions.items()) for c in d.comparisons]
    comparisons = too_few_forks([*comparisons, *compare_gc_costs(base, head, options)], why)
    if ended == BUDGET:
        open_keys = {k for k, d in decisions.items() if not d.decided}
        comparisons = [_budget_note(c) if c.key.entry() in open_keys else c for c in comparisons]
    notes = [n for side in (base, head) for s in side.values() for n in s.notes]
    result = CompareResult(comparisons, unmatched, options, list(dict.fromkeys(notes)))
    return result, methodology(design, decisions)


def _budget_note(c: Comparison) -> Comparison:
    """An entry the budget ended before its verdict: says so first among its warnings."""
    if any(w.startswith("undecided:") for w in c.warnings):
        return c
    return replace(c, warnings=[undecided_note(forks_a_side(c), "budget ended"), *c.warnings])
