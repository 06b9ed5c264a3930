"""A benchmark whose time per operation does not move across a size-like ``@Param``.

``@Param({"16", "1024"}) int n`` usually sets how much work one operation does; a time per
operation that stays within a few per cent over a 4× or wider range of ``n`` says the work it
times does not depend on ``n``: the JIT removed it (a result nobody consumes, a loop over a
constant), or the parameter never reached it. Some work is rightly flat (a hash lookup, a
field read), so this is a note beside the verdicts, never a verdict and never a failed guard:
it asks the author to look. Judged per side on the estimates alone (pure; no I/O).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import replace

from perfproof.model import PRIMARY, BenchKey, Comparison, Estimate
from perfproof.model.diagnostics import Kind, Note

SPAN = 4.0
"""The least ratio between a parameter's largest and smallest value that should change work."""
FLAT = 0.05
"""Estimates within ±5 % of each other over that span count as not changing."""


def _number(text: str) -> float | None:
    try:
        value = float(text)
    except ValueError:
        return None
    return value if math.isfinite(value) and value > 0 else None


def flat_notes(comparisons: Sequence[Comparison]) -> list[Comparison]:
    """``comparisons`` with a ``flat-param`` note on the primary comparison of every key of a
    benchmark whose estimates, on a side, do not change across a size-like ``@Param``."""
    groups: dict[tuple[object, ...], list[Comparison]] = {}
    names: dict[tuple[object, ...], str] = {}
    for c in comparisons:
        if c.key.metric != PRIMARY:
            continue
        for name, value in c.key.params:
            if _number(value) is None:
                continue
            rest = tuple((k, v) for k, v in c.key.params if k != name)
            group = (c.key.benchmark, c.key.mode, name, rest)
            groups.setdefault(group, []).append(c)
            names[group] = name
    notes: dict[BenchKey, str] = {}
    for where, members in groups.items():
        text = _flat(members, names[where])
        if text:
            for c in members:
                notes.setdefault(c.key, text)
    return [_noted(c, notes[c.key]) if c.key in notes else c for c in comparisons]


def _flat(members: list[Comparison], name: str) -> str:
    values = sorted({v for c in members if (v := _number(c.key.params_dict[name]))})
    if len(values) < 2 or values[-1] / values[0] < SPAN:
        return ""
    flat = []
    for side, pick in (("baseline", _base), ("feature", _head)):
        estimates = [pick(c).value for c in members]
        positive = all(math.isfinite(e) and e > 0 for e in estimates)
        if positive and max(estimates) / min(estimates) <= 1 + FLAT:
            flat.append(side)
    if not flat:
        return ""
    shown = ", ".join(f"{v:g}" for v in values)
    return (
        f"its time per operation does not change across {name} = {shown} (within "
        f"±{FLAT * 100:.0f}% on the {' and the '.join(flat)}): if {name} sets the work it "
        "times, the JIT may have removed that work"
    )


def _base(c: Comparison) -> Estimate:
    return c.base


def _head(c: Comparison) -> Estimate:
    return c.head


def _noted(c: Comparison, text: str) -> Comparison:
    note = Note(Kind.FLAT_PARAM, text)
    diagnostics = replace(c.diagnostics, notes=[*(c.diagnostics.notes or []), note])
    return replace(c, diagnostics=diagnostics, warnings=[*c.warnings, text])
