"""Percentages: signed effects (``+12.0%``), their intervals (``-12.3% [-14.1, -10.5]``), spread
as a share of the estimate (``± 4.1%``, as benchstat prints it) and fractions given as percent.
Effects beyond ten-fold read as ratios (``×19.3 [17.1, 21.5]``, ``×0.0517``): ``+1,830%`` or
``-94.83%`` make a reader do the division, and a capped ``>+999%`` hides the size entirely.
"""

from __future__ import annotations

import math

from perfproof.units.bounds import beyond_factor, too_wide
from perfproof.units.numbers import MINUS, MISSING, finite, number, signed, significant

RATIO_FORM = 10.0
"""An effect whose ratio is at least this, or at most its inverse, is written as a ratio."""


def ratio_text(ratio: float | None) -> str:
    """``×19.3``, ``×0.0517``, ``×∞``: a ratio with three significant digits."""
    if ratio is None or math.isnan(ratio):
        return MISSING
    return f"×{significant(max(ratio, 0.0))}"


def is_large(ratio: float | None) -> bool:
    """Whether an effect of this ratio is written as a ratio rather than a percentage."""
    return ratio is not None and not math.isnan(ratio) and not (1 / RATIO_FORM < ratio < RATIO_FORM)


def relative_spread(value: float | None, ci: tuple[float, float] | None) -> str:
    """An interval's half-width as a share of its estimate: ``± 4.1%`` (benchstat's form).

    Below 10% one decimal, then whole percent (``± 1,240%``: never capped, so a reader sees
    how little the interval says).
    """
    if value is None or ci is None or not all(finite(x) for x in (value, *ci)) or value == 0:
        return f"± {MISSING}"
    share = abs((ci[1] - ci[0]) / 2 / value) * 100
    return f"± {share:.1f}%" if share < 10 else f"± {number(share, 0)}%"


def percent(x: float | None, decimals: int = 1, *, sign: bool = True) -> str:
    """A percentage: ``+12.0%``, ``-50.0%``, ``0.0%``; an effect of ``+1,000%`` or more as the
    ratio it is (``×19.3``), a share that large in whole percent (``1,250%``); near -100% two
    decimals, since -99.97% (3,000× faster) and -99.5% differ a lot."""
    if x is None or math.isnan(x):
        return MISSING
    if math.isinf(x):
        return ("+∞" if x > 0 else MINUS + "∞") if sign else ("∞" if x > 0 else MINUS + "∞")
    if abs(x) >= 1000:
        if sign and x > 0:
            return ratio_text(1 + x / 100)
        return (signed(x, 0) if sign else number(x, 0)) + "%"
    if -100.0 < x <= -99.0 and decimals < 2:
        decimals = 2
    return (signed(x, decimals) if sign else number(x, decimals)) + "%"


def percent_range(lo: float, hi: float) -> str:
    """``+28% to +128%``: the span of several effects, in whole percent; ``×0.0517 to
    ×0.880`` when either end is beyond ten-fold."""
    if is_large(1 + lo / 100) or is_large(1 + hi / 100):
        first, last = ratio_text(1 + lo / 100), ratio_text(1 + hi / 100)
        return first if first == last else f"{first} to {last}"
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


def delta_with_interval(
    delta_pct: float,
    ci_pct: tuple[float, float] | None,
    forks: tuple[int, int] | None = None,
) -> str:
    """``-12.3% [-14.1, -10.5]``: the effect and its interval in percent; ``×19.3 [17.1, 21.5]``
    when the effect or a bound is beyond ten-fold, so the reader still sees an interval that
    includes no change, at its real size. An interval past :data:`~perfproof.units.bounds.
    MAX_BOUND_FACTOR` of the ratio (or unbounded) is said in words with the forks per side
    (``forks``, base and head) that left it so: ``×1.39 (interval too wide: 3 forks a side)``.
    """
    ratio = 1 + delta_pct / 100
    large = is_large(ratio) or (
        ci_pct is not None
        and any(not math.isnan(c) and c >= (RATIO_FORM - 1) * 100 for c in ci_pct)
    )
    text = ratio_text(ratio) if large else percent(delta_pct, percent_decimals(ci_pct))
    if ci_pct is None or any(math.isnan(c) for c in ci_pct):
        return text
    lo_ratio, hi_ratio = (1 + c / 100 for c in ci_pct)
    if lo_ratio != hi_ratio and math.isfinite(ratio) and beyond_factor(ratio, lo_ratio, hi_ratio):
        return f"{text} {too_wide(*(forks or (None, None)))}"
    if large:
        lo, hi = (ratio_text(r).removeprefix("×") for r in (lo_ratio, hi_ratio))
        return f"{text} [{lo}, {hi}]"
    d = percent_decimals(ci_pct)
    lo, hi = (percent(c, d).removesuffix("%") for c in ci_pct)
    return f"{text} [{lo}, {hi}]"
