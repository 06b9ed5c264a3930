"""Compare two sides of JMH results key by key: the engine behind ``perfproof compare``.

Loading, matching, the per-key comparison, the multiplicity adjustment and the JSON
document live here; the statistics themselves are in ``perfproof.stats`` and the rendering
in ``perfproof.render.comparison``. Other verbs (``ab``, ``report``) call ``compare_sides`` on
their own ``Samples`` and embed ``compare_document`` in their output.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from perfproof.errors import InputError
from perfproof.jmh.names import normalise_metric
from perfproof.jmh.reader import load_side
from perfproof.jmh.units import is_bytes
from perfproof.model import (
    ALLOC_NORM,
    PRIMARY,
    BenchKey,
    Comparison,
    Direction,
    Estimate,
    Samples,
    Verdict,
)
from perfproof.stats import batch, power, shape, strategies, variance, warmup
from perfproof.stats.forks import as_matrix_or_list, fork_means
from perfproof.stats.holm import holm
from perfproof.stats.verdict import decide
from perfproof.stats.welch import t_critical

SCHEMA = "perfproof.compare/1"
DEFAULT_METRICS: tuple[str, ...] = (PRIMARY, ALLOC_NORM)
MIN_FORKS = 3
JMH_CONFIDENCE = 0.999


@dataclass(frozen=True)
class CompareOptions:
    """How to compare: confidence 1 − α, practical threshold θ, metrics, Holm on or off."""

    confidence: float = 0.99
    threshold: float = 0.01
    metrics: tuple[str, ...] = DEFAULT_METRICS
    holm: bool = True

    @property
    def alpha(self) -> float:
        return 1.0 - self.confidence


@dataclass(frozen=True)
class Unmatched:
    """A key present on one side only (or unusable), listed rather than dropped."""

    key: BenchKey
    side: str
    reason: str


@dataclass
class CompareResult:
    comparisons: list[Comparison]
    unmatched: list[Unmatched]
    options: CompareOptions = field(default_factory=CompareOptions)
    notes: list[str] = field(default_factory=list)

    @property
    def regressed(self) -> list[Comparison]:
        return [c for c in self.comparisons if c.verdict is Verdict.REGRESSED]


# ---------------------------------------------------------------------------- entry points


def compare_specs(base: str, head: str, options: CompareOptions) -> CompareResult:
    """Load two sides (file, glob or folder each) and compare them.

    Two sides with nothing in common are an input error, not an empty success: a CI gate
    pointed at the wrong files must not pass silently.
    """
    base_side = load_side(base)
    head_side = load_side(head)
    check_metrics(options.metrics, base_side, head_side)
    result = compare_sides(base_side, head_side, options)
    if not result.comparisons:
        entries = (len({k.entry() for k in s}) for s in (base_side, head_side))
        raise InputError(
            f"{base} vs {head}: nothing to compare, no entry (benchmark, mode, params) with "
            "the selected metrics is in both ({} in base, {} in head)".format(*entries)
        )
    return result


def check_metrics(
    metrics: Sequence[str], base: dict[BenchKey, Samples], head: dict[BenchKey, Samples]
) -> None:
    """A metric asked for by name must exist somewhere, else the name is probably a typo."""
    present = {k.metric for k in base} | {k.metric for k in head}
    for metric in metrics:
        if metric not in DEFAULT_METRICS and normalise_metric(metric) not in present:
            available = ", ".join(sorted(present))
            raise InputError(f"--metric {metric}: no result has this metric (have: {available})")


def compare_sides(
    base: dict[BenchKey, Samples], head: dict[BenchKey, Samples], options: CompareOptions
) -> CompareResult:
    """Match entries by (benchmark, mode, params), compare each selected metric, adjust."""
    if not 0.0 < options.confidence < 1.0:
        raise InputError(f"--confidence {options.confidence}: must be between 0 and 1")
    if not 0.0 <= options.threshold < 1.0:
        raise InputError(f"--threshold {options.threshold}: must be between 0 and 1 (0% to 100%)")
    metrics = tuple(dict.fromkeys(normalise_metric(m) for m in options.metrics))
    base_entries = sorted({k.entry() for k in base})
    head_entries = {k.entry() for k in head}
    unmatched: list[Unmatched] = []
    pairs: list[tuple[Samples, Samples]] = []
    for entry in base_entries:
        if entry not in head_entries:
            unmatched.append(Unmatched(entry, "base", "no result for this entry in head"))
            continue
        for metric in metrics:
            key = entry.with_metric(metric)
            b, h = base.get(key), head.get(key)
            problem = _unusable(metric, b, h)
            if problem is None:
                pairs.append((b, h))  # type: ignore[arg-type]
            elif problem:
                unmatched.append(Unmatched(key, problem[0], problem[1]))
    for entry in sorted(head_entries - set(base_entries)):
        unmatched.append(Unmatched(entry, "head", "no result for this entry in base"))
    comparisons = _finish(_prepare(pairs, options), options)
    notes = [n for side in (base, head) for s in side.values() for n in s.notes]
    return CompareResult(comparisons, unmatched, options, notes)


def _unusable(metric: str, b: Samples | None, h: Samples | None) -> tuple[str, str] | str | None:
    """None when comparable; "" when absent on both sides; else (side, reason)."""
    if b is None and h is None:
        return ""
    if b is None or h is None:
        side = "base" if b is not None else "head"
        return side, f"metric {metric} only in {side}"
    for side, s in (("base", b), ("head", h)):
        if not s.forks:
            return side, f"no finite values for {metric} in {side}"
    if b.unit != h.unit:
        return "base", f"units differ: {b.unit} in base, {h.unit} in head"
    return None


# ---------------------------------------------------------------------------- one key

BATCH_MIN = 8
"""Keys sharing one shape are computed together from this many on (fewer do not pay)."""


@dataclass
class _SideFacts:
    """One side's numbers behind the verdict and diagnostics, however they were computed."""

    summary: strategies.SideSummary
    components: variance.Components | None = None
    cv: float = math.nan
    trending: bool = False
    prefixes: list[int] = field(default_factory=list)


