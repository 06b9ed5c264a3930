"""Sequential comparison: after every round, decide the keys whose verdict is in.

The API the run loop calls after each round (a *look*) and the replay of recorded rounds uses:

``SequentialDesign(Schedule(max_looks, first_forks, forks_per_look), CompareOptions(...))``
    The design, fixed before the first round, judged as its ``CompareOptions`` is: at look k
    each side is planned to have ``first_forks + (k − 1) × forks_per_look`` forks; at most
    ``max_looks`` looks. The per-look levels are the method's for this schedule (Welch's
    calibrated table, ``stats.sequential_levels``; Bonferroni across looks for ranks);
    ``to_block``/``from_block`` store it in a run manifest so that a resumed run keeps it. The
    first look comes at 3 forks per side by default, not 2: with 2 forks per side Welch's t has
    one or two degrees of freedom and even a −30% change rarely clears a 1% design there, while
    every look spends part of α; starting at 3 reaches the same verdicts with the same forks in
    fewer rounds (BENCHMARKS.md, "Sequential design").
``look(pairs, look_no, design, previous, reach=None) -> dict[BenchKey, KeyDecision]``
    ``pairs`` holds, for every key still measured (entry × metric), the two sides' ``Samples``
    with *all* forks so far; ``look_no`` is 1-based; ``previous`` is the result of the last
    look (``{}`` at the first). It returns one ``KeyDecision`` per entry (benchmark × mode ×
    @Params, metric ``primary``): entries decided earlier are carried over unchanged (their
    forks stay in the record; they left the plan), the others are judged now. A pure function
    of the forks and the look number, so a resumed run recomputes the same state by calling it
    again round by round (``compare.sequential_replay.replay`` does so for round files), and
    the looks already taken count. ``reach`` maps a benchmark name to whether the change
    reaches it (fixed before the first look, from the code alone); a benchmark it does not
    name, or ``None`` (files compared without a repository), has no known reach.
``KeyDecision``
    ``decided`` (the entry leaves the plan; at the last look every entry is decided),
    ``look`` (the look at which it stopped, or the current look), ``comparisons`` (one per
    metric, each with the interval its verdict was decided on), ``note``, ``excluded`` (per side,
    the indices of forks left out because they never warmed up) and ``rerun`` (per side, how
    many extra forks to run next round so that the side catches up with the plan).
``needs_rerun(decisions) -> dict[BenchKey, dict[str, int]]``
    The undecided entries that need extra forks next round, per side.
``sequential_method.methodology(design, decisions) -> str``
    One paragraph saying exactly what was done, for the report's methodology section.

How a look decides (each step is in ``stats.sequential``):

1. A fork whose first measurement iterations had not settled (``warmup.unsettled_prefixes``,
   judged from its own trace, blind to its side) counts with its steady iterations: the
   unsettled ones are left out of its mean in every metric of its entry, with a note. Only a
   fork with fewer than two steady iterations left is left out whole, kept in the record, and
   re-run next round (``compare.sequential_forks`` says why this is sound).
2. Each statistical comparison gets the design's fork-level method (its look,
   :meth:`perfproof.stats.method.Method.look`: Welch's t on the log fork means of the usable
   forks by default, or their ranks), and its nominal p-value becomes a *sequential* p-value
   (the smallest overall α whose design, at the method's per-look levels, rejects at this
   look). Keys decided earlier keep theirs; keys without two usable forks per side count with
   p = 1.
3. The family procedure (Benjamini–Hochberg by default) runs on the sequential p-values of
   every statistical comparison in the plan and gives each key an overall α; its repeated
   interval is the method's interval at the per-look level for that α.
4. The verdict is read off that interval: ``improved``/``regressed`` (excludes 1, estimate
   beyond θ), ``negligible`` (excludes 1, within θ), ``same`` (inside ±θ); otherwise the key
   continues, and at the last look it is ``inconclusive`` ("the change is within -X%…+Y%").
   Bytes/op that is near-deterministic on both sides keeps its exact rule and decides at its
   first look.

Why the family keeps the A/A guarantee: under A/A each key's smallest sequential p-value over
all K looks is super-uniform (that is what the calibration makes true), whether the key stops
early or not. A rejection at any look, by Benjamini–Hochberg on p-values that are each at
least that smallest value, implies that Simes' test rejects on the smallest values; so the
chance of any false ``improved``/``regressed`` over the whole run is at most α, for keys
independent or positively dependent (as keys measured in the same JVMs are). When many keys
really changed, Benjamini–Hochberg tests each near R·α/m instead of Holm's α/m, so a suite
full of real effects is not starved. The simulations in ``tests/stats/test_sequential_sim.py``
check both.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace

import numpy as np

from perfproof.compare import notes
from perfproof.compare.sequential_design import SequentialDesign
from perfproof.compare.sequential_forks import (
    fork_groups,
    left_out_note,
    log_fork_means,
    rerun_counts,
    skeletons,
    trimmed_note,
    unsettled_forks,
    without,
)
from perfproof.model import PRIMARY, BenchKey, Comparison, Direction, Samples, Verdict
from perfproof.model.bounds import RatioBounds, bound_exp
from perfproof.model.diagnostics import ForkGroups, SequentialLook
from perfproof.model.metrics import is_gc_cost
from perfproof.stats import bimodal, methods
from perfproof.stats import futility as fut
from perfproof.stats import sequential as seq


@dataclass
class KeyDecision:
    """The state of one entry (benchmark × mode × @Params) after a look."""

    key: BenchKey
    decided: bool
    look: int
    comparisons: list[Comparison]
    note: str = ""
    excluded: dict[str, list[int]] = field(default_factory=dict)
    trimmed: dict[str, dict[int, int]] = field(default_factory=dict)
    """Per side, fork index → unsettled first iterations left out of that fork's mean."""
    rerun: dict[str, int] = field(default_factory=dict)
    p_sequential: dict[str, float] = field(default_factory=dict)
    """Per metric, the sequential p-value the family used (absent for exact comparisons)."""

    @property
    def settled(self) -> bool:
        """Left the plan with a verdict on every metric or a futility stop: ``decided`` alone
        is also true of an entry that merely ran out of looks, still ``inconclusive``."""
        return self.decided and all(_decided(c) for c in self.comparisons)


