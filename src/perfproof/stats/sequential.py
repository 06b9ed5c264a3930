"""Repeated confidence intervals for a log ratio, valid however often one looks and stops.

A sequential comparison looks at the data after every round and stops a key as soon as its
verdict is in. Testing each look at level α would raise the chance of a false
``improved``/``regressed`` far above α (every look is another chance to cross). The fix is a
Pocock-type design: every look uses the same, smaller *nominal* two-sided level α′, chosen so
that the probability of crossing at any of the K looks, when nothing changed, is at most α.

α′ depends on the number of looks, on the schedule (forks per side at each look), on the ratio
of the two sides' fork variances and on Welch's small-sample behaviour, so it is calibrated by
Monte Carlo (``stats.sequential_sim``) rather than taken from a normal-theory table: the
α-quantile of the smallest nominal p-value over K looks of A/A paths, at variance ratios 1 to
3, taking the worst ratio and the lower 97.5% bound of the quantile. The levels ship in
``sequential_levels.json``, written by ``benchmarks/calibrate_sequential.py`` (seeded; anyone
can rerun it and get the same file).

The map α ↦ α′ is increasing, so it can be inverted: the *sequential p-value* of a look is the
smallest α whose design would have rejected there. Under A/A it is super-uniform whatever the
stopping rule (up to K looks), which is what lets a family procedure (Benjamini–Hochberg or
Holm) run on sequential p-values and keep its guarantee. Below the smallest calibrated α the
levels fall back to Bonferroni across looks (α′ = α/K), which is valid without simulation.

Each look's Welch statistics borrow the fork spread of the other keys of the family where that
widens a key's variance (:mod:`perfproof.stats.moderation`): more degrees of freedom for the
same forks, never a narrower interval than a key's own forks give; the calibrated levels are
used unchanged (the moderated p-values lie between Welch's and the normal ones, whose levels
are looser), and the simulations of ``tests/stats`` check the guarantee with borrowing on.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
from scipy import special

from perfproof.stats import bimodal, bimodal_futility, family, moderation
from perfproof.stats import futility as fut
from perfproof.stats.futility import FutilityRule
from perfproof.stats.ratio import bound_exp_rows
from perfproof.stats.tables import shipped_table
from perfproof.stats.welch import SideMoments, welch_where_tested

LEVELS_FILE = "sequential_levels.json"
LEVELS_SCHEMA = "perfproof.sequential-levels/1"


@dataclass(frozen=True)
class Schedule:
    """When the looks happen: ``first_forks`` per side at look 1, then ``forks_per_look`` more
    per side at each later look, at most ``max_looks`` looks."""

    max_looks: int
    first_forks: int = 2
    forks_per_look: int = 1

    def __post_init__(self) -> None:
        if self.max_looks < 1:
            raise ValueError(f"max_looks must be at least 1, got {self.max_looks}")
        if self.first_forks < 2 or self.forks_per_look < 1:
            raise ValueError("a look needs at least 2 forks per side and 1 more per look")

    def forks_at(self, look: int) -> int:
        """Forks per side the design plans at ``look`` (1-based)."""
        return self.first_forks + (look - 1) * self.forks_per_look

    @property
    def name(self) -> str:
        return f"{self.first_forks}+{self.forks_per_look}"


def levels_table() -> dict[str, Any]:
    """The shipped calibration."""
    return shipped_table(LEVELS_FILE, LEVELS_SCHEMA)


def _calibrated(schedule: Schedule) -> tuple[np.ndarray, np.ndarray]:
    """(α grid, α′ per α) for the schedule; nearest calibrated schedule that is at least as
    demanding when the exact one is not in the table (more looks never lowers the risk)."""
    table = levels_table()
    schedules = table["schedules"]
    name = schedule.name
    if name not in schedules:
        raise ValueError(
            f"no calibrated levels for {schedule.first_forks} forks at the first look and "
            f"{schedule.forks_per_look} per look (have {', '.join(sorted(schedules))})"
        )
    per_k = schedules[name]
    k = schedule.max_looks
    if str(k) not in per_k:
        known = sorted(int(x) for x in per_k)
        if k > known[-1]:
            raise ValueError(f"no calibrated levels beyond {known[-1]} looks (asked for {k})")
        k = min(x for x in known if x >= k)
    return np.asarray(table["alphas"], dtype=float), np.asarray(per_k[str(k)], dtype=float)


def per_look_level(alpha: float | np.ndarray, schedule: Schedule) -> np.ndarray:
    """The nominal two-sided level α′ of every look, for an overall error ``alpha``.

    Log-log interpolation between calibrated points; Bonferroni across looks below the grid;
    above the grid, the level at the largest calibrated α scaled in proportion.
    """
    a = np.asarray(alpha, dtype=float)
    grid, level = _calibrated(schedule)
    k = schedule.max_looks
    inside = np.exp(np.interp(np.log(np.clip(a, grid[0], grid[-1])), np.log(grid), np.log(level)))
    out = np.where(a < grid[0], a / k, inside)
    out = np.where(a > grid[-1], np.minimum(a, level[-1] * a / grid[-1]), out)
    return np.asarray(out if out.ndim else out[()])


def sequential_p(p_nominal: float | np.ndarray, schedule: Schedule) -> np.ndarray:
    """The smallest overall α at which this look's nominal p-value is a rejection.

    The inverse of :func:`per_look_level`, conservative at the grid's edges (never smaller
    than the exact inverse), capped at 1.
    """
    p = np.asarray(p_nominal, dtype=float)
    grid, level = _calibrated(schedule)
    k = schedule.max_looks
    inside = np.exp(np.interp(np.log(np.maximum(p, 1e-300)), np.log(level), np.log(grid)))
    below = np.minimum(k * p, grid[0])  # Bonferroni region, then flat up to the grid
    out = np.where(p < level[0], below, inside)
    out = np.where(p > level[-1], np.minimum(1.0, p * grid[-1] / level[-1]), out)
    return np.asarray(out if out.ndim else out[()])


# ------------------------------------------------------------------------------ one look


@dataclass(frozen=True)
class LookRows:
    """Welch on log fork means for many keys at one look: log ratio, its se and df, the
    nominal p-value, and whether each key had at least two forks per side (``tested``)."""

    diff: np.ndarray
    se: np.ndarray
    df: np.ndarray
    p_value: np.ndarray
    tested: np.ndarray
    borrowed: np.ndarray | None = None
    """Where a side's variance borrowed the suite's fork spread (:mod:`.moderation`)."""

    def interval(self, level: float | np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The repeated interval of the log ratio at nominal two-sided ``level`` (per key or one
        for all); unbounded where a key was not tested."""
        lvl = np.broadcast_to(np.asarray(level, dtype=float), self.diff.shape)
        q = special.stdtrit(np.where(self.tested, self.df, 1.0), 1.0 - lvl / 2.0)
        half = np.where(self.se > 0, q * self.se, 0.0)
        lo = np.where(self.tested, self.diff - half, -np.inf)
        hi = np.where(self.tested, self.diff + half, np.inf)
        return lo, hi