@dataclass
class _Pending:
    """A comparison before the family-wide adjustment decides its verdict."""

    base: Samples
    head: Samples
    strategy: strategies.Strategy
    effect: strategies.Effect
    base_facts: _SideFacts
    head_facts: _SideFacts
    warnings: list[str] = field(default_factory=list)
    diagnostics: dict[str, Any] = field(default_factory=dict)
    trimmed: strategies.Effect | None = None

    def sides(self) -> tuple[tuple[str, Samples, _SideFacts], ...]:
        return (("base", self.base, self.base_facts), ("head", self.head, self.head_facts))


_Item = tuple[Samples, Samples, strategies.Strategy]


def _prepare(pairs: list[tuple[Samples, Samples]], options: CompareOptions) -> list[_Pending]:
    """Strategy, effect, side facts and diagnostics of every pair; batched by shape."""
    items: list[_Item] = []
    for b, h in pairs:
        # one matrix per side when forks are equally long: every statistic is one array op
        b = replace(b, forks=as_matrix_or_list(b.forks))
        h = replace(h, forks=as_matrix_or_list(h.forks))
        items.append((b, h, strategies.choose(b.forks, h.forks, is_bytes(b.unit))))
    done: dict[int, _Pending] = {}
    for indices in _batch_groups(items).values():
        if len(indices) >= BATCH_MIN:
            done.update(_compare_batch(items, indices, options))
    pending = [done.get(i) or _compare_key(*item, options) for i, item in enumerate(items)]
    for p in pending:
        _describe_strategy(p)
        if p.strategy is not strategies.EXACT:
            _diagnose(p, options)
    return pending


def _batch_groups(items: list[_Item]) -> dict[tuple[Any, ...], list[int]]:
    """Fork-level keys with positive, equally shaped data, grouped by shape and direction."""
    groups: dict[tuple[Any, ...], list[int]] = {}
    for i, (b, h, strategy) in enumerate(items):
        if (
            strategy is strategies.FORK_LEVEL
            and isinstance(b.forks, np.ndarray)
            and isinstance(h.forks, np.ndarray)
            and bool((b.forks > 0).all())
            and bool((h.forks > 0).all())
        ):
            groups.setdefault((b.forks.shape, h.forks.shape, b.direction), []).append(i)
    return groups


