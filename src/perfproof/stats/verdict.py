"""From a ratio, its interval and a significance decision to one of five verdicts.

A verdict has to separate "different" from "different enough to matter": a 0.3% change can
be real and still not worth a PR, and an interval that straddles 1 can still rule out any
change larger than the practical threshold θ. The significance decision is passed in (rather
than read off the interval) so that a multiplicity-adjusted p-value can drive it.
"""

from __future__ import annotations

import math

from perfproof.errors import InputError
from perfproof.model import Direction, Verdict

CONFIDENCE_RANGE = "[0.5, 1)"
"""Every confidence level perfproof accepts, on every verb and in every layer."""

THRESHOLD_RANGE = "[0, 1)"
"""Every practical threshold θ perfproof accepts, as a share (1% is 0.01)."""


def check_confidence(value: float, flag: str = "--confidence", shown: object = None) -> float:
    """The one rule for a confidence level 1 − α: at least 0.5 and below 1 (NaN refused).

    Below 0.5 an "interval" covers the truth less often than it misses it, and such a value
    nearly always means α was typed where the confidence belongs (0.05 for 95%); 1 asks for an
    interval of infinite width. ``shown`` is the value as the user typed it (``99%``), so the
    one-line error (exit 2) quotes it; the number itself is shown otherwise.
    """
    if not 0.5 <= value < 1.0:
        text = f"{value:g}" if shown is None else shown
        raise InputError(f"{flag} {text}: must be in {CONFIDENCE_RANGE}, e.g. 99% or 0.99")
    if 1.0 - (1.0 - value) / 2.0 >= 1.0:  # 0.9999999999999999: α/2 is lost next to 1
        text = f"{value!r}" if shown is None else shown
        raise InputError(
            f"{flag} {text}: too close to 1 for a finite interval (α/2 rounds to 0); e.g. 99.9%"
        )
    return value


def check_threshold(value: float, flag: str = "--threshold", shown: object = None) -> float:
    """The one rule for a practical threshold θ: a share in [0, 1) (NaN refused).

    θ = 0 asks for any real difference; a θ of 100% or more would call every change
    "negligible" or "same", which no reader expects from a benchmark report.
    """
    if not 0.0 <= value < 1.0:
        text = f"{value:g}" if shown is None else shown
        raise InputError(f"{flag} {text}: must be in {THRESHOLD_RANGE}, e.g. 1% or 0.01")
    return value


def decide(
    ratio: float,
    lo: float,
    hi: float,
    significant: bool,
    direction: Direction,
    threshold: float,
) -> Verdict:
    """``improved``/``regressed``: significant and |ratio − 1| > θ, in the metric's direction;
    ``negligible``: significant but within θ; ``same``: the interval lies inside [1−θ, 1+θ];
    ``inconclusive``: anything else (the data cannot tell at this confidence and θ).
    """
    if significant and not math.isnan(ratio):
        if abs(ratio - 1.0) > threshold:
            better = ratio < 1.0 if direction is Direction.LOWER else ratio > 1.0
            return Verdict.IMPROVED if better else Verdict.REGRESSED
        return Verdict.NEGLIGIBLE
    if 1.0 - threshold <= lo and hi <= 1.0 + threshold:
        return Verdict.SAME
    return Verdict.INCONCLUSIVE


def parse_fraction(flag: str, text: str) -> float:
    """``1%`` or ``0.01`` → 0.01; a bare number of 1 or more is ambiguous and refused.

    Confidence levels and thresholds are written both ways in the wild (``99%``, ``0.99``), and
    a bare ``1`` could mean 1% or 100%: refusing it beats guessing.
    """
    raw = text.strip()
    try:
        value = float(raw[:-1] if raw.endswith("%") else raw)
    except ValueError:
        raise InputError(f"{flag} {text}: not a number (use e.g. 1% or 0.01)") from None
    if math.isinf(value):  # no share at all, with or without % (NaN: the range refuses it)
        raise InputError(f"{flag} {text}: not a finite number (use e.g. 1% or 0.01)")
    if raw.endswith("%"):
        return value / 100.0
    if value >= 1.0:
        raise InputError(f"{flag} {text}: ambiguous, write {raw}% or {value / 100:g}")
    return value