def look_rows(
    log_base: list[np.ndarray], log_head: list[np.ndarray], groups: list[str] | None = None
) -> LookRows:
    """Welch statistics for each key from its sides' log fork means (usable forks only).

    Each key's moments are taken on its own (keys differ in fork counts), then one Welch over
    all keys, each side's variance moderated with the other keys of its group (``groups``: a
    label per key, e.g. the metric; None: one group) where that widens it
    (:func:`moments_rows`); a key without two forks on a side is not tested (p = 1, no se or
    df).
    """
    n = len(log_base)
    nb, nh = (np.array([len(x) for x in side], dtype=int) for side in (log_base, log_head))
    mb, mh, vb, vh = (np.full(n, math.nan) for _ in range(4))
    for i, (x, y) in enumerate(zip(log_base, log_head, strict=True)):
        if len(x) and len(y):
            mb[i], mh[i] = np.mean(x), np.mean(y)
        if len(x) >= 2 and len(y) >= 2:
            vb[i], vh[i] = np.var(x, ddof=1), np.var(y, ddof=1)
    labels = np.array(groups if groups is not None else [""] * n, dtype=object)
    parts = {g: np.flatnonzero(labels == g) for g in dict.fromkeys(labels.tolist())}
    out = {f: np.full(n, math.nan) for f in ("diff", "se", "df", "p_value")}
    tested = np.zeros(n, dtype=bool)
    borrowed = np.zeros(n, dtype=bool)
    for idx in parts.values():
        r = moments_rows(
            SideMoments(nb[idx], mb[idx], vb[idx]), SideMoments(nh[idx], mh[idx], vh[idx])
        )
        for f in out:
            out[f][idx] = np.reshape(getattr(r, f), -1)
        tested[idx] = np.reshape(r.tested, -1)
        borrowed[idx] = np.reshape(r.borrowed, -1) if r.borrowed is not None else False
    return LookRows(tested=tested, borrowed=borrowed, **out)