def _compare_batch(
    items: list[_Item], indices: list[int], options: CompareOptions
) -> dict[int, _Pending]:
    base = np.stack([items[i][0].forks for i in indices])
    head = np.stack([items[i][1].forks for i in indices])
    worse = _worse(items[indices[0]][0])
    r = batch.fork_level_batch(base, head, options.confidence, worse)
    ratio, lo, hi, p_value, df = (a.tolist() for a in (r.ratio, r.lo, r.hi, r.p_value, r.df))
    base_facts = _facts_from_batch(base, r.base, worse)
    head_facts = _facts_from_batch(head, r.head, worse)
    out = {}
    for j, i in enumerate(indices):
        b, h, strategy = items[i]
        effect = strategies.Effect(ratio[j], lo[j], hi[j], p_value[j], df[j])
        out[i] = _Pending(b, h, strategy, effect, base_facts[j], head_facts[j])
    return out


def _facts_from_batch(values: np.ndarray, side: batch.SideBatch, worse: str) -> list[_SideFacts]:
    keys, forks, iterations = values.shape
    prefixes = [[0] * forks for _ in range(keys)]
    for j, f in zip(*np.nonzero(side.may_be_unsettled), strict=True):
        prefixes[j][f] = warmup.unsettled_prefix(values[j, f], worse)
    columns = zip(
        *(
            a.tolist()
            for a in (
                side.value,
                side.lo,
                side.hi,
                side.fork_means_var,
                side.within,
                side.between,
                side.cv,
                side.trending,
            )
        ),
        strict=True,
    )
    return [
        _SideFacts(
            summary=strategies.SideSummary(value, lo, hi, forks, forks * iterations),
            components=variance.Components(forks, float(iterations), fm_var, within, between),
            cv=cv,
            trending=trending,
            prefixes=prefixes[j],
        )
        for j, (value, lo, hi, fm_var, within, between, cv, trending) in enumerate(columns)
    ]


def _compare_key(
    b: Samples, h: Samples, strategy: strategies.Strategy, options: CompareOptions
) -> _Pending:
    effect = strategy.compare(b.forks, h.forks, options.confidence)
    diagnose = strategy is not strategies.EXACT
    return _Pending(
        b,
        h,
        strategy,
        effect,
        _side_facts(b, strategy, options, diagnose),
        _side_facts(h, strategy, options, diagnose),
    )


def _side_facts(
    s: Samples, strategy: strategies.Strategy, options: CompareOptions, diagnose: bool
) -> _SideFacts:
    summary = strategy.summarize(s.forks, options.confidence)
    if not diagnose:
        return _SideFacts(summary)
    positive = bool(np.all(np.concatenate(list(s.forks)) > 0))
    return _SideFacts(
        summary=summary,
        components=variance.components(s.forks) if positive else None,
        cv=variance.cv_of_fork_means(s.forks),
        trending=warmup.is_trending(s.forks),
        prefixes=warmup.unsettled_prefixes(s.forks, _worse(s)),
    )


def _describe_strategy(p: _Pending) -> None:
    p.diagnostics.update({"strategy": p.strategy.name, "df": _finite_or_none(p.effect.df)})
    nb, nh = p.base.fork_count, p.head.fork_count
    if p.strategy is strategies.EXACT:
        p.warnings.append(
            "bytes/op compared exactly (equal within 0.5 B or 0.1%), not statistically: "
            "allocation per op is near-deterministic"
        )
    elif p.strategy is strategies.ITERATION_LEVEL:
        p.warnings.append(
            f"only {nb} base / {nh} head fork(s): no fork-to-fork variation measured, "
            "iterations compared as if independent, so the interval is too narrow; "
            "rerun with -f 3 or more"
        )
    elif is_bytes(p.base.unit):
        p.warnings.append(
            "bytes/op varies more than 0.5 B or 0.1% within a side: compared statistically"
        )


def _diagnose(p: _Pending, options: CompareOptions) -> None:
    d = p.diagnostics
    nb, nh = p.base.fork_count, p.head.fork_count
    if p.strategy is strategies.FORK_LEVEL and min(nb, nh) < MIN_FORKS:
        p.warnings.append(
            f"too few forks: {nb} base, {nh} head (fewer than {MIN_FORKS} per side); "
            "the verdict rests on very few JVMs"
        )
    comps = {side: f.components for side, _, f in p.sides() if f.components is not None}
    d["cv_fork_means"] = {side: _finite_or_none(f.cv) for side, _, f in p.sides()}
    d["between_fork_share"] = {
        side: _finite_or_none(c.between_share) if c.forks >= 2 else None
        for side, c in comps.items()
    }
    _power(p, comps, options)
    _warmup(p, options)
    for side, s, facts in p.sides():
        _bimodal(p, side, s, facts)
        if facts.trending:
            d.setdefault("trending", []).append(side)
            p.warnings.append(
                f"{side} iterations still trending inside every fork: warm-up not reached, "
                "use more or longer warm-up iterations"
            )