# --------------------------------------------------------------------------------- a look


def look(
    pairs: Sequence[tuple[Samples, Samples]],
    look_no: int,
    design: SequentialDesign,
    previous: dict[BenchKey, KeyDecision],
    reach: Mapping[str, bool] | None = None,
) -> dict[BenchKey, KeyDecision]:
    """Judge every undecided entry at look ``look_no`` (1-based); see the module docstring."""
    if not 1 <= look_no <= design.schedule.max_looks:
        raise ValueError(f"look {look_no} is outside 1..{design.schedule.max_looks}")
    last = look_no == design.schedule.max_looks
    grouped: dict[BenchKey, list[tuple[Samples, Samples]]] = {}
    for b, h in pairs:
        if is_gc_cost(b.key.metric):  # GC costs explain a verdict, never hold a key
            continue
        if b.key.entry() in previous and previous[b.key.entry()].decided:
            continue
        grouped.setdefault(b.key.entry(), []).append((b, h))
    kept = {entry: _decided_metrics(previous.get(entry)) for entry in grouped}
    usable, unsettled = {}, {}
    for entry, members in grouped.items():
        unsettled[entry] = unsettled_forks(members)
        usable[entry] = [
            without(b, h, unsettled[entry]) for b, h in members if b.key.metric not in kept[entry]
        ]
    excluded = {entry: u.excluded for entry, u in unsettled.items()}
    comparisons = skeletons(usable, grouped, design)
    # the family: every statistical comparison in the plan, decided or not
    frozen = [p for d in previous.values() if d.decided for p in d.p_sequential.values()]
    frozen += [
        previous[entry].p_sequential[m]
        for entry, metrics in kept.items()
        for m in metrics
        if m in previous[entry].p_sequential
    ]
    judged = _judge_family(comparisons, usable, frozen, design, look_no, reach)
    # decided entries, and any undecided one the caller did not pass, carry over unchanged
    out = {k: d for k, d in previous.items() if d.decided or k not in grouped}
    for entry in grouped:
        short = _short(usable[entry], design)
        new = [_finish(c, judged.get(id(c)), look_no, last, design, short)
               for c in comparisons.get(entry, [])]  # fmt: skip
        final = sorted([*kept[entry].values(), *new], key=lambda c: _metric_rank(c, design))
        decided = bool(final) and (last or all(_decided(c) for c in final))
        if excluded[entry] and any(excluded[entry].values()):
            for c in new:
                c.warnings.append(left_out_note(excluded[entry], decided))
        if any(unsettled[entry].trimmed.values()):
            for c in new:
                c.warnings.append(trimmed_note(unsettled[entry]))
        before = previous[entry].p_sequential if kept[entry] else {}
        p_seq = {m: p for m, p in before.items() if m in kept[entry]}
        p_seq.update({c.key.metric: judged[id(c)].seq_p for c in comparisons.get(entry, [])
                      if id(c) in judged})  # fmt: skip
        out[entry] = KeyDecision(
            key=entry,
            decided=decided,
            look=look_no,
            comparisons=final,
            note=_note(final, look_no, last, decided),
            excluded={s: v for s, v in excluded[entry].items() if v},
            trimmed={s: dict(v) for s, v in unsettled[entry].trimmed.items() if v},
            rerun=rerun_counts(grouped[entry], excluded[entry], look_no, design)
            if not decided
            else {},
            p_sequential=p_seq,
        )
    return dict(sorted(out.items()))


