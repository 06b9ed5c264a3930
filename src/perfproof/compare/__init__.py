"""Compare two sides of JMH results key by key: the engine behind ``perfproof compare``.

The package is split by job: ``match`` pairs keys and refuses inputs no statistic can use,
``effects`` computes each key's ratio and side facts (in batches where shapes allow),
``diagnostics`` adds the warnings a user can act on, ``family`` applies the family procedure
and decides the verdicts on the intervals it shows, and ``jmhview`` relates the result to JMH's
own numbers. The document (``perfproof.compare/1``) is typed in
``perfproof.model.documents.compare``; the rendering is in ``perfproof.render.comparison``.
Other verbs (``ab``, ``guard``, ``report``) call :func:`compare_sides` on their own ``Samples``.
"""

from __future__ import annotations

import numpy as np

from perfproof.compare.effects import BATCH_MIN, prepare
from perfproof.compare.family import finish
from perfproof.compare.geomean import geomean_docs
from perfproof.compare.jmhview import JMH_CONFIDENCE, jmh_scores
from perfproof.compare.match import check_inputs, check_metrics, match, nothing_to_compare
from perfproof.compare.result import DEFAULT_METRICS, CompareOptions, CompareResult
from perfproof.jmh.reader import load_side
from perfproof.model import BenchKey, Comparison, Samples, Unmatched
from perfproof.model.documents.compare import SCHEMA, CompareDocument
from perfproof.model.documents.variants import Variants
from perfproof.model.metrics import is_gc_cost
from perfproof.model.variants import split

__all__ = [
    "BATCH_MIN",
    "DEFAULT_METRICS",
    "JMH_CONFIDENCE",
    "SCHEMA",
    "CompareOptions",
    "CompareResult",
    "Unmatched",
    "check_metrics",
    "compare_document",
    "compare_gc_costs",
    "compare_sides",
    "compare_specs",
    "compare_variants",
    "document",
    "jmh_scores",
]


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
        raise nothing_to_compare(base, head, base_side, head_side, result.unmatched)
    return result


def compare_variants(spec: str, variants: Variants, options: CompareOptions) -> CompareResult:
    """Compare two variants measured in one result set (``--pair``, ``--sides-by-param``)."""
    base_side, head_side = split(load_side(spec), variants)
    check_metrics(options.metrics, base_side, head_side)
    result = compare_sides(base_side, head_side, options)
    if not result.comparisons:
        raise nothing_to_compare(spec, spec, base_side, head_side, result.unmatched)
    result.notes.insert(0, variants.describe())
    return result


def compare_sides(
    base: dict[BenchKey, Samples], head: dict[BenchKey, Samples], options: CompareOptions
) -> CompareResult:
    """Match entries by (benchmark, mode, params), compare each selected metric, decide the
    verdicts across the family."""
    check_inputs("base", base)
    check_inputs("head", head)
    pairs, unmatched = match(base, head, options.normalised_metrics())
    # scores near the float limit (1e306) have variances beyond it: those become inf (shown
    # as n/a) instead of a numpy warning per key; the log ratio itself stays finite
    with np.errstate(over="ignore", invalid="ignore"):
        comparisons = finish(prepare(pairs, options), options)
    notes = [n for side in (base, head) for s in side.values() for n in s.notes]
    return CompareResult(comparisons, unmatched, options, notes)


def compare_gc_costs(
    base: dict[BenchKey, Samples], head: dict[BenchKey, Samples], options: CompareOptions
) -> list[Comparison]:
    """GC time and collections per operation of every entry, over every fork measured: the
    sequential looks leave them out (they never hold a key in the plan), so a sequential run
    compares them once at its end, in their family of their own."""
    costs = tuple(m for m in options.normalised_metrics() if is_gc_cost(m))
    pairs, _ = match(base, head, costs)
    if not pairs:
        return []
    with np.errstate(over="ignore", invalid="ignore"):
        return finish(prepare(pairs, options), options)


def document(result: CompareResult, *, geomean: bool = False) -> CompareDocument:
    """The typed ``perfproof.compare/1`` document of a result; with ``geomean``, benchstat's
    geomean rows over its comparisons too (what ``compare --format json`` prints; a run's
    ``results.json`` leaves them to its report)."""
    opt = result.options
    return CompareDocument(
        confidence=opt.confidence,
        threshold=opt.threshold,
        family=opt.family,
        metrics=list(opt.metrics),
        comparisons=list(result.comparisons),
        unmatched=list(result.unmatched),
        notes=list(result.notes),
        geomean=geomean_docs(result.comparisons) if geomean else None,
    )


def compare_document(result: CompareResult) -> dict[str, object]:
    """The ``perfproof.compare/1`` JSON document (stable keys; non-finite numbers → null)."""
    return document(result).dump()