def _bimodal(p: _Pending, side: str, s: Samples, facts: _SideFacts) -> None:
    """Two levels among fork means (code shapes per JVM) or among iterations (jumps)."""
    settled = warmup.trim(s.forks, facts.prefixes)
    candidates = (
        ("forks", fork_means(s.forks), shape.MIN_RELATIVE_GAP),
        ("iterations", np.concatenate(settled), shape.ITERATION_RELATIVE_GAP),
    )
    for level, values, min_gap in candidates:
        split = shape.bimodal_split(values, min_gap)
        if split is None:
            continue
        p.diagnostics.setdefault("bimodal", {})[side] = {
            "level": level,
            "low": split.low_level,
            "high": split.high_level,
            "low_count": split.low_count,
            "high_count": split.high_count,
        }
        advice = (
            "the mean mixes two code shapes; run more forks to weigh them"
            if level == "forks"
            else "iterations jump between two levels (JIT deoptimisation, GC or a noisy "
            "machine); the fork means average them"
        )
        p.warnings.append(
            f"bimodal {side} {level}: {split.low_count} near {_short(split.low_level)} and "
            f"{split.high_count} near {_short(split.high_level)} {s.unit}; {advice}"
        )
        return


def _worse(s: Samples) -> str:
    """Which side of the settled level a warm-up iteration lies on for this metric."""
    return "below" if s.direction is Direction.HIGHER else "above"


def _power(p: _Pending, comps: dict[str, variance.Components], options: CompareOptions) -> None:
    if p.strategy is not strategies.FORK_LEVEL or len(comps) < 2:
        return
    var = sum(c.fork_means_var for c in comps.values()) / len(comps)
    between = sum(c.between for c in comps.values()) / len(comps)
    forks = min(p.base.fork_count, p.head.fork_count)
    p.diagnostics["power"] = {
        "mde_pct": _finite_or_none(power.mde_pct(var, forks, options.alpha)),
        "forks_needed": power.forks_needed(var, options.threshold, options.alpha),
        # Kalibera & Jones: with endless iterations per fork only the fork component is left;
        # when this is close to forks_needed, longer forks cannot replace more forks
        "forks_needed_unlimited_iterations": power.forks_needed(
            between, options.threshold, options.alpha
        ),
        "between_var_log": between,
        "within_var_log": sum(c.within for c in comps.values()) / len(comps),
    }


def _warmup(p: _Pending, options: CompareOptions) -> None:
    if not any(k for _, _, facts in p.sides() for k in facts.prefixes):
        return
    found = []
    for side, s, facts in p.sides():
        for i, (fork, k) in enumerate(zip(s.forks, facts.prefixes, strict=True)):
            if k:
                found.append(
                    {
                        "side": side,
                        "fork": i + 1,
                        "iterations": k,
                        "unsettled_mean": float(np.mean(fork[:k])),
                        "settled_mean": float(np.mean(fork[k:])),
                    }
                )
    p.diagnostics["unsettled"] = found
    base_t = warmup.trim(p.base.forks, p.base_facts.prefixes)
    head_t = warmup.trim(p.head.forks, p.head_facts.prefixes)
    p.trimmed = p.strategy.compare(base_t, head_t, options.confidence)


# ---------------------------------------------------------------------------- family


def _finish(pending: list[_Pending], options: CompareOptions) -> list[Comparison]:
    """Adjust the tested p-values together, then decide each verdict."""
    tested = [i for i, p in enumerate(pending) if p.strategy is not strategies.EXACT]
    raw = np.array([pending[i].effect.p_value for i in tested], dtype=float)
    adjusted = holm(raw) if options.holm else raw
    position = {i: j for j, i in enumerate(tested)}
    out = []
    for i, p in enumerate(pending):
        p_holm = float(adjusted[position[i]]) if i in position else p.effect.p_value
        trimmed_p = None
        if p.trimmed is not None:
            trimmed_p = p.trimmed.p_value
            if options.holm and i in position:
                # the same family, with this comparison's p-value from the trimmed data
                swapped = raw.copy()
                swapped[position[i]] = p.trimmed.p_value
                trimmed_p = float(holm(swapped)[position[i]])
        out.append(_build(p, p_holm, trimmed_p, options))
    return out


