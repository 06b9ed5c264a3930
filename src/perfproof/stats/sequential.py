"""Repeated confidence intervals for a log ratio, valid however often one looks and stops.

A sequential comparison looks at the data after every round and stops a key as soon as its
verdict is in. Testing each look at level α would raise the chance of a false
``improved``/``regressed`` far above α (every look is another chance to cross). The fix is a
Pocock-type design: every look uses the same, smaller *nominal* two-sided level α′, chosen so
that the probability of crossing at any of the K looks, when nothing changed, is at most α.

The levels are the method's (:mod:`perfproof.stats.sequential_levels`: Welch's calibrated by
Monte Carlo, Bonferroni across looks for a method without a table), and so are each look's
statistics (:class:`perfproof.stats.method.LookStats`: Welch's in :mod:`perfproof.stats.welch_look`,
the rank method's in :mod:`perfproof.stats.fork_ranks`). This module decides a look from them
for every family at once: the family procedure on sequential p-values, each key's repeated
interval at the level it is given, the outcome read off that interval, the bimodal-forks rule
and futility. The sequential p-value of a look is the smallest overall α whose design would
have rejected there; under A/A it is super-uniform whatever the stopping rule (up to K looks),
which is what lets a family procedure (Benjamini–Hochberg or Holm) run on sequential p-values
and keep its guarantee.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from perfproof.stats import bimodal, bimodal_futility, family
from perfproof.stats import futility as fut
from perfproof.stats.futility import FutilityRule
from perfproof.stats.method import LookStats
from perfproof.stats.ratio import bound_exp_rows
from perfproof.stats.sequential_levels import LEVELS_FILE as LEVELS_FILE
from perfproof.stats.sequential_levels import LEVELS_SCHEMA as LEVELS_SCHEMA
from perfproof.stats.sequential_levels import Schedule as Schedule
from perfproof.stats.sequential_levels import levels_table as levels_table
from perfproof.stats.sequential_levels import per_look_level as per_look_level
from perfproof.stats.sequential_levels import sequential_p as sequential_p

# ------------------------------------------------------------------- a look of a family


@dataclass(frozen=True)
class Judgement:
    """One look of families of keys (rows × keys): each key's sequential p-value (its frozen
    one when decided earlier), the family's adjusted p-value and overall α for its interval,
    the per-look nominal level that α maps to, the repeated interval of the log ratio and the
    outcome code."""

    seq_p: np.ndarray
    adjusted: np.ndarray
    interval_alpha: np.ndarray
    per_look: np.ndarray
    lo: np.ndarray
    hi: np.ndarray
    code: np.ndarray
    predictive_power: np.ndarray | None = None
    """The chance of a verdict by the last look each key's futility stop was judged on
    (:mod:`perfproof.stats.futility`); None when futility is off or at the last look."""
    groups: bimodal.Splits | None = None
    """The 2-means split of every key's pooled fork means (flattened rows), when given."""
    support: bimodal.Support | None = None
    """Why a bimodal key's verdict stands, or that it was held (flattened rows)."""
    futility_rule: np.ndarray | None = None
    """Which futility rule stopped each key (``futility.EQUIVALENCE``/``PREDICTIVE``; NONE)."""


def judge(
    rows: LookStats,
    frozen: np.ndarray,
    schedule: Schedule,
    alpha: float,
    method: str,
    threshold: float,
    look: int = 0,
    futility: float | FutilityRule = 0.0,
    forks: bimodal.ForkRows | None = None,
    reached: np.ndarray | None = None,
) -> Judgement:
    """Decide one look for every family (row) at once.

    ``rows`` holds the look statistics of every key (rows × keys), by the design's method;
    ``frozen`` the sequential p-value of keys decided at an earlier look and NaN for live
    ones. The family procedure runs on all sequential p-values (untested keys count with
    p = 1), so keys decided earlier keep their place in the family; each key's interval is at
    the per-look level of the overall α the procedure gives it, and the outcome is read off
    that interval.

    With ``futility`` (γ > 0, or a whole :class:`~perfproof.stats.futility.FutilityRule`) and
    the 1-based ``look``, a key that continues is stopped as ``FUTILE`` only on evidence that
    its effect is small (:func:`perfproof.stats.futility.stop_rule`): its interval lies inside
    the equivalence margin, or its predictive probability of a verdict by the last look is
    below γ and its interval bounds the change (for a key the bimodal-forks rule holds, the
    chance that the whole rule decides it, :func:`perfproof.stats.bimodal_futility.held_power`;
    a held key on a benchmark the change reaches is never stopped by a probability: it gets
    the forks that weigh its two shapes). Stopping without a verdict can only remove
    chances of a false improved/regressed, so the guarantee stands.

    With ``forks`` (every key's log fork means, both sides, one row per key in the order of
    the flattened ``rows``), a key whose pooled forks fall in two groups keeps an
    improvement or regression only when the occupancy of the groups or a shift inside one
    agrees with it at the key's per-look level (:mod:`perfproof.stats.bimodal`); otherwise it
    continues. Like futility, this only ever removes a decision. ``reached`` (True where the
    change reaches the key, same shape as ``rows``; None: not known) exempts a key whose forks
    split exactly by side from the hold (:func:`perfproof.stats.bimodal.support`).
    """
    levels = rows.levels
    seq_p = np.where(rows.tested, levels.sequential_p(rows.p_value, schedule), 1.0)
    seq_p = np.where(np.isnan(frozen), seq_p, frozen)
    fam = family.decide_rows(np.atleast_2d(seq_p), alpha, method)
    interval_alpha = fam.interval_alpha.reshape(seq_p.shape)
    per_look = levels.per_look_level(interval_alpha, schedule)
    lo, hi = rows.interval(per_look)
    code = outcomes(rows.diff, lo, hi, (lo > 0) | (hi < 0), threshold)
    groups = held = None
    if forks is not None:
        groups = bimodal.split_rows(forks)
        decisive = np.isin(code, (LOWER, HIGHER)).reshape(-1)
        held = bimodal.support(
            forks,
            groups,
            np.reshape(rows.diff, -1),
            decisive,
            np.reshape(per_look, -1),
            None if reached is None else np.reshape(reached, -1),
        )
        code = np.where(held.held.reshape(code.shape), CONTINUE, code).astype(np.int8)
    rule = futility if isinstance(futility, FutilityRule) else FutilityRule(futility)
    pp = stops = None
    if rule.active and 1 <= look < schedule.max_looks:
        level_end = float(levels.per_look_level(alpha, schedule))
        own_lo, own_hi = rows.interval(level_end)
        pp, stops = _futility(rows, own_lo, own_hi, code, look, schedule, level_end, rule,
                              forks, groups, held, reached)  # fmt: skip
        stop = stops != fut.NONE
        code = np.where(stop, FUTILE, code).astype(np.int8)
        # a key stopped without a verdict is shown with the interval its stop was judged on:
        # its own repeated interval at the overall α, which no family procedure narrows
        lo, hi = np.where(stop, own_lo, lo), np.where(stop, own_hi, hi)
        interval_alpha = np.where(stop, alpha, interval_alpha)
        per_look = np.where(stop, level_end, per_look)
    return Judgement(
        seq_p,
        fam.adjusted.reshape(seq_p.shape),
        interval_alpha,
        per_look,
        lo,
        hi,
        code,
        pp,
        groups,
        held,
        stops,
    )