def needs_rerun(decisions: dict[BenchKey, KeyDecision]) -> dict[BenchKey, dict[str, int]]:
    """Undecided entries whose sides are short of the plan (forks left out as unwarmed):
    how many forks to add per side in the next round, beyond the schedule's own."""
    return {k: dict(d.rerun) for k, d in decisions.items() if not d.decided and d.rerun}


# ----------------------------------------------------------------------- the pieces


@dataclass(frozen=True)
class _Judged:
    diff: float
    lo: float
    hi: float
    p_nominal: float
    seq_p: float
    adjusted: float
    overall_alpha: float
    per_look: float
    code: int
    tested: bool
    predictive_power: float | None = None
    futility_rule: int = fut.NONE
    groups: ForkGroups | None = None
    mde: float = math.inf
    """The smallest |log ratio| the look's interval would exclude 1 for at 80% power."""
    se: float = math.nan
    """The look's se of the log ratio (the suite's spread borrowed where that widens it)."""


def _judge_family(
    comparisons: dict[BenchKey, list[Comparison]],
    usable: dict[BenchKey, list[tuple[Samples, Samples]]],
    frozen: list[float],
    design: SequentialDesign,
    look_no: int,
    reach: Mapping[str, bool] | None = None,
) -> dict[int, _Judged]:
    """The look for every statistical comparison (by ``id``), in one family with the
    sequential p-values of the comparisons decided earlier (``frozen``)."""
    live = [c for cs in comparisons.values() for c in cs if methods.of(c.method).in_family]
    known = [None if reach is None else reach.get(c.key.benchmark) for c in live]
    base = [log_fork_means(c, "base", usable) for c in live]
    head = [log_fork_means(c, "head", usable) for c in live]
    method = design.method
    live_rows = method.look(base, head, [c.key.metric for c in live], design.schedule)
    n, k = len(live), len(frozen)
    none = [np.array([])] * k
    forks = bimodal.fork_rows(base + none, head + none)
    rows = live_rows.padded(k)
    frozen_p = np.concatenate([np.full(n, np.nan), np.asarray(frozen, dtype=float)])
    reached = np.array([r is True for r in known] + [False] * k, dtype=bool)
    j = seq.judge(
        rows, frozen_p, design.schedule, design.alpha, design.verdict.family,
        design.verdict.threshold, look_no, design.futility, forks, reached,
    )  # fmt: skip
    assert j.groups is not None and j.support is not None
    mde = rows.detectable(j.per_look)
    return {
        id(c): _Judged(
            float(rows.diff[i]), float(j.lo[i]), float(j.hi[i]), float(rows.p_value[i]),
            float(j.seq_p[i]), float(j.adjusted[i]), float(j.interval_alpha[i]),
            float(j.per_look[i]), int(j.code[i]), bool(rows.tested[i]),
            None if j.predictive_power is None else float(j.predictive_power[i]),
            fut.NONE if j.futility_rule is None else int(j.futility_rule[i]),
            fork_groups(j.groups, j.support, i, known[i]),
            float(mde[i]),
            float(rows.se[i]),
        )
        for i, c in enumerate(live)
    }  # fmt: skip


