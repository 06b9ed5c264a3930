"""Percentages: signed effects (``+12.0%``), their intervals (``-12.3% [-14.1, -10.5]``), spread
as a share of the estimate (``± 4.1%``, as benchstat prints it) and fractions given as percent.
"""

from __future__ import annotations

import math

from perfproof.units.numbers import MINUS, MISSING, finite, number, signed


def relative_spread(value: float | None, ci: tuple[float, float] | None) -> str:
    """An interval's half-width as a share of its estimate: ``± 4.1%`` (benchstat's form).

    Below 10% one decimal, then whole percent; an interval wider than ten times its estimate
    carries no more information than ``± >999%``.
    """
    if value is None or ci is None or not all(finite(x) for x in (value, *ci)) or value == 0:
        return f"± {MISSING}"
    share = abs((ci[1] - ci[0]) / 2 / value) * 100
    if share >= 1000:
        return "± >999%"
    return f"± {share:.1f}%" if share < 10 else f"± {share:.0f}%"


def percent(x: float | None, decimals: int = 1, *, sign: bool = True) -> str:
    """A percentage: ``+12.0%``, ``-50.0%``, ``0.0%``; beyond ±999% ``>+999%``; near -100% two
    decimals, since -99.97% (3,000× faster) and -99.5% differ a lot."""
    if x is None or math.isnan(x):
        return MISSING
    if math.isinf(x):
        return ("+∞" if x > 0 else MINUS + "∞") if sign else ("∞" if x > 0 else MINUS + "∞")
    if abs(x) >= 1000:
        return (">+999%" if x > 0 else "<-999%") if sign else (">999%" if x > 0 else "<-999%")
    if -100.0 < x <= -99.0 and decimals < 2:
        decimals = 2
    return (signed(x, decimals) if sign else number(x, decimals)) + "%"


def percent_range(lo: float, hi: float) -> str:
    """``+28% to +128%``: the span of several effects, in whole percent."""
    if math.isclose(round(lo), round(hi)):
        return percent(lo, 0)
    return f"{percent(lo, 0)} to {percent(hi, 0)}"


def fraction_pct(fraction: float | None) -> str:
    """A confidence or threshold given as a fraction: ``0.99`` → ``99%``, ``0.01`` → ``1%``."""
    if fraction is None or not math.isfinite(fraction):
        return MISSING
    return f"{fraction * 100:g}%"


def percent_decimals(ci_pct: tuple[float, float] | None) -> int:
    """One decimal for Δ%, two when the interval is narrower than 0.2 points."""
    if ci_pct is None or not all(math.isfinite(c) for c in ci_pct):
        return 1
    return 2 if abs(ci_pct[1] - ci_pct[0]) < 0.2 else 1


def delta_with_interval(delta_pct: float, ci_pct: tuple[float, float] | None) -> str:
    """``-12.3% [-14.1, -10.5]``: the effect and its interval in percent.

    An unbounded end (the data cannot bound the ratio) reads as the printable limit,
    ``[-100.0, >+999]``, so the reader still sees an interval that includes no change.
    """
    d = percent_decimals(ci_pct)
    text = percent(delta_pct, d)
    if ci_pct is not None and not any(math.isnan(c) for c in ci_pct):
        lo, hi = (percent(_printable(c), d).removesuffix("%") for c in ci_pct)
        text += f" [{lo}, {hi}]"
    return text


def _printable(x: float) -> float:
    """An infinite bound as one just past the printable range (``>+999``)."""
    return math.copysign(1000.0, x) if math.isinf(x) else x
