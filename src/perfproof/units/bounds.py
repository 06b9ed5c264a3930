"""How wide an interval may be and still be shown as numbers: the one rule every output uses.

With two or three forks a side and a strict level (a sequential look spends a small share of
α), Student's t on log fork means can put a ratio's bound at 10⁻¹² or 10¹²: printed as
``×1.39 [2.17e-12, 886,753,030,609]`` it reads as an error, and passed to a dashboard it wrecks
the chart's axis. Such a bound says only "the data cannot bound this", so the reports say that
in words (``×1.39 (interval too wide: 3 forks a side)``) and the exports leave the bound out.
"""

from __future__ import annotations

import math

MAX_BOUND_FACTOR = 1000.0
"""The widest interval shown or exported as numbers: no bound beyond 1,000× its value, none
below a 1,000th of it. Two forks give Student's t one degree of freedom (t = 63.7 at 99%), and
on the log scale that can put a bound at 10²¹ ns."""


def beyond_factor(value: float, lo: float, hi: float) -> bool:
    """Whether the interval ``[lo, hi]`` of ``value`` is too wide to show as numbers: a bound
    not finite, or (for a positive value) beyond :data:`MAX_BOUND_FACTOR` of it on either side.
    A value at or below zero has no factor: only finiteness counts."""
    if not (math.isfinite(lo) and math.isfinite(hi)):
        return True
    if not math.isfinite(value) or value <= 0:
        return False
    return hi > value * MAX_BOUND_FACTOR or lo * MAX_BOUND_FACTOR < value


def forks_words(base: int | None, head: int | None) -> str:
    """``3 forks a side``, ``2 and 5 forks``: why an interval is as wide as it is."""
    if base is None or head is None:
        return ""
    if base == head:
        return f"{base} fork{'s' if base != 1 else ''} a side"
    return f"{base} and {head} forks"


def too_wide(base_forks: int | None = None, head_forks: int | None = None) -> str:
    """What a report prints instead of an interval :func:`beyond_factor` rejects."""
    forks = forks_words(base_forks, head_forks)
    return f"(interval too wide: {forks})" if forks else "(interval too wide to bound it)"
