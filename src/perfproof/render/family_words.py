"""What the family procedure did, as the methodology says it: the statistical comparisons
counted as the tables show them (one Δ% a row, then any bytes/op or secondary metric compared
statistically), the exact ones apart, and GC costs per operation as the family of their own
they are (:mod:`perfproof.compare.family`)."""

from __future__ import annotations

from collections.abc import Sequence

from perfproof.model import PRIMARY, Comparison
from perfproof.model.metrics import is_gc_cost
from perfproof.stats import family, methods


def family_sentence(comparisons: Sequence[Comparison], method: str, alpha: float) -> str:
    """What the family procedure did, with counts that match the tables: the statistical
    comparisons are the Δ% column (one per row) plus any bytes/op or secondary metric that
    was compared statistically rather than exactly. GC costs per operation are a family of
    their own, said apart."""
    gc = [c for c in comparisons if is_gc_cost(c.key.metric)]
    comparisons = [c for c in comparisons if not is_gc_cost(c.key.metric)]
    tested = [c for c in comparisons if methods.of(c.method).in_family]
    rows = sum(1 for c in tested if c.key.metric == PRIMARY)
    others = len(tested) - rows
    selected = sum(1 for c in tested if _excludes_one(c))
    where = f"the {rows} Δ% interval{'s' if rows != 1 else ''} of the tables"
    if others:
        where += f" and {others} bytes/op or secondary metric{'s' if others != 1 else ''}"
    m = len(tested)
    text = family.describe(method, alpha, m, selected).replace(
        f"{m} statistical comparison{'s' if m != 1 else ''}",
        f"{m} statistical comparison{'s' if m != 1 else ''} ({where})",
        1,
    )
    exact = sum(1 for c in comparisons if not methods.of(c.method).in_family)
    if exact:
        text += f"; {exact} bytes/op comparison{'s were' if exact != 1 else ' was'} exact"
    text += _gc_family(gc)
    return text + "."


def _excludes_one(c: Comparison) -> bool:
    lo, hi = c.ratio_ci
    return lo > 1.0 or hi < 1.0


def _gc_family(gc: Sequence[Comparison]) -> str:
    """The GC costs' family, for the multiplicity sentence; nothing when none was tested."""
    tested = [c for c in gc if methods.of(c.method).in_family]
    if not tested:
        return ""
    changed = sum(1 for c in tested if _excludes_one(c))
    return (
        f"; GC time and collections per operation are a family of their own "
        f"({len(tested)} comparison{'s' if len(tested) != 1 else ''}, {changed} with an "
        "interval that excludes 1), never a reason to stop or fail"
    )
