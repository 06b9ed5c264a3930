"""The effect and the side facts of every compared key, computed in batches where shapes allow.

For each pair of sides this picks the method (the fork-level one the options name, exact, or
iteration-level; :func:`perfproof.stats.methods.choose`), computes
the ratio head/base with its interval and p-value at the nominal confidence, and each side's
estimate, variance components, warm-up and trend facts. Keys that share one shape are
stacked and computed as whole arrays; the family procedure (``compare.family``) decides the
verdicts afterwards, since a key's verdict depends on the others.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import numpy as np

from perfproof.compare import diagnostics
from perfproof.compare.pending import Pending, SideFacts
from perfproof.compare.result import CompareOptions
from perfproof.jmh.units import is_bytes
from perfproof.model import Direction, Estimate, Samples
from perfproof.stats import batch, methods, variance, warmup
from perfproof.stats.forks import as_matrix_or_list
from perfproof.stats.method import Method

BATCH_MIN = 8
"""Keys sharing one shape are computed together from this many on (fewer do not pay)."""


_Item = tuple[Samples, Samples, Method]


def prepare(pairs: list[tuple[Samples, Samples]], options: CompareOptions) -> list[Pending]:
    """Method, effect, side facts and diagnostics of every pair; batched by shape."""
    fork_level = methods.fork_method(options.method)
    items: list[_Item] = []
    for b, h in pairs:
        # one matrix per side when forks are equally long: every statistic is one array op
        # a 2-D array stands in for the list of forks here: iterating it gives the forks, and
        # the statistics below read it as one matrix
        b = replace(b, forks=as_matrix_or_list(b.forks))  # type: ignore[arg-type]
        h = replace(h, forks=as_matrix_or_list(h.forks))  # type: ignore[arg-type]
        counted = (b.counted, h.counted)
        chosen = methods.choose(b.forks, h.forks, is_bytes(b.unit), fork_level, counted)
        items.append((b, h, chosen))
    done: dict[int, Pending] = {}
    for indices in _batch_groups(items).values():
        if len(indices) >= BATCH_MIN:
            done.update(_compare_batch(items, indices, options))
    pending = [done.get(i) or _compare_key(*item, options) for i, item in enumerate(items)]
    for p in pending:
        diagnostics.describe_strategy(p, options)
        if not p.strategy.plain:
            diagnostics.diagnose(p, options)
    return pending


def _batch_groups(items: list[_Item]) -> dict[tuple[Any, ...], list[int]]:
    """Keys of a method with a batch path (:meth:`Method.compare_rows`) and positive, equally
    shaped data, grouped by method, shape and direction."""
    groups: dict[tuple[Any, ...], list[int]] = {}
    for i, (b, h, strategy) in enumerate(items):
        if (
            strategy.describes_ratio
            and isinstance(b.forks, np.ndarray)
            and isinstance(h.forks, np.ndarray)
            and bool((b.forks > 0).all())
            and bool((h.forks > 0).all())
        ):
            key = (strategy.name, b.forks.shape, h.forks.shape, b.direction)
            groups.setdefault(key, []).append(i)
    return groups


def _compare_batch(
    items: list[_Item], indices: list[int], options: CompareOptions
) -> dict[int, Pending]:
    base = np.stack([items[i][0].forks for i in indices])
    head = np.stack([items[i][1].forks for i in indices])
    worse = worse_side(items[indices[0]][0])
    strategy = items[indices[0]][2]
    effects = strategy.compare_rows(base.mean(axis=-1), head.mean(axis=-1), options.confidence)
    if effects is None:
        return {}
    side = [batch.side_batch(v, options.confidence, worse) for v in (base, head)]
    base_facts = _facts_from_batch(base, side[0], worse)
    head_facts = _facts_from_batch(head, side[1], worse)
    out = {}
    for j, i in enumerate(indices):
        b, h, _ = items[i]
        out[i] = Pending(b, h, strategy, effects[j], base_facts[j], head_facts[j])
    return out


def _facts_from_batch(values: np.ndarray, side: batch.SideBatch, worse: str) -> list[SideFacts]:
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
        SideFacts(
            summary=Estimate(value, (lo, hi), forks, forks * iterations),
            components=variance.Components(forks, float(iterations), fm_var, within, between),
            cv=cv,
            trending=trending,
            prefixes=prefixes[j],
        )
        for j, (value, lo, hi, fm_var, within, between, cv, trending) in enumerate(columns)
    ]


def _compare_key(b: Samples, h: Samples, strategy: Method, options: CompareOptions) -> Pending:
    effect = strategy.compare(b.forks, h.forks, options.confidence)
    diagnose = not strategy.plain
    return Pending(
        b,
        h,
        strategy,
        effect,
        _side_facts(b, strategy, options, diagnose),
        _side_facts(h, strategy, options, diagnose),
    )


def _side_facts(s: Samples, strategy: Method, options: CompareOptions, diagnose: bool) -> SideFacts:
    summary = strategy.summarize(s.forks, options.confidence)
    if not diagnose:
        return SideFacts(summary)
    positive = bool(np.all(np.concatenate(list(s.forks)) > 0))
    return SideFacts(
        summary=summary,
        components=variance.components(s.forks) if positive else None,
        cv=variance.cv_of_fork_means(s.forks),
        trending=warmup.is_trending(s.forks),
        prefixes=warmup.unsettled_prefixes(s.forks, worse_side(s)),
    )


def worse_side(s: Samples) -> str:
    """Which side of the settled level a warm-up iteration lies on for this metric."""
    return warmup.worse_for(s.direction is Direction.HIGHER)