def _build(p: _Pending, p_holm: float, trimmed_p: float | None, opt: CompareOptions) -> Comparison:
    e = p.effect
    significant = p_holm <= opt.alpha
    verdict = decide(e.ratio, e.lo, e.hi, significant, p.base.direction, opt.threshold)
    warnings = list(p.warnings)
    if opt.holm and e.p_value <= opt.alpha < p_holm and p.strategy is not strategies.EXACT:
        warnings.append(
            f"significant alone (p={e.p_value:.2g}) but not after Holm adjustment across "
            f"all comparisons (p_holm={p_holm:.2g})"
        )
    diagnostics = dict(p.diagnostics)
    diagnostics["forks"] = {"base": p.base.fork_count, "head": p.head.fork_count}
    diagnostics["iterations"] = {
        "base": p.base_facts.summary.iterations,
        "head": p.head_facts.summary.iterations,
    }
    if p.trimmed is not None and trimmed_p is not None:
        t = p.trimmed
        alt = decide(t.ratio, t.lo, t.hi, trimmed_p <= opt.alpha, p.base.direction, opt.threshold)
        diagnostics["without_unsettled"] = {
            "verdict": str(alt),
            "ratio": t.ratio,
            "ratio_ci": [t.lo, t.hi],
            "delta_pct": _pct(t.ratio),
            "p_holm": trimmed_p,
        }
        where = ", ".join(
            f"{u['side']} fork {u['fork']} ({u['iterations']} at {_short(u['unsettled_mean'])} vs "
            f"{_short(u['settled_mean'])} {p.base.unit} after)"
            for u in diagnostics["unsettled"]
        )
        warnings.append(
            f"warm-up not reached: first measurement iterations unsettled in {where}; "
            f"verdict with them {verdict}, without them {alt} "
            f"({_signed(_pct(t.ratio))}% [{_signed(_pct(t.lo))}, {_signed(_pct(t.hi))}])"
        )
    pw = diagnostics.get("power") or {}
    mde = pw.get("mde_pct")
    needed = pw.get("forks_needed")
    if verdict is Verdict.INCONCLUSIVE and mde is not None:
        warnings.append(
            f"inconclusive: this design detects {_mde_text(mde)} at 80% power; "
            f"about {_forks_text(needed)} per side would resolve {opt.threshold * 100:g}%"
        )
    return Comparison(
        key=p.base.key,
        unit=p.base.unit,
        direction=p.base.direction,
        base=_estimate(p.base_facts.summary),
        head=_estimate(p.head_facts.summary),
        ratio=e.ratio,
        ratio_ci=(e.lo, e.hi),
        delta_pct=_pct(e.ratio),
        delta_ci_pct=(_pct(e.lo), _pct(e.hi)),
        verdict=verdict,
        p_value=e.p_value,
        p_holm=p_holm,
        mde_pct=mde,
        forks_needed=needed,
        method=p.strategy.name,
        warnings=warnings,
        diagnostics=diagnostics,
        jmh=jmh_scores(p.base, p.head),
    )


def _mde_text(mde: float) -> str:
    """Past ±999% the exact figure says nothing more than "nothing this design can see"."""
    return "only changes beyond ±999%" if mde > 999.0 else f"about ±{mde:.1f}%"


def _forks_text(n: int | None) -> str:
    if n is None:
        return "an unknown number of forks"
    return f"{n} forks" if n < power.MAX_FORKS else f"more than {power.MAX_FORKS} forks"


def _estimate(s: strategies.SideSummary) -> Estimate:
    return Estimate(s.value, (s.lo, s.hi), s.forks, s.iterations)


