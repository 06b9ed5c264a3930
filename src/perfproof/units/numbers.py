"""Plain numbers as every perfproof output spells them: significant digits, fixed decimals, an
explicit sign for effects, and one word for a value that does not exist.

Everything here is plain Python arithmetic on floats, so a score of 1e306 formats without numpy
overflow warnings. ``decimals_for`` rounds an estimate to what its interval supports: printing
more digits than the interval supports invites readers to see differences that are noise;
printing fewer hides real ones.
"""

from __future__ import annotations

import math

MISSING = "n/a"
"""The one spelling of a value that does not exist (no interval, no data, not a number)."""

MINUS = "-"
"""ASCII hyphen-minus: survives copy-paste into terminals, spreadsheets and `perfproof check`."""

SIG_DIGITS = 3
"""Significant digits of a scaled quantity: ``1.04 G ops/s``, ``412 ns/op``, ``48.0 ns/op``."""


def significant(value: float | None, digits: int = SIG_DIGITS) -> str:
    """``value`` with ``digits`` significant digits, thousands separators for large integer
    parts and an exponent only where a fixed notation would be absurd (``1.00e+306``)."""
    if value is None or math.isnan(value):
        return MISSING
    if math.isinf(value):
        return "∞" if value > 0 else MINUS + "∞"
    if value == 0:
        return "0"
    magnitude = abs(value)
    if magnitude >= 1e15 or magnitude < 1e-4:
        return _minus(f"{magnitude:.{digits - 1}e}", value)
    exponent = math.floor(math.log10(magnitude))
    decimals = max(0, digits - 1 - exponent)
    text = f"{magnitude:,.{decimals}f}"
    if decimals and float(text.replace(",", "")) >= 10 ** (exponent + 1):
        text = f"{magnitude:,.{max(0, decimals - 1)}f}"  # 9.999 rounded up to 10.0, not 10.00
    return _minus(text, value)


def _minus(text: str, value: float) -> str:
    return MINUS + text if value < 0 and float(text.replace(",", "")) != 0 else text


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


def number(value: float | None, decimals: int) -> str:
    """``12345.678, 1`` → ``12,345.7``; ASCII minus; missing → ``n/a``."""
    if value is None or not math.isfinite(value):
        return MISSING
    text = f"{abs(value):,.{decimals}f}"
    return _minus(text, value)


def signed(value: float | None, decimals: int) -> str:
    """A number with an explicit sign, for effects: ``+3.2``, ``-12.0``, ``0.0``."""
    if value is None or not math.isfinite(value):
        return MISSING
    text = number(value, decimals)
    if text.startswith(MINUS) or float(text.replace(",", "")) == 0:
        return text
    return "+" + text


def is_symmetric(value: float, lo: float, hi: float) -> bool:
    """Whether an interval is centred on its estimate closely enough to write it as ``±``."""
    half = (hi - lo) / 2
    if half <= 0:
        return True
    return abs((value - lo) - (hi - value)) <= 0.02 * half


def finite(x: float | None) -> bool:
    """Whether ``x`` is a number that can be shown (not missing, not NaN, not infinite)."""
    return x is not None and math.isfinite(x)
