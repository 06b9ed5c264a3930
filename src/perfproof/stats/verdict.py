"""From a ratio, its interval and a significance decision to one of five verdicts.

A verdict has to separate "different" from "different enough to matter": a 0.3% change can
be real and still not worth a PR, and an interval that straddles 1 can still rule out any
change larger than the practical threshold θ. The significance decision is passed in (rather
than read off the interval) so that a multiplicity-adjusted p-value can drive it.
"""

from __future__ import annotations

import math

from perfproof.model import Direction, Verdict


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