def jmh_scores(b: Samples, h: Samples) -> dict[str, Any]:
    """JMH's own score ± scoreError per side and whether the two 99.9% intervals overlap.

    One file per side: JMH's numbers as printed. Several rounds: recomputed the way JMH does
    (all iterations pooled, Student t at 99.9%), since JMH never saw the rounds together.
    """
    bs, be, b_re = _jmh_side(b)
    hs, he, h_re = _jmh_side(h)
    overlap = None
    if all(math.isfinite(v) for v in (bs, be, hs, he)):
        overlap = bool(bs - be <= hs + he and hs - he <= bs + be)
    return {
        "base_score": bs,
        "base_error": be,
        "head_score": hs,
        "head_error": he,
        "overlap": overlap,
        "recomputed": b_re or h_re,
    }


def _jmh_side(s: Samples) -> tuple[float, float, bool]:
    if len(s.jmh) == 1:
        return s.jmh[0].score, s.jmh[0].error, False
    values = np.concatenate(s.forks)
    score = float(values.mean())
    if values.size < 2:
        return score, math.nan, True
    err = t_critical(JMH_CONFIDENCE, values.size - 1) * float(values.std(ddof=1))
    return score, err / math.sqrt(values.size), True


# ---------------------------------------------------------------------------- document


def compare_document(result: CompareResult) -> dict[str, Any]:
    """The ``perfproof.compare/1`` JSON document (stable keys; non-finite numbers → null)."""
    opt = result.options
    return {
        "schema": SCHEMA,
        "confidence": opt.confidence,
        "threshold": opt.threshold,
        "holm": opt.holm,
        "metrics": list(opt.metrics),
        "comparisons": [comparison_document(c) for c in result.comparisons],
        "unmatched": [
            {
                "benchmark": u.key.benchmark,
                "mode": u.key.mode,
                "params": u.key.params_dict,
                "metric": u.key.metric,
                "side": u.side,
                "reason": u.reason,
            }
            for u in result.unmatched
        ],
        "notes": list(result.notes),
    }


def comparison_document(c: Comparison) -> dict[str, Any]:
    """One comparison as a JSON-ready dict (the elements of ``comparisons``)."""
    doc = {
        "benchmark": c.key.benchmark,
        "mode": c.key.mode,
        "params": c.key.params_dict,
        "metric": c.key.metric,
        "unit": c.unit,
        "direction": str(c.direction),
        "method": c.method,
        "base": _side_doc(c.base),
        "head": _side_doc(c.head),
        "ratio": c.ratio,
        "ratio_ci": list(c.ratio_ci),
        "delta_pct": c.delta_pct,
        "delta_ci_pct": list(c.delta_ci_pct),
        "verdict": str(c.verdict),
        "p_value": c.p_value,
        "p_holm": c.p_holm,
        "mde_pct": c.mde_pct,
        "forks_needed": c.forks_needed,
        "jmh": c.jmh,
        "warnings": list(c.warnings),
        "diagnostics": c.diagnostics,
    }
    return _json_safe(doc)


def _side_doc(e: Estimate) -> dict[str, Any]:
    return {"estimate": e.value, "ci": list(e.ci), "forks": e.forks, "iterations": e.iterations}


def _json_safe(value: Any) -> Any:
    if isinstance(value, dict):
        return {str(k): _json_safe(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_json_safe(v) for v in value]
    if isinstance(value, float | np.floating):
        return float(value) if math.isfinite(value) else None
    if isinstance(value, np.integer):
        return int(value)
    if isinstance(value, np.bool_):
        return bool(value)
    return value


# ---------------------------------------------------------------------------- small helpers


def _pct(ratio: float) -> float:
    return (ratio - 1.0) * 100.0


def _finite_or_none(x: float) -> float | None:
    return float(x) if math.isfinite(x) else None


def _signed(x: float) -> str:
    return f"{x:+.1f}" if math.isfinite(x) else "n/a"


def num(x: float | None, exponent_from: float = 1e10) -> str:
    """Four significant digits (all integer digits below ``exponent_from``) with thousands
    separators; an exponent only for the extremes."""
    if x is None or not math.isfinite(x):
        return "n/a" if x is None or math.isnan(x) else ("∞" if x > 0 else "-∞")
    if x == 0:
        return "0"
    if 1e-3 <= abs(x) < exponent_from:
        digits = max(0, 3 - math.floor(math.log10(abs(x))))
        return f"{x:,.{digits}f}"
    return f"{x:.3e}" if abs(x) >= 1 else f"{x:.4g}"


def _short(x: float) -> str:
    """A number inside a sentence: ``150,744`` but ``2.381e+07``."""
    return num(x, exponent_from=1e7)