def moments_rows(
    base: SideMoments[np.ndarray], head: SideMoments[np.ndarray], borrow: bool = True
) -> LookRows:
    """Welch on every key's (forks, mean, variance) of log fork means per side, families in
    rows and their keys in columns (1-D: one family); with ``borrow`` each side's variance
    takes the family's fork spread where that widens it (:func:`moderation.moderate`), the
    same rule in a run's looks and in the simulations that check them."""
    borrowed = np.zeros(np.shape(base.n), dtype=bool)
    if borrow:
        mb, mh = moderation.moderate(base.n, base.var), moderation.moderate(head.n, head.var)
        base, head = base._replace(var=mb.var, df=mb.df), head._replace(var=mh.var, df=mh.df)
        borrowed = mb.borrowed | mh.borrowed
    w, tested = welch_where_tested(base, head)
    return LookRows(
        diff=w.diff, se=w.se, df=w.df, p_value=w.p_value, tested=tested,
        borrowed=borrowed & tested,
    )  # fmt: skip


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
    rows: LookRows,
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

    ``rows`` holds the Welch statistics of every key (rows × keys); ``frozen`` the sequential
    p-value of keys decided at an earlier look and NaN for live ones. The family procedure runs
    on all sequential p-values (untested keys count with p = 1), so keys decided earlier keep
    their place in the family; each key's interval is at the per-look level of the overall α
    the procedure gives it, and the outcome is read off that interval.

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
    seq_p = np.where(rows.tested, sequential_p(rows.p_value, schedule), 1.0)
    seq_p = np.where(np.isnan(frozen), seq_p, frozen)
    fam = family.decide_rows(np.atleast_2d(seq_p), alpha, method)
    interval_alpha = fam.interval_alpha.reshape(seq_p.shape)
    per_look = per_look_level(interval_alpha, schedule)
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
        level_end = float(per_look_level(alpha, schedule))
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
    rows: LookRows,
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


def detectable(rows: LookRows, per_look: np.ndarray, power: float = 0.8) -> np.ndarray:
    """The smallest true |log ratio| whose repeated interval at this look's nominal level
    would exclude 1 with probability ``power``, given the forks used: what a key that stops
    without a verdict could have seen (infinite where a key was not tested)."""
    df = np.where(rows.tested, rows.df, 1.0)
    q = special.stdtrit(df, 1.0 - np.asarray(per_look) / 2.0) + special.stdtrit(df, power)
    se = np.where(rows.tested, rows.se, np.inf)
    return np.asarray(np.where(se > 0, q * se, 0.0))


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
