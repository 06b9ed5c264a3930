"""What the data says about itself, beside the verdict: notes a user can act on.

Each check fills ``diagnostics`` (numbers, for JSON readers) and adds a typed note
(:mod:`perfproof.compare.notes`: a kind, and the sentence saying what to do): too few forks,
bimodal forks or iterations, iterations still trending, unsettled first iterations (with the
verdict recomputed without them), and the power of the design (the smallest change it
detects, the forks that would resolve θ).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

import numpy as np

from perfproof.compare import notes
from perfproof.compare.result import CompareOptions
from perfproof.jmh.units import is_bytes
from perfproof.model import Samples, Side
from perfproof.model.diagnostics import Bimodal, Power, UnsettledFork
from perfproof.stats import power, shape, variance, warmup
from perfproof.stats.forks import fork_means

if TYPE_CHECKING:
    from perfproof.compare.pending import Pending, SideFacts


def describe_strategy(p: Pending, options: CompareOptions) -> None:
    """The method's name and degrees of freedom, and the notes it says its comparisons carry."""
    p.diagnostics.strategy = p.strategy.name
    p.diagnostics.df = finite_or_none(p.effect.df)
    nb, nh = p.base.fork_count, p.head.fork_count
    p.notes.extend(p.strategy.notes(nb, nh, is_bytes(p.base.unit), options.alpha))


def diagnose(p: Pending, options: CompareOptions) -> None:
    d = p.diagnostics
    comps = {side: f.components for side, _, f in p.sides() if f.components is not None}
    d.cv_fork_means = {side: finite_or_none(f.cv) for side, _, f in p.sides()}
    d.between_fork_share = {
        side: finite_or_none(c.between_share) if c.forks >= 2 else None for side, c in comps.items()
    }
    _power(p, comps, options)
    _warmup(p, options)
    for side, s, facts in p.sides():
        _bimodal(p, side, s, facts)
        if facts.trending:
            d.trending = [*(d.trending or []), side]
            p.notes.append(notes.trending(side))


def _bimodal(p: Pending, side: Side, s: Samples, facts: SideFacts) -> None:
    """Two levels among fork means (code shapes per JVM) or among iterations (jumps)."""
    settled = warmup.trim(s.forks, facts.prefixes)
    candidates: tuple[tuple[Literal["forks", "iterations"], np.ndarray, float], ...] = (
        ("forks", fork_means(s.forks), shape.MIN_RELATIVE_GAP),
        ("iterations", np.concatenate(settled), shape.ITERATION_RELATIVE_GAP),
    )
    for level, values, min_gap in candidates:
        split = shape.bimodal_split(values, min_gap)
        if split is None:
            continue
        found = Bimodal(level, split.low_level, split.high_level, split.low_count, split.high_count)
        p.diagnostics.bimodal = {**(p.diagnostics.bimodal or {}), side: found}
        low = (split.low_count, split.low_level)
        high = (split.high_count, split.high_level)
        p.notes.append(notes.bimodal(side, level, low, high, s.unit))
        return


def _power(p: Pending, comps: dict[Side, variance.Components], options: CompareOptions) -> None:
    method = p.strategy
    if not method.has_power or len(comps) < 2:
        return
    var = sum(c.fork_means_var for c in comps.values()) / len(comps)
    between = sum(c.between for c in comps.values()) / len(comps)
    forks = min(p.base.fork_count, p.head.fork_count)
    p.diagnostics.power = Power(
        mde_pct=finite_or_none(power.log_pct(method.mde_log(var, forks, options.alpha))),
        forks_needed=method.forks_needed(var, options.threshold, options.alpha),
        # Kalibera & Jones: with endless iterations per fork only the fork component is left;
        # when this is close to forks_needed, longer forks cannot replace more forks
        forks_needed_unlimited_iterations=method.forks_needed(
            between, options.threshold, options.alpha
        ),
        between_var_log=between,
        within_var_log=sum(c.within for c in comps.values()) / len(comps),
    )


def _warmup(p: Pending, options: CompareOptions) -> None:
    if not any(k for _, _, facts in p.sides() for k in facts.prefixes):
        return
    found: list[UnsettledFork] = []
    for side, s, facts in p.sides():
        for i, (fork, k) in enumerate(zip(s.forks, facts.prefixes, strict=True)):
            if k:
                found.append(
                    UnsettledFork(
                        side=side,
                        fork=i + 1,
                        iterations=k,
                        unsettled_mean=float(np.mean(fork[:k])),
                        settled_mean=float(np.mean(fork[k:])),
                    )
                )
    p.diagnostics.unsettled = found
    base_t = warmup.trim(p.base.forks, p.base_facts.prefixes)
    head_t = warmup.trim(p.head.forks, p.head_facts.prefixes)
    p.trimmed = p.strategy.compare(base_t, head_t, options.confidence)


def finite_or_none(x: float) -> float | None:
    return float(x) if np.isfinite(x) else None