_VERDICT = {
    seq.NEGLIGIBLE: Verdict.NEGLIGIBLE,
    seq.SAME: Verdict.SAME,
}


def _verdict(code: int, direction: Direction) -> Verdict | None:
    if code in (seq.LOWER, seq.HIGHER):
        better = (code == seq.LOWER) == (direction is Direction.LOWER)
        return Verdict.IMPROVED if better else Verdict.REGRESSED
    return _VERDICT.get(code)


def _finish(
    c: Comparison,
    j: _Judged | None,
    look_no: int,
    last: bool,
    design: SequentialDesign,
    short: bool = False,
) -> Comparison:
    """The comparison with the sequential interval and verdict, and what the look did.

    ``short``: forks left out as not warmed up leave a side of this entry with fewer usable
    forks than the first look had, so its spread is judged on too few; the futility stop waits
    for the replacements (it only ever stops *without* a verdict, so continuing costs time,
    never the error rate). A fork left out in an earlier round and replaced since no longer
    holds the stop back (it did, for the whole run, when any fork had ever been left out).
    """
    if j is None:  # exact bytes/op: its own rule decides at the first look
        c.diagnostics.sequential = SequentialLook(look_no, decided=True, rule="exact")
        return c
    verdict = _verdict(j.code, c.direction)
    futile = j.code == seq.FUTILE and not short
    decided = verdict is not None or futile  # not merely out of looks: that leaves it open
    lo, hi = RatioBounds.of_logs(j.lo, j.hi) if j.tested else RatioBounds.unbounded()
    if j.groups is not None and j.groups.held:
        # chance occupancy of two groups explains the pooled difference, so no change is
        # ruled out: the interval shown reaches 1, as every undecided interval does
        lo, hi = min(lo, 1.0), max(hi, 1.0)
    warnings = [w for w in c.warnings if not w.startswith(("inconclusive:", "significant alone"))]
    found = list(c.diagnostics.notes or [])
    if j.groups is not None:
        note = notes.fork_groups(j.groups, c.direction, c.unit, last)
        found.append(note)
        warnings.append(note.text)
    if verdict is None:
        verdict = Verdict.INCONCLUSIVE
        if futile:
            warnings.append(_futility_note(j, c, look_no, design, (lo, hi)))
        elif last and j.tested:
            warnings.append(
                f"inconclusive after {look_no} looks: {notes.within(lo, hi)}; "
                f"{_what_more_forks_buy(j, c, design)}"
            )
        elif not j.tested:
            warnings.append("fewer than two usable forks on a side: not tested at this look")
    diagnostics = replace(
        c.diagnostics,
        sequential=SequentialLook(
            look_no,
            decided,
            max_looks=design.schedule.max_looks,
            p_nominal=j.p_nominal,
            p_sequential=j.seq_p,
            p_adjusted=j.adjusted,
            overall_alpha=j.overall_alpha,
            per_look_level=j.per_look,
            predictive_power=j.predictive_power,
            futile=futile,
            futility_rule=fut.RULE_NAMES.get(j.futility_rule) if futile else None,
        ),
        fork_groups=j.groups,
        notes=found,
    )
    return replace(
        c,
        ratio=bound_exp(j.diff) if j.tested else c.ratio,
        ratio_ci=RatioBounds(lo, hi),
        mde_pct=_pct_or_none(j.mde) if j.tested else c.mde_pct,
        delta_pct=(bound_exp(j.diff) - 1.0) * 100.0 if j.tested else c.delta_pct,
        delta_ci_pct=RatioBounds(lo, hi).percent(),
        verdict=verdict,
        p_value=j.p_nominal,
        p_holm=j.adjusted,
        # the repeated interval is at the look's level, not the run's nominal confidence
        interval_confidence=1.0 - j.per_look,
        method=methods.of(c.method).at_looks if c.method is not None else None,
        warnings=warnings,
        diagnostics=diagnostics,
    )


