"""Canonical units: time per op in ns/op, throughput in ops/s, memory per op in B/op.

JMH writes a score in whatever unit ``-tu`` asked for, so two sides of a comparison may
disagree (``us/op`` vs ``ns/op``). Converting every value at read time means the statistics
never see a unit mismatch. Units perfproof does not know are kept as JMH wrote them; they
still compare with the same unit on the other side.
"""

from __future__ import annotations

import re

from perfproof.model import Direction

# seconds per JMH short time-unit name
_SECONDS: dict[str, float] = {
    "ns": 1e-9,
    "us": 1e-6,
    "\u00b5s": 1e-6,
    "\u03bcs": 1e-6,
    "ms": 1e-3,
    "s": 1.0,
    "sec": 1.0,
    "min": 60.0,
    "m": 60.0,
    "hr": 3600.0,
    "h": 3600.0,
    "day": 86400.0,
    "d": 86400.0,
}

_TIME_VALUE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([a-z\u00b5\u03bc]+)?\s*$")

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


def parse_time(text: str) -> float:
    """A JMH time option (``-w 500ms``, ``-r 1s``, ``-r 2``) in seconds; a bare number means
    seconds, as it does to JMH. The units are those of JMH's scores, from the one table."""
    match = _TIME_VALUE.match(text)
    if not match or (match.group(2) or "s") not in _SECONDS:
        raise ValueError(f"not a JMH time value: {text!r}")
    return float(match.group(1)) * _SECONDS[match.group(2) or "s"]