def _futility(
    rows: LookStats,
    lo: np.ndarray,
    hi: np.ndarray,
    code: np.ndarray,
    look: int,
    schedule: Schedule,
    level_end: float,
    rule: FutilityRule,
    forks: bimodal.ForkRows | None,
    groups: bimodal.Splits | None,
    held: bimodal.Support | None,
    reached: np.ndarray | None,
) -> tuple[np.ndarray, np.ndarray]:
    """(chance of a verdict by the last look, futility rule) of every key at this look, on
    each key's own repeated interval ``lo``/``hi`` at the per-look level ``level_end`` of the
    overall α: the most any family procedure gives a key once the others are decided
    (:mod:`perfproof.stats.futility`), and a bound on that key alone whatever the others do."""
    shape = np.shape(rows.diff)
    now, end = schedule.forks_at(look), schedule.forks_at(schedule.max_looks)
    pp = fut.predictive_power(rows.diff, rows.se, rows.df, now, end, level_end, rule.prior_sd)
    shown_lo, shown_hi = lo, hi
    if held is not None and forks is not None and groups is not None:
        is_held = held.held.reshape(shape)
        if is_held.any():
            # a held key's Welch already decides: ask whether the whole rule ever could
            held_pp = bimodal_futility.held_power(
                forks, groups, held.held, np.full(held.held.shape, level_end), end,
                None if reached is None else np.reshape(reached, -1),
            ).reshape(shape)  # fmt: skip
            pp = np.where(is_held, held_pp, pp)
            # its interval is shown reaching 1 (which group the forks fell in rules out nothing)
            shown_lo, shown_hi = (
                np.where(is_held, np.minimum(lo, 0.0), lo),
                np.where(is_held, np.maximum(hi, 0.0), hi),
            )
            if reached is not None:
                # two code shapes on a benchmark the change reaches, the pooled look decisive
                # but not yet the groups: more forks weigh the shapes, no probability stops it
                pp = np.where(is_held & np.asarray(reached, dtype=bool).reshape(shape), 1.0, pp)
    candidate = (code == CONTINUE) & rows.tested
    return pp, fut.stop_rule(shown_lo, shown_hi, pp, candidate, rule)


# ------------------------------------------------------------------------------- outcome

CONTINUE, LOWER, HIGHER, NEGLIGIBLE, SAME, FUTILE = 0, 1, 2, 3, 4, 5
"""Outcome codes of a look: keep measuring; the ratio is below 1 − θ / above 1 + θ
(significant); significant but within θ; the interval lies inside ±θ; stopped without a
verdict, on evidence that the effect is small (:mod:`perfproof.stats.futility`)."""


def outcomes(
    diff: np.ndarray, lo: np.ndarray, hi: np.ndarray, significant: np.ndarray, threshold: float
) -> np.ndarray:
    """The look rule on log ratios, for whole arrays (same rule as ``verdict.decide``)."""
    ratio = bound_exp_rows(diff)
    beyond = np.abs(ratio - 1.0) > threshold
    out = np.full(np.shape(diff), CONTINUE, dtype=np.int8)
    inside = (bound_exp_rows(lo) >= 1.0 - threshold) & (bound_exp_rows(hi) <= 1.0 + threshold)
    out[inside] = SAME
    out[significant & ~beyond] = NEGLIGIBLE
    out[significant & beyond & (ratio < 1.0)] = LOWER
    out[significant & beyond & (ratio > 1.0)] = HIGHER
    return out
