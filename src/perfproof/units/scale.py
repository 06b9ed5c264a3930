"""Scaled quantities: throughput with SI prefixes (``1.04 G ops/s``), time in JMH's own units
(``412 ns/op``, ``3.19 µs/op``), one scale per row so its numbers compare by eye.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from perfproof.units.numbers import SIG_DIGITS, decimals_for, is_symmetric, number, significant
from perfproof.units.percentages import relative_spread

TIME_SCALES: tuple[tuple[str, float], ...] = (
    ("ns/op", 1.0),
    ("µs/op", 1e3),
    ("ms/op", 1e6),
    ("s/op", 1e9),
)
"""Time units a report may show, with their size in nanoseconds (the canonical time unit)."""

SI_PREFIXES: tuple[tuple[str, float], ...] = (
    ("", 1.0),
    ("k", 1e3),
    ("M", 1e6),
    ("G", 1e9),
    ("T", 1e12),
    ("P", 1e15),
    ("E", 1e18),
)
"""Prefixes for counts per time (``ops/s``): beyond exa the number is written with an exponent."""

SI_UNITS = frozenset({"ops/s"})
"""Canonical units shown with SI prefixes; other units (``B/op``, JMH's secondary metrics such as
``MB/sec`` or ``counts``) keep their own name, since a prefix on them would read as a new unit."""


@dataclass(frozen=True)
class Scale:
    """A display unit for one row: ``value_in_canonical / factor`` gives the shown number."""

    unit: str
    factor: float


def choose_scale(unit: str, reference: float | None) -> Scale:
    """The display unit for a row whose canonical unit is ``unit`` and baseline is ``reference``.

    Time moves to µs, ms or s once the number would need four or more integer digits in the
    smaller unit; ``ops/s`` takes an SI prefix (``k``, ``M``, ``G``, …) by the same rule; any
    other unit is kept as it is. One row shares one scale so its numbers compare by eye.
    """
    magnitude = abs(reference) if reference is not None and math.isfinite(reference) else 0.0
    # 999.7 ns/op rounds to 1,000 at three digits: it is shown as 1.00 µs/op instead
    limit = 1000 * (1 - 0.5 * 10**-SIG_DIGITS)
    if unit == "ns/op":
        for name, factor in TIME_SCALES:
            if magnitude < factor * limit:
                return Scale(name, factor)
        return Scale(*TIME_SCALES[-1])
    if unit in SI_UNITS:
        for prefix, factor in SI_PREFIXES:
            if magnitude < factor * limit:
                return Scale(f"{prefix} {unit}" if prefix else unit, factor)
    return Scale(unit, 1.0)


def quantity(value: float | None, unit: str, digits: int = SIG_DIGITS) -> str:
    """A value with its unit, scaled: ``1.04 G ops/s``, ``412 ns/op``, ``3.19 µs/op``."""
    if value is None or not math.isfinite(value):
        return significant(value)
    scale = choose_scale(unit, value)
    return f"{significant(value / scale.factor, digits)} {scale.unit}"


def scaled(value: float | None, scale: Scale, digits: int = SIG_DIGITS) -> str:
    """A value in a scale chosen for its row (``quantity`` chooses per value)."""
    if value is None or not math.isfinite(value):
        return significant(value)
    return f"{significant(value / scale.factor, digits)} {scale.unit}"


WIDE_SPREAD = 0.5
"""An interval whose half-width is this share of its estimate or more is written as its two
ends: ``± 591%`` looks symmetric and hides that the interval runs from a third of the value
to seven times it (or below zero)."""


def needs_ends(value: float | None, ci: tuple[float, float] | None) -> bool:
    """Whether an interval reads wrongly as ``± share``: as wide as :data:`WIDE_SPREAD` of its
    estimate, or lopsided around it."""
    if value is None or ci is None or value == 0:
        return False
    if not all(math.isfinite(x) for x in (value, *ci)):
        return False
    lo, hi = ci
    return abs(hi - lo) / 2 >= WIDE_SPREAD * abs(value) or not is_symmetric(value, lo, hi)


def non_negative(unit: str) -> bool:
    """Whether a quantity in this display unit can never be below zero: a time, a rate or a
    size per operation (a secondary metric of JMH's may be anything)."""
    return unit in {name for name, _ in TIME_SCALES} or unit.endswith("ops/s") or unit == "B/op"


def cut_at_zero(value: float | None, ci: tuple[float, float] | None, unit: str) -> bool:
    """Whether a side's interval reaches below zero though its quantity cannot (a linear
    t-interval over two or three spread forks does): shown cut at 0, and the report says so.
    ``unit`` is the canonical or display unit of the value."""
    return (
        value is not None
        and ci is not None
        and math.isfinite(ci[0])
        and ci[0] < 0 <= value
        and non_negative(unit)
    )


def value_spread(
    value: float | None,
    ci: tuple[float, float] | None,
    scale: Scale,
    ends: bool | None = None,
) -> str:
    """``1.04 G ops/s ± 4.1%``: the scaled estimate and its relative spread; a wide or lopsided
    interval as its ends in the same unit, ``12.8 µs/op [5.21, 88.4]``, cut at 0 where it
    reaches below zero and the quantity cannot (:func:`cut_at_zero`; the caller says so).
    ``ends`` makes the choice for a whole row (both sides alike); None decides from this
    interval alone."""
    if ends is None:
        ends = needs_ends(value, ci)
    if ends and ci is not None and all(math.isfinite(x) for x in ci):
        low = 0.0 if cut_at_zero(value, ci, scale.unit) else ci[0]
        lo, hi = (significant(x / scale.factor) for x in (low, ci[1]))
        return f"{scaled(value, scale)} [{lo}, {hi}]"
    return f"{scaled(value, scale)} {relative_spread(value, ci)}"


def value_with_interval(
    value: float, ci: tuple[float, float] | None, scale: Scale, decimals: int | None = None
) -> str:
    """``12.34 ± 0.56 ns/op``; an asymmetric interval is written ``12.3 [11.9, 13.1] ns/op``."""
    shown = value / scale.factor
    if ci is None or not all(math.isfinite(c) for c in ci):
        d = decimals if decimals is not None else decimals_for(None, shown)
        return f"{number(shown, d)} {scale.unit}"
    lo, hi = ci[0] / scale.factor, ci[1] / scale.factor
    half = (hi - lo) / 2
    d = decimals if decimals is not None else decimals_for(half, shown)
    if is_symmetric(shown, lo, hi):
        return f"{number(shown, d)} ± {number(half, d)} {scale.unit}"
    return f"{number(shown, d)} [{number(lo, d)}, {number(hi, d)}] {scale.unit}"
