"""The family of comparisons: one procedure across all keys, then each key's verdict.

The p-values of every statistical comparison (those whose method is ``in_family``: all but the
exact bytes/op ones) go through one family procedure (:mod:`perfproof.stats.family`:
Benjamini–Hochberg by default, Holm, or none). The procedure gives each key the α of its
interval; the comparison's method gives the interval again at that level
(:meth:`perfproof.stats.method.Method.at_level`), and the verdict is read off that very
interval. So the interval a
report shows is always the one the verdict was decided on: an interval that excludes 1 is never
shown next to ``inconclusive``, nor one that contains 1 next to ``improved``.
"""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np

from perfproof.compare import notes
from perfproof.compare.jmhview import jmh_scores
from perfproof.compare.pending import Pending
from perfproof.compare.result import CompareOptions
from perfproof.model import Comparison, Side, Verdict
from perfproof.model.diagnostics import Diagnostics, Note, WithoutUnsettled
from perfproof.model.enums import Family
from perfproof.model.metrics import is_gc_cost
from perfproof.stats import family
from perfproof.stats.method import Effect
from perfproof.stats.verdict import decide

__all__ = ["finish"]


def finish(pending: list[Pending], options: CompareOptions) -> list[Comparison]:
    """Apply the family procedure to the tested p-values, then build every comparison.

    GC time and collections per operation (:data:`perfproof.model.metrics.GC_COSTS`) are a
    family of their own: they explain a verdict rather than make one, and a suite's dozens of
    noisy GC comparisons must not widen the intervals its time verdicts are decided on."""
    built: dict[int, Comparison] = {}
    for gc in (False, True):
        members = [i for i, p in enumerate(pending) if is_gc_cost(p.base.key.metric) is gc]
        decided = _finish_family([pending[i] for i in members], options)
        built.update(zip(members, decided, strict=True))
    return [built[i] for i in range(len(pending))]


def _finish_family(pending: list[Pending], options: CompareOptions) -> list[Comparison]:
    tested = [i for i, p in enumerate(pending) if p.strategy.in_family]
    raw = np.array([pending[i].effect.p_value for i in tested], dtype=float)
    decision = family.decide(raw, options.alpha, options.family)
    position = {i: j for j, i in enumerate(tested)}
    out = []
    for i, p in enumerate(pending):
        j = position.get(i)
        trimmed = None
        if p.trimmed is not None and j is not None:
            swapped = raw.copy()
            swapped[j] = p.trimmed.p_value
            alt = family.decide(swapped, options.alpha, options.family)
            trimmed = (p.trimmed, float(alt.interval_alpha[j]), float(alt.adjusted[j]))
        out.append(_build(p, decision, j, trimmed, options))
    return out


def _significant(effect: Effect, selected: bool) -> bool:
    """Read off the interval: significant exactly when it excludes 1. Without a finite
    interval (a ratio from nothing to something) the family decision stands alone."""
    if math.isfinite(effect.lo) and math.isfinite(effect.hi):
        return effect.lo > 1.0 or effect.hi < 1.0
    return selected


def _build(
    p: Pending,
    decision: family.FamilyDecision,
    j: int | None,
    trimmed: tuple[Effect, float, float] | None,
    opt: CompareOptions,
) -> Comparison:
    if j is None:  # exact: outside the family, decided by the tolerance alone
        e, level, adjusted = p.effect, None, p.effect.p_value
        selected = significant_ = p.effect.p_value <= opt.alpha
    else:
        level = 1.0 - float(decision.interval_alpha[j])
        e = p.strategy.at_level(p.effect, opt.confidence, level)
        adjusted = float(decision.adjusted[j])
        selected = bool(decision.selected[j])
        significant_ = _significant(e, selected)
    verdict = decide(e.ratio, e.lo, e.hi, significant_, p.base.direction, opt.threshold)
    found = list(p.notes)
    if j is not None and opt.family is not Family.NONE and e.p_value <= opt.alpha and not selected:
        found.append(
            notes.not_after_family(
                e.p_value,
                family.DESCRIPTIONS[opt.family],
                decision.size,
                adjusted,
                _level_text(level),
            )
        )
    diagnostics = replace(
        p.diagnostics,
        forks={Side.BASE: p.base.fork_count, Side.HEAD: p.head.fork_count},
        iterations={
            Side.BASE: p.base_facts.summary.iterations,
            Side.HEAD: p.head_facts.summary.iterations,
        },
    )
    if trimmed is not None:
        found.append(_without_unsettled(p, diagnostics, verdict, trimmed, opt))
    pw = diagnostics.power
    mde, needed = (pw.mde_pct, pw.forks_needed) if pw is not None else (None, None)
    if verdict is Verdict.INCONCLUSIVE and mde is not None:
        forks = min(p.base.fork_count, p.head.fork_count)
        found.append(notes.inconclusive(mde, needed, opt.threshold, forks, opt.alpha, p.strategy))
    diagnostics.notes = found
    return Comparison(
        key=p.base.key,
        unit=p.base.unit,
        direction=p.base.direction,
        base=p.base_facts.summary,
        head=p.head_facts.summary,
        ratio=e.ratio,
        ratio_ci=e.bounds,
        delta_pct=_pct(e.ratio),
        delta_ci_pct=e.bounds.percent(),
        verdict=verdict,
        p_value=e.p_value,
        p_holm=adjusted if opt.family is Family.HOLM and j is not None else None,
        p_adjusted=adjusted,
        family=opt.family if j is not None else "exact",
        interval_confidence=level,
        mde_pct=mde,
        forks_needed=needed,
        method=p.strategy.name,
        warnings=[n.text for n in found],
        diagnostics=diagnostics,
        jmh=jmh_scores(p.base, p.head) if p.base.jmh or p.head.jmh else None,
    )


def _without_unsettled(
    p: Pending,
    diagnostics: Diagnostics,
    verdict: Verdict,
    trimmed: tuple[Effect, float, float],
    opt: CompareOptions,
) -> Note:
    """The verdict recomputed without the unsettled first iterations, in the same family."""
    raw_effect, interval_alpha, adjusted = trimmed
    level = 1.0 - interval_alpha
    t = p.strategy.at_level(raw_effect, opt.confidence, level)
    significant_ = _significant(t, adjusted <= opt.alpha)
    alt = decide(t.ratio, t.lo, t.hi, significant_, p.base.direction, opt.threshold)
    diagnostics.without_unsettled = WithoutUnsettled(
        verdict=alt,
        ratio=t.ratio,
        ratio_ci=(t.lo, t.hi),
        delta_pct=_pct(t.ratio),
        p_adjusted=adjusted,
        interval_confidence=level,
    )
    unsettled = list(diagnostics.unsettled or [])
    effect = (_pct(t.ratio), _pct(t.lo), _pct(t.hi))
    return notes.unsettled(unsettled, p.base.unit, str(verdict), str(alt), effect)


def _level_text(level: float | None) -> str:
    return "n/a" if level is None else f"{level * 100:.4g}%"


def _pct(ratio: float) -> float:
    return (ratio - 1.0) * 100.0
