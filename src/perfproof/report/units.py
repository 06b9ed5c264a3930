"""Readable numbers for reports: scale, precision and separators chosen once, used everywhere.

A reviewer compares numbers across a row, so one row shares one unit (picked from the
baseline) and every value in it is rounded to the precision its interval supports: two
significant digits of the interval's half-width, the estimate to the same decimal place.
Printing more digits than the interval supports invites readers to see differences that are
noise; printing fewer hides real ones.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

MINUS = "-"
"""ASCII hyphen-minus: survives copy-paste into terminals, spreadsheets and `perfproof check`."""

TIME_SCALES: tuple[tuple[str, float], ...] = (
    ("ns/op", 1.0),
    ("µs/op", 1e3),
    ("ms/op", 1e6),
    ("s/op", 1e9),
)
"""Time units a report may show, with their size in nanoseconds (the canonical time unit)."""


@dataclass(frozen=True)
class Scale:
    """A display unit for one row: ``value_in_canonical / factor`` gives the shown number."""

    unit: str
    factor: float


def choose_scale(unit: str, reference: float) -> Scale:
    """The display unit for a row whose canonical unit is ``unit`` and baseline is ``reference``.

    Time moves to µs, ms or s once the number would need four or more integer digits in the
    smaller unit; throughput stays in ops/s (with thousands separators) so that rows compare
    by eye; anything else keeps its own unit.
    """
    if unit == "ns/op":
        magnitude = abs(reference) if math.isfinite(reference) else 0.0
        for name, factor in TIME_SCALES:
            if magnitude < factor * 1000:
                return Scale(name, factor)
        return Scale(*TIME_SCALES[-1])
    return Scale(unit, 1.0)


def decimals_for(half_width: float | None, value: float, *, sig: int = 2) -> int:
    """Decimal places so that ``half_width`` shows ``sig`` significant digits.

    Without an interval (one fork, or exact metrics) the value itself gets four significant
    digits. Capped so that a near-zero interval cannot ask for absurd precision.
    """
    if half_width is not None and math.isfinite(half_width) and half_width > 0:
        exponent = math.floor(math.log10(half_width))
        return max(0, min(6, sig - 1 - exponent))
    if not math.isfinite(value) or value == 0:
        return 0
    exponent = math.floor(math.log10(abs(value)))
    return max(0, min(6, 3 - exponent))


def number(value: float, decimals: int) -> str:
    """``12345.678, 1`` → ``12,345.7``; ASCII minus; ``nan`` → ``n/a``."""
    if value is None or not math.isfinite(value):
        return "n/a"
    text = f"{abs(value):,.{decimals}f}"
    if value < 0 and float(text.replace(",", "")) != 0:
        return MINUS + text
    return text


def signed(value: float, decimals: int) -> str:
    """A number with an explicit sign, for effects: ``+3.2``, ``-12.0``, ``0.0``."""
    if value is None or not math.isfinite(value):
        return "n/a"
    text = number(value, decimals)
    if text.startswith(MINUS) or float(text.replace(",", "")) == 0:
        return text
    return "+" + text


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


def is_symmetric(value: float, lo: float, hi: float) -> bool:
    """Whether an interval is centred on its estimate closely enough to write it as ``±``."""
    half = (hi - lo) / 2
    if half <= 0:
        return True
    return abs((value - lo) - (hi - value)) <= 0.02 * half


def percent_decimals(ci_pct: tuple[float, float] | None) -> int:
    """One decimal for Δ%, two when the interval is narrower than 0.2 points."""
    finite = ci_pct is not None and all(math.isfinite(c) for c in ci_pct)
    return 2 if finite and abs(ci_pct[1] - ci_pct[0]) < 0.2 else 1


def delta_with_interval(delta_pct: float, ci_pct: tuple[float, float] | None) -> str:
    """``-12.3% [-14.1, -10.5]``: the effect and its interval in percent."""
    d = percent_decimals(ci_pct)
    text = f"{signed(delta_pct, d)}%"
    if ci_pct is not None and all(math.isfinite(c) for c in ci_pct):
        text += f" [{signed(ci_pct[0], d)}, {signed(ci_pct[1], d)}]"
    return text


BYTES_ZERO = 0.5
"""Below half a byte per operation a benchmark does not allocate (JMH reports tiny noise)."""


def bytes_value(value: float) -> str:
    """Bytes per operation: whole bytes, since allocation sizes are whole numbers."""
    if not math.isfinite(value):
        return "n/a"
    if abs(value) < BYTES_ZERO:
        return "0"
    return number(value, 0)


def bytes_change(base: float, head: float, delta_pct: float | None) -> str:
    """``1,024 → 512 B/op (-50.0%)``; zero-to-zero and new allocations said in words."""
    text = f"{bytes_value(base)} → {bytes_value(head)} B/op"
    if abs(base) < BYTES_ZERO and abs(head) < BYTES_ZERO:
        return text + " (no allocation)"
    if abs(base) < BYTES_ZERO:
        return text + " (new allocation)"
    pct = delta_pct if delta_pct is not None else (head / base - 1) * 100
    return text + f" ({signed(pct, 1)}%)"


def duration(seconds: float | None) -> str:
    """Wall-clock time for methodology lines: ``850 ms``, ``12.3 s``, ``4 min 05 s``."""
    if seconds is None or not math.isfinite(seconds):
        return "n/a"
    if seconds < 1:
        return f"{seconds * 1000:.0f} ms"
    if seconds < 60:
        return f"{seconds:.1f} s"
    minutes, secs = divmod(round(seconds), 60)
    if minutes < 60:
        return f"{minutes} min {secs:02d} s"
    hours, minutes = divmod(minutes, 60)
    return f"{hours} h {minutes:02d} min"
