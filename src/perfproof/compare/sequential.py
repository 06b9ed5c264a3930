"""Sequential comparison: after every round, decide the keys whose verdict is in.

The API the run loop calls after each round (a *look*) and the replay of recorded rounds uses:

``SequentialDesign(max_looks, confidence=0.99, threshold=0.01, family="bh", first_forks=3,
forks_per_look=1, metrics=DEFAULT_METRICS)``
    The design, fixed before the first round: at look k each side is planned to have
    ``first_forks + (k − 1) × forks_per_look`` forks; at most ``max_looks`` looks. The per-look
    levels come from the calibrated table for this schedule (``stats.sequential``). The first
    look comes at 3 forks per side by default, not 2: with 2 forks per side Welch's t has one
    or two degrees of freedom and even a −30% change rarely clears a 1% design there, while
    every look spends part of α; starting at 3 reaches the same verdicts with the same forks in
    fewer rounds (BENCHMARKS.md, "Sequential design").
``look(pairs, look_no, design, previous) -> dict[BenchKey, KeyDecision]``
    ``pairs`` holds, for every key still measured (entry × metric), the two sides' ``Samples``
    with *all* forks so far; ``look_no`` is 1-based; ``previous`` is the result of the last
    look (``{}`` at the first). It returns one ``KeyDecision`` per entry (benchmark × mode ×
    @Params, metric ``primary``): entries decided earlier are carried over unchanged (their
    forks stay in the record; they left the plan), the others are judged now. A pure function
    of the forks and the look number, so a resumed run recomputes the same state by replaying
    its rounds (:func:`replay`), and the looks already taken count.
``KeyDecision``
    ``decided`` (the entry leaves the plan; at the last look every entry is decided),
    ``look`` (the look at which it stopped, or the current look), ``comparisons`` (one per
    metric, each with the interval its verdict was decided on), ``note``, ``excluded`` (per side,
    the indices of forks left out because they never warmed up) and ``rerun`` (per side, how
    many extra forks to run next round so that the side catches up with the plan).
``needs_rerun(decisions) -> dict[BenchKey, dict[str, int]]``
    The undecided entries that need extra forks next round, per side.
``methodology(design, decisions) -> str``
    One paragraph saying exactly what was done, for the report's methodology section.

How a look decides (each step is in ``stats.sequential``):

1. A fork whose first measurement iterations had not settled (``warmup.unwarmed``, judged
   from its own trace, blind to its side) is left out of every metric of its entry, kept in
   the record with a note, and re-run next round.
2. Each statistical comparison gets Welch's t on the log fork means of the usable forks, and
   its nominal p-value becomes a *sequential* p-value (the smallest overall α whose calibrated
   design rejects at this look). Keys decided earlier keep theirs; keys without two usable
   forks per side count with p = 1.
3. The family procedure (Benjamini–Hochberg by default) runs on the sequential p-values of
   every statistical comparison in the plan and gives each key an overall α; its repeated
   interval is the Welch interval at the per-look level for that α.
4. The verdict is read off that interval: ``improved``/``regressed`` (excludes 1, estimate
   beyond θ), ``negligible`` (excludes 1, within θ), ``same`` (inside ±θ); otherwise the key
   continues, and at the last look it is ``inconclusive`` ("no change beyond ±X%"). Bytes/op
   that is near-deterministic on both sides keeps its exact rule and decides at its first look.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

import numpy as np

from perfproof.compare import DEFAULT_METRICS, CompareOptions, compare_sides
from perfproof.model import PRIMARY, BenchKey, Comparison, Direction, Samples, Verdict
from perfproof.stats import family as procedures
from perfproof.stats import sequential as seq
from perfproof.stats.forks import fork_means
from perfproof.stats.warmup import unwarmed

SIDES = ("base", "head")


@dataclass(frozen=True)
class SequentialDesign:
    """A sequential design: looks, their schedule, the error rate and the family procedure."""

    max_looks: int
    confidence: float = 0.99
    threshold: float = 0.01
    family: str = procedures.DEFAULT
    first_forks: int = 3
    forks_per_look: int = 1
    metrics: tuple[str, ...] = DEFAULT_METRICS

    def __post_init__(self) -> None:
        if not 0.0 < self.confidence < 1.0:
            raise ValueError(f"confidence must be between 0 and 1, got {self.confidence}")
        if self.family not in procedures.METHODS:
            raise ValueError(f"family must be one of {procedures.METHODS}, got {self.family}")
        seq.per_look_level(self.alpha, self.schedule)  # fails early when not calibrated

    @property
    def alpha(self) -> float:
        return 1.0 - self.confidence

    @property
    def schedule(self) -> seq.Schedule:
        return seq.Schedule(self.max_looks, self.first_forks, self.forks_per_look)


@dataclass
class KeyDecision:
    """The state of one entry (benchmark × mode × @Params) after a look."""

    key: BenchKey
    decided: bool
    look: int
    comparisons: list[Comparison]
    note: str = ""
    excluded: dict[str, list[int]] = field(default_factory=dict)
    rerun: dict[str, int] = field(default_factory=dict)
    p_sequential: dict[str, float] = field(default_factory=dict)
    """Per metric, the sequential p-value the family used (absent for exact comparisons)."""


# --------------------------------------------------------------------------------- a look


def look(
    pairs: Sequence[tuple[Samples, Samples]],
    look_no: int,
    design: SequentialDesign,
    previous: dict[BenchKey, KeyDecision],
) -> dict[BenchKey, KeyDecision]:
    """Judge every undecided entry at look ``look_no`` (1-based); see the module docstring."""
    if not 1 <= look_no <= design.max_looks:
        raise ValueError(f"look {look_no} is outside 1..{design.max_looks}")
    last = look_no == design.max_looks
    grouped: dict[BenchKey, list[tuple[Samples, Samples]]] = {}
    for b, h in pairs:
        if b.key.entry() in previous and previous[b.key.entry()].decided:
            continue
        grouped.setdefault(b.key.entry(), []).append((b, h))
    kept = {entry: _decided_metrics(previous.get(entry)) for entry in grouped}
    usable, excluded = {}, {}
    for entry, members in grouped.items():
        excluded[entry] = _unwarmed_forks(members)
        usable[entry] = [
            _without(b, h, excluded[entry]) for b, h in members if b.key.metric not in kept[entry]
        ]
    comparisons = _skeletons(usable, grouped, design)
    # the family: every statistical comparison in the plan, decided or not
    frozen = [p for d in previous.values() if d.decided for p in d.p_sequential.values()]
    frozen += [
        previous[entry].p_sequential[m]
        for entry, metrics in kept.items()
        for m in metrics
        if m in previous[entry].p_sequential
    ]
    judged = _judge_family(comparisons, usable, frozen, design)
    # decided entries, and any undecided one the caller did not pass, carry over unchanged
    out = {k: d for k, d in previous.items() if d.decided or k not in grouped}
    for entry in grouped:
        new = [_finish(c, judged.get(id(c)), look_no, last, design)
               for c in comparisons.get(entry, [])]  # fmt: skip
        final = sorted([*kept[entry].values(), *new], key=lambda c: _metric_rank(c, design))
        decided = bool(final) and all(c.diagnostics["sequential"]["decided"] for c in final)
        if excluded[entry] and any(excluded[entry].values()):
            for c in new:
                c.warnings.append(_left_out(excluded[entry], decided))
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
            rerun=_rerun(grouped[entry], excluded[entry], look_no, design) if not decided else {},
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


def _judge_family(
    comparisons: dict[BenchKey, list[Comparison]],
    usable: dict[BenchKey, list[tuple[Samples, Samples]]],
    frozen: list[float],
    design: SequentialDesign,
) -> dict[int, _Judged]:
    """The look for every statistical comparison (by ``id``), in one family with the
    sequential p-values of the comparisons decided earlier (``frozen``)."""
    live = [c for cs in comparisons.values() for c in cs if c.method != "exact"]
    live_rows = seq.look_rows(
        [_logs(c, "base", usable) for c in live], [_logs(c, "head", usable) for c in live]
    )
    n, k = len(live), len(frozen)
    rows = seq.LookRows(
        *(np.concatenate([a, np.full(k, np.nan)]) for a in (
            live_rows.diff, live_rows.se, live_rows.df, live_rows.p_value)),
        tested=np.concatenate([live_rows.tested, np.zeros(k, dtype=bool)]),
    )  # fmt: skip
    frozen_p = np.concatenate([np.full(n, np.nan), np.asarray(frozen, dtype=float)])
    j = seq.judge(rows, frozen_p, design.schedule, design.alpha, design.family, design.threshold)
    return {
        id(c): _Judged(
            float(rows.diff[i]), float(j.lo[i]), float(j.hi[i]), float(rows.p_value[i]),
            float(j.seq_p[i]), float(j.adjusted[i]), float(j.interval_alpha[i]),
            float(j.per_look[i]), int(j.code[i]), bool(rows.tested[i]),
        )
        for i, c in enumerate(live)
    }  # fmt: skip


def _unwarmed_forks(members: list[tuple[Samples, Samples]]) -> dict[str, list[int]]:
    """Forks of the entry whose primary trace never settled, per side (judged fork by fork)."""
    primary = next(((b, h) for b, h in members if b.key.metric == PRIMARY), members[0])
    return {
        side: [i for i, bad in enumerate(unwarmed(s.forks, _worse(s))) if bad]
        for side, s in zip(SIDES, primary, strict=True)
    }


def _worse(s: Samples) -> str:
    return "below" if s.direction is Direction.HIGHER else "above"


def _without(b: Samples, h: Samples, excluded: dict[str, list[int]]) -> tuple[Samples, Samples]:
    """Both sides without the excluded forks (when the metric has one array per fork)."""
    out = []
    primary_forks = {"base": len(b.forks), "head": len(h.forks)}
    for side, s in zip(SIDES, (b, h), strict=True):
        drop = set(excluded.get(side, []))
        if drop and len(s.forks) == primary_forks[side]:
            s = replace(s, forks=[f for i, f in enumerate(s.forks) if i not in drop])
        out.append(s)
    return out[0], out[1]


def _skeletons(
    usable: dict[BenchKey, list[tuple[Samples, Samples]]],
    grouped: dict[BenchKey, list[tuple[Samples, Samples]]],
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
    options = CompareOptions(
        confidence=design.confidence,
        threshold=design.threshold,
        metrics=design.metrics,
        family="none",
    )
    result = compare_sides(base, head, options)
    out: dict[BenchKey, list[Comparison]] = {}
    for c in result.comparisons:
        out.setdefault(c.key.entry(), []).append(c)
    return out


def _logs(c: Comparison, side: str, usable: dict[BenchKey, list[tuple[Samples, Samples]]]):
    """Log fork means of one side of a comparison (empty when a value is not positive)."""
    for b, h in usable[c.key.entry()]:
        if b.key == c.key:
            means = fork_means((b if side == "base" else h).forks)
            return np.log(means) if len(means) and bool((means > 0).all()) else np.array([])
    return np.array([])


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
    c: Comparison, j: _Judged | None, look_no: int, last: bool, design: SequentialDesign
) -> Comparison:
    """The comparison with the sequential interval and verdict, and what the look did."""
    if j is None:  # exact bytes/op: its own rule decides at the first look
        c.diagnostics["sequential"] = {"look": look_no, "decided": True, "rule": "exact"}
        return c
    verdict = _verdict(j.code, c.direction)
    decided = verdict is not None or last
    lo, hi = (math.exp(j.lo), math.exp(j.hi)) if j.tested else (0.0, math.inf)
    warnings = [w for w in c.warnings if not w.startswith(("inconclusive:", "significant alone"))]
    if verdict is None:
        verdict = Verdict.INCONCLUSIVE
        if last and j.tested:
            bound = max(abs(lo - 1.0), abs(hi - 1.0)) * 100.0
            warnings.append(f"inconclusive after {look_no} looks: no change beyond ±{bound:.1f}%")
        elif not j.tested:
            warnings.append("fewer than two usable forks on a side: not tested at this look")
    diagnostics = dict(c.diagnostics)
    diagnostics["sequential"] = {
        "look": look_no,
        "max_looks": design.max_looks,
        "decided": decided,
        "p_nominal": j.p_nominal,
        "p_sequential": j.seq_p,
        "p_adjusted": j.adjusted,
        "overall_alpha": j.overall_alpha,
        "per_look_level": j.per_look,
    }
    return replace(
        c,
        ratio=math.exp(j.diff) if j.tested else c.ratio,
        ratio_ci=(lo, hi),
        delta_pct=(math.exp(j.diff) - 1.0) * 100.0 if j.tested else c.delta_pct,
        delta_ci_pct=((lo - 1.0) * 100.0, (hi - 1.0) * 100.0),
        verdict=verdict,
        p_value=j.p_nominal,
        p_holm=j.adjusted,
        method=f"{c.method}, sequential",
        warnings=warnings,
        diagnostics=diagnostics,
    )


def _note(final: list[Comparison], look_no: int, last: bool, decided: bool) -> str:
    verdicts = ", ".join(f"{c.key.metric} {c.verdict}" for c in final)
    if decided and not last:
        return f"stopped at look {look_no}: {verdicts}"
    if decided:
        return f"ran to the last look ({look_no}): {verdicts}"
    return f"continues after look {look_no}"


def _rerun(
    members: list[tuple[Samples, Samples]],
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


def _left_out(excluded: dict[str, list[int]], decided: bool) -> str:
    where = "; ".join(
        f"{side} fork{'s' if len(idx) > 1 else ''} {', '.join(str(i + 1) for i in idx)}"
        for side, idx in excluded.items()
        if idx
    )
    then = "" if decided else ", to be run again next round"
    return (
        f"left out as not warmed up (first iterations far from the rest of their own fork): "
        f"{where}; kept in the record{then}"
    )


def _decided_metrics(previous: KeyDecision | None) -> dict[str, Comparison]:
    """The metrics of an undecided entry whose verdict is already in: they stay as decided."""
    if previous is None:
        return {}
    return {
        c.key.metric: c
        for c in previous.comparisons
        if c.diagnostics.get("sequential", {}).get("decided")
    }


def _metric_rank(c: Comparison, design: SequentialDesign) -> tuple[int, str]:
    names = list(design.metrics)
    return (names.index(c.key.metric) if c.key.metric in names else len(names), c.key.metric)


# ------------------------------------------------------------------------------ reporting


def methodology(design: SequentialDesign, decisions: dict[BenchKey, KeyDecision]) -> str:
    """What the sequential design did, in the words a report's methodology should use."""
    s = design.schedule
    levels = seq.per_look_level(design.alpha, s)
    stopped = sum(1 for d in decisions.values() if d.decided and d.look < design.max_looks)
    excluded = sum(len(v) for d in decisions.values() for v in d.excluded.values())
    name = procedures.DESCRIPTIONS[design.family]
    text = (
        f"Sequential design with up to {design.max_looks} looks ({s.first_forks} forks per side "
        f"at the first look, {s.forks_per_look} more per look): at each look every undecided "
        f"comparison got a repeated confidence interval for the log ratio (Welch's t on log "
        f"fork means) at a nominal level constant across looks (Pocock-type; "
        f"{(1 - float(levels)) * 100:.4g}% per look for one comparison), calibrated by Monte "
        f"Carlo so that the chance of any false improved/regressed over all looks stays ≤ "
        f"{design.alpha * 100:g}% at fork-variance ratios 1 to 3 between the sides. "
        f"{name} ran at every look on sequential p-values of all statistical comparisons "
        f"(decided ones included), and each interval is shown at the level it was decided on. "
        f"A comparison stopped when its interval excluded 1 (improved/regressed beyond "
        f"±{design.threshold * 100:g}%, negligible within) or lay inside "
        f"±{design.threshold * 100:g}% (same); {stopped} of {len(decisions)} entries stopped "
        f"before the last look. Bytes/op was compared exactly (0.5 B or 0.1%)."
    )
    if excluded:
        text += (
            f" {excluded} fork(s) whose first iterations had not settled were left out, kept "
            "in the record and run again."
        )
    return text
