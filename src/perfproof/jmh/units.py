"""Canonical units: time per op in ns/op, throughput in ops/s, memory per op in B/op.

JMH writes a score in whatever unit ``-tu`` asked for, so two sides of a comparison may
disagree (``us/op`` vs ``ns/op``). Converting every value at read time means the statistics
never see a unit mismatch. Units perfproof does not know are kept as JMH wrote them; they
still compare with the same unit on the other side.
"""

from __future__ import annotations

from perfproof.model import Direction
from perfproof.units.durations import SECONDS as _SECONDS

TIME_UNIT = "ns/op"
THROUGHPUT_UNIT = "ops/s"
BYTES_UNIT = "B/op"


def canonical(unit: str) -> tuple[str, float]:
    """The canonical unit for ``unit`` and the factor that converts a value into it."""
    text = unit.strip()
    if "/" in text:
        num, den = (part.strip() for part in text.split("/", 1))
        if den == "op" and num in _SECONDS:
            return TIME_UNIT, _SECONDS[num] / 1e-9
        if num == "ops" and den in _SECONDS:
            return THROUGHPUT_UNIT, 1.0 / _SECONDS[den]
        if num == "B" and den == "op":
            return BYTES_UNIT, 1.0
    return text, 1.0


def direction_of(unit: str) -> Direction:
    """Higher is better for throughput (ops per time); lower for everything else."""
    return Direction.HIGHER if canonical(unit)[0] == THROUGHPUT_UNIT else Direction.LOWER


def is_bytes(unit: str) -> bool:
    return canonical(unit)[0] == BYTES_UNIT
