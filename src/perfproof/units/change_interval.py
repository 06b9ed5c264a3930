"""A bound on a change, written as the interval of the ratio it is: ``-52%…+223%``, ``×0.048…×31``.

A ratio lives on (0, ∞) and its intervals are symmetric in log space, not in percent: a Welch
interval of ×0.52…×3.23 is −48%…+223%. Writing its wider side as "no change beyond ±223%"
states a fall of 223%, which no throughput or time can have, and hides that the interval is
lopsided; the same holds for a minimal detectable effect (a log half-width d detects ×e⁻ᵈ or
×eᵈ, −66% or +191%, never "±191%"). So every bound, detectable effect and "no change beyond"
perfproof writes goes through this one formatter: both ends, on the metric's own scale, in
percent while both lie within ten-fold (as :func:`~perfproof.units.percentages.percent` does)
and as ratios beyond.
"""

from __future__ import annotations

import math

from perfproof.units.bounds import MAX_BOUND_FACTOR
from perfproof.units.numbers import MISSING, signed, significant
from perfproof.units.percentages import is_large

SEPARATOR = "…"
"""Between the two ends: a dash would read as a minus sign before the upper bound."""


def change_interval(lo: float, hi: float) -> str:
    """The interval ``[lo, hi]`` of a ratio as changes: ``-52%…+223%`` while both ends lie within
    ten-fold, ``×0.048…×31`` beyond (a bound of 0 or ∞, an unbounded side, as ``×0``/``×∞``);
    ``n/a`` when either end is unknown. Both ends get the same decimals: two below 1%, one below
    10%, whole percent above."""
    if math.isnan(lo) or math.isnan(hi):
        return MISSING
    if is_large(lo) or is_large(hi) or not (math.isfinite(lo) and math.isfinite(hi)):
        return f"×{significant(max(lo, 0.0))}{SEPARATOR}×{significant(max(hi, 0.0))}"
    ends = ((lo - 1.0) * 100.0, (hi - 1.0) * 100.0)
    widest = max(abs(x) for x in ends)
    decimals = 2 if widest < 1.0 else 1 if widest < 10.0 else 0
    return SEPARATOR.join(f"{signed(x, decimals)}%" for x in ends)


def log_half_width_bounds(half: float) -> tuple[float, float]:
    """The ratio interval ``[e⁻ʰ, eʰ]`` of a log half-width ``h`` (a detectable effect or a
    symmetric bound in log space); ``(0, ∞)`` when it is infinite or past the float range."""
    if math.isnan(half):
        return (math.nan, math.nan)
    if not math.isfinite(half) or abs(half) > 700.0:
        return (0.0, math.inf)
    return (math.exp(-abs(half)), math.exp(abs(half)))


def detectable_interval(mde_pct: float | None) -> str:
    """A minimal detectable effect stored as its upward change in percent (``mde_pct``, what
    ``results.json`` holds: ``(eᵈ − 1) × 100``) as the two changes it stands for: a design that
    detects +191% detects -66% alike (``-66%…+191%``): the changes *outside* this interval are
    the ones it would see. Past :data:`~perfproof.units.bounds.MAX_BOUND_FACTOR` it says so in
    words, as a bound that wide is never shown as numbers."""
    if mde_pct is None or math.isnan(mde_pct):
        return MISSING
    if math.isinf(mde_pct) or mde_pct >= (MAX_BOUND_FACTOR - 1.0) * 100.0:
        return "past a thousand-fold"
    return change_interval(*log_half_width_bounds(math.log1p(max(mde_pct, 0.0) / 100.0)))
