"""Bytes per operation: whole bytes, and allocation that appears or vanishes said in words."""

from __future__ import annotations

import math

from perfproof.units.numbers import MISSING, finite, number, signed

BYTES_ZERO = 0.5
"""Below half a byte per operation a benchmark does not allocate (JMH reports tiny noise)."""


def bytes_value(value: float | None) -> str:
    """Bytes per operation: whole bytes, since allocation sizes are whole numbers."""
    if value is None or not math.isfinite(value):
        return MISSING
    if abs(value) < BYTES_ZERO:
        return "0"
    return number(value, 0)


def bytes_change(base: float, head: float, delta_pct: float | None) -> str:
    """``1,024 → 512 B/op (-50.0%)``; zero-to-zero and new allocations said in words."""
    text = f"{bytes_value(base)} → {bytes_value(head)} B/op"
    if not (finite(base) and finite(head)):
        return text
    if abs(base) < BYTES_ZERO and abs(head) < BYTES_ZERO:
        return text + " (no allocation)"
    if abs(base) < BYTES_ZERO:
        return text + " (new allocation)"
    pct = delta_pct if delta_pct is not None else (head / base - 1) * 100
    return text + f" ({signed(pct, 1)}%)"