def _short(members: list[tuple[Samples, Samples]], design: SequentialDesign) -> bool:
    """A side of the entry has fewer usable forks than the first look (see ``_finish``)."""
    return any(
        min(len(b.forks), len(h.forks)) < design.schedule.first_forks
        for b, h in members
        if b.key.metric == PRIMARY
    )


def _pct_or_none(log_value: float) -> float | None:
    pct = (bound_exp(log_value) - 1.0) * 100.0
    return pct if math.isfinite(pct) else None


def _futility_note(
    j: _Judged, c: Comparison, look_no: int, design: SequentialDesign, bounds: tuple[float, float]
) -> str:
    """Why a key stopped without a verdict, by the rule that stopped it, with its bound."""
    where = f"stopped at look {look_no} of {design.schedule.max_looks} without a verdict"
    lo, hi = bounds
    if j.futility_rule == fut.EQUIVALENCE:
        margin = f"{fut.FutilityRule(design.futility).margin * 100:g}%"
        return (
            f"{where}: {notes.within(lo, hi)}, inside the ±{margin} equivalence margin "
            "(futility: any change is smaller than that)"
        )
    chance = f"{(j.predictive_power or 0.0) * 100:.1f}%"
    by = (
        "of continued runs of its two fork groups"
        if j.groups is not None and j.groups.held
        else "predicted from its forks, the suite's spread and a prior centred on no change"
    )
    return (
        f"{where}: a verdict by the last look is improbable ({chance} {by}; futility below "
        f"{design.futility * 100:g}%); {notes.within(lo, hi)}; {_what_more_forks_buy(j, c, design)}"
    )


def _what_more_forks_buy(j: _Judged, c: Comparison, design: SequentialDesign) -> str:
    """The changes the forks used could have seen, and what more forks would see."""
    forks = min(c.base.forks, c.head.forks)
    text = notes.could_have_seen(j.mde, forks)
    if math.isfinite(j.se) and j.se > 0 and forks >= 2:
        fork_var = j.se**2 * forks / 2.0  # one fork's variance of its log mean, both sides alike
        text += "; " + notes.next_step(
            fork_var, forks, design.alpha, design.verdict.threshold, design.method
        )
    return text


def _note(final: list[Comparison], look_no: int, last: bool, decided: bool) -> str:
    verdicts = ", ".join(f"{c.key.metric} {c.verdict}" for c in final)
    if decided and not last:
        return f"stopped at look {look_no}: {verdicts}"
    if decided:
        return f"ran to the last look ({look_no}): {verdicts}"
    return f"continues after look {look_no}"


def _decided_metrics(previous: KeyDecision | None) -> dict[str, Comparison]:
    """The metrics of an undecided entry whose verdict is already in: they stay as decided."""
    if previous is None:
        return {}
    return {c.key.metric: c for c in previous.comparisons if _decided(c)}


def _decided(c: Comparison) -> bool:
    return c.diagnostics.sequential is not None and c.diagnostics.sequential.decided


def _metric_rank(c: Comparison, design: SequentialDesign) -> tuple[int, str]:
    names = list(design.verdict.metrics)
    return (names.index(c.key.metric) if c.key.metric in names else len(names), c.key.metric)
