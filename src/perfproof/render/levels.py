"""The level of each interval a report shows, named once.

A sequential look decides at its own level (stricter than the run's nominal one, and
different from look to look); a step-down family procedure gives each rank its own. A reader
should meet one level per interval and see it named once, so the header names the level when
every row shares it and a sentence under the tables names each level with the looks it was
decided at when they differ; a side's interval is shown at its row's level too.
"""

from __future__ import annotations

from collections.abc import Sequence

from perfproof.model import Comparison, Estimate
from perfproof.stats import methods


def side_interval(c: Comparison, e: Estimate, confidence: float | None) -> tuple[float, float]:
    """A side's interval at the level its row's Δ% interval was decided at (``e.ci`` is at
    the run's ``confidence``): the same t interval of the fork means (of the iterations, for
    a comparison that fell back to them) with the row's critical value."""
    level = c.decided_level
    if confidence is None or level is None:
        return e.ci
    return methods.of(c.method).side_at_level(e, confidence, level)


def decided_levels(comparisons: Sequence[Comparison]) -> dict[str, list[Comparison]]:
    """The comparisons by the level (as written) their interval was decided at; exact ones
    have none."""
    out: dict[str, list[Comparison]] = {}
    for c in comparisons:
        level = c.decided_level
        if level is not None and methods.of(c.method).in_family:
            out.setdefault(level_text(level), []).append(c)
    return out


def level_label(comparisons: Sequence[Comparison], confidence: float | None) -> str:
    """:func:`interval_label` for any list of comparisons (exact ones have no level)."""
    levels = decided_levels(comparisons)
    if len(levels) == 1:
        return f"{next(iter(levels))} CI"
    if not levels and confidence is not None:
        return f"{level_text(confidence)} CI"
    return "CI"


def levels_sentence(comparisons: Sequence[Comparison]) -> str:
    """Where the rows' intervals differ in level (a sequential look spends its own share of
    α, a step-down procedure gives each rank its own), each level named once with the look
    it was decided at: "Each Δ% interval is at the level its verdict was decided at: 99.93%
    (look 1, 12 keys) and 99.90% (look 3, 4 keys)." Nothing when one level serves all."""
    levels = decided_levels(comparisons)
    if len(levels) < 2:
        return ""
    parts = []
    for text, members in sorted(levels.items(), key=lambda kv: -float(kv[0].rstrip("%"))):
        looks = sorted({c.diagnostics.sequential.look for c in members if c.diagnostics.sequential})
        where = (
            f"look{'s' if len(looks) > 1 else ''} {', '.join(map(str, looks))}, " if looks else ""
        )
        parts.append(f"{text} ({where}{len(members)} key{'s' if len(members) != 1 else ''})")
    listed = ", ".join(parts[:-1]) + f" and {parts[-1]}"
    return f"Each Δ% interval is at the level its verdict was decided at: {listed}."


def level_text(level: float) -> str:
    """A level as the reports write it: 99%, 99.93%."""
    return f"{level * 100:.4g}%"
