"""Keys that measure nothing, as the results section says it: a side of theirs runs within a
few times this machine's empty benchmark (the ``near-floor`` notes of
:mod:`perfproof.pipeline.ab.floor`), counted in the summary and named above the tables."""

from __future__ import annotations

from collections.abc import Sequence

from perfproof.model import Comparison
from perfproof.model.diagnostics import Kind
from perfproof.render.markdown import md_text


def floor_notes(c: Comparison) -> list[str]:
    """The ``near-floor`` notes of a comparison: a side runs as fast as an empty benchmark."""
    return [n.text for n in c.diagnostics.notes or () if n.kind is Kind.NEAR_FLOOR]


def measures_nothing(comparisons: Sequence[Comparison]) -> str:
    """``; 1 key measures nothing (…)`` for the summary line; nothing when no key does."""
    n = sum(1 for c in comparisons if floor_notes(c))
    if not n:
        return ""
    return (
        f"; {n} key{'s' if n > 1 else ''} measure{'' if n > 1 else 's'} nothing (within a few "
        "times the empty benchmark's cost, see Warnings)"
    )


def floor_lines(comparisons: Sequence[Comparison]) -> list[str]:
    """Every key that measures nothing, named under a heading (nothing when none does)."""
    found = [(c.key.entry().label(), text) for c in comparisons for text in floor_notes(c)]
    if not found:
        return []
    lines = [f"- `{md_text(label)}`: {md_text(text)}" for label, text in found]
    return ["**Measures nothing:**", "", *lines, ""]
