"""The family of comparisons: one procedure across all keys, then each key's verdict.

The p-values of every statistical comparison (all but the exact bytes/op ones) go through
one family procedure (:mod:`perfproof.stats.family`: Benjamini–Hochberg by default, Holm, or
none). The procedure gives each key the α of its interval; the interval is recomputed at that
level from the nominal one, and the verdict is read off that very interval. So the interval a
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
from perfproof.model.bounds import log_bound
from perfproof.model.diagnostics import Diagnostics, Note, WithoutUnsettled
from perfproof.stats import family, strategies
from perfproof.stats.verdict import decide
from perfproof.stats.welch import t_critical

__all__ = ["at_level", "finish"]


def finish(pending: list[Pending], options: CompareOptions) -> list[Comparison]:
    """Apply the family procedure to the tested p-values, then build every comparison."""
    tested = [i for i, p in enumerate(pending) if p.strategy is not strategies.EXACT]
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


def at_level(effect: strategies.Effect, nominal: float, confidence: float) -> strategies.Effect:
    """The same effect with its interval at ``confidence`` instead of ``nominal``.

    Both the log ratio (an interval symmetric in log space) and the relative-difference
    fallback (symmetric in linear space) are Welch intervals, so widening is a ratio of two t
    quantiles at the same degrees of freedom; which space applies is read off the interval.
    """
    e = effect
    values = (e.ratio, e.lo, e.hi, e.df)
    if math.isclose(confidence, nominal) or not all(math.isfinite(v) for v in values):
        return e
    if e.df <= 0 or e.hi <= e.lo:
        return e
    scale = t_critical(confidence, e.df) / t_critical(nominal, e.df)
    if e.lo > 0 and e.ratio > 0:
        log_lo, log_hi = e.bounds.logs()
        if math.isclose((log_lo + log_hi) / 2, log_bound(e.ratio), rel_tol=1e-9, abs_tol=1e-12):
            lo, hi = e.bounds.widened(e.ratio, scale)
            return strategies.Effect(e.ratio, lo, hi, e.p_value, e.df)
    half = (e.hi - e.lo) / 2 * scale
    return strategies.Effect(e.ratio, e.ratio - half, e.ratio + half, e.p_value, e.df)


def _significant(effect: strategies.Effect, selected: bool) -> bool:
    """Read off the interval: significant exactly when it excludes 1. Without a finite
    interval (a ratio from nothing to something) the family decision stands alone."""
    if math.isfinite(effect.lo) and math.isfinite(effect.hi):
        return effect.lo > 1.0 or effect.hi < 1.0
    return selected


def _build(
    p: Pending,
    decision: family.FamilyDecision,
    j: int | None,
    trimmed: tuple[strategies.Effect, float, float] | None,
    opt: CompareOptions,
) -> Comparison:
    if j is None:  # exact: outside the family, decided by the tolerance alone
        e, level, adjusted = p.effect, None, p.effect.p_value
        selected = significant_ = p.effect.p_value <= opt.alpha
    else:
        level = 1.0 - float(decision.interval_alpha[j])
        e = at_level(p.effect, opt.confidence, level)
        adjusted = float(decision.adjusted[j])
        selected = bool(decision.selected[j])
        significant_ = _significant(e, selected)
    verdict = decide(e.ratio, e.lo, e.hi, significant_, p.base.direction, opt.threshold)
    found = list(p.notes)
    if j is not None and opt.family != "none" and e.p_value <= opt.alpha and not selected:
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
        found.append(notes.inconclusive(mde, needed, opt.threshold, forks, opt.alpha))
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
        p_holm=adjusted if opt.family == "holm" and j is not None else None,
        p_adjusted=adjusted,
        family=opt.family if j is not None else "exact",
        interval_confidence=level,
        mde_pct=mde,
        forks_needed=needed,
        method=p.strategy.name,
        warnings=[n.text for n in found],
        diagnostics=diagnostics,
        jmh=jmh_scores(p.base, p.head),
    )


def _without_unsettled(
    p: Pending,
    diagnostics: Diagnostics,
    verdict: Verdict,
    trimmed: tuple[strategies.Effect, float, float],
    opt: CompareOptions,
) -> Note:
    """The verdict recomputed without the unsettled first iterations, in the same family."""
    raw_effect, interval_alpha, adjusted = trimmed
    level = 1.0 - interval_alpha
    t = at_level(raw_effect, opt.confidence, level)
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
