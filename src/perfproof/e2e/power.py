"""Power of an end-to-end A/B: what it can detect, and how many runs a given effect needs.

Effects are sizes in log space (|log(head/base)|), because that is where the Welch interval
of the ratio lives; the callers convert to and from percentages. Power is computed exactly for
the Welch test under normality (noncentral t with Welch–Satterthwaite degrees of freedom), not
with the usual z or "t + t" shortcut, because end-to-end designs often have few runs and the
shortcut is optimistic there.
"""

from __future__ import annotations

import math

from scipy import optimize
from scipy import stats as st

from perfproof.stats.welch import welch_df

DEFAULT_POWER = 0.8
MAX_RUNS = 100_000


def welch_power(effect: float, sd_a: float, n_a: int, sd_b: float, n_b: int, alpha: float) -> float:
    """Probability that a two-sided Welch test at level ``alpha`` rejects when the true
    difference of means is ``effect``."""
    se = math.sqrt(sd_a**2 / n_a + sd_b**2 / n_b)
    df = welch_df(sd_a**2, n_a, sd_b**2, n_b)
    crit = st.t.ppf(1.0 - alpha / 2.0, df)
    if se == 0:
        return 1.0 if effect != 0 else alpha
    nc = abs(effect) / se
    upper = float(st.nct.sf(crit, df, nc))
    lower = float(st.nct.cdf(-crit, df, nc))
    # scipy's noncentral t returns NaN deep in a tail; there the tail's mass is nil.
    upper = upper if math.isfinite(upper) else float(nc > crit)
    lower = lower if math.isfinite(lower) else 0.0
    return min(1.0, upper + lower)


def minimal_detectable_effect(
    sd_a: float, n_a: int, sd_b: float, n_b: int, alpha: float, power: float = DEFAULT_POWER
) -> float | None:
    """Smallest true difference the design detects with probability ``power``.

    None when there is no variance estimate (fewer than 2 runs on a side).
    """
    if n_a < 2 or n_b < 2:
        return None
    se = math.sqrt(sd_a**2 / n_a + sd_b**2 / n_b)
    if se == 0:
        return 0.0
    hi = se * 4.0
    while welch_power(hi, sd_a, n_a, sd_b, n_b, alpha) < power:
        hi *= 2.0
    return float(
        optimize.brentq(
            lambda d: welch_power(d, sd_a, n_a, sd_b, n_b, alpha) - power, 0.0, hi, xtol=1e-12
        )
    )


def runs_needed(
    effect: float, sd_a: float, sd_b: float, alpha: float, power: float = DEFAULT_POWER
) -> int | None:
    """Runs per side (equal on both) for a Welch test to detect ``effect`` with ``power``.

    None when the effect is zero or more than :data:`MAX_RUNS` runs would be needed.
    """
    if effect == 0 or not math.isfinite(effect):
        return None
    if sd_a == 0 and sd_b == 0:
        return 2

    def ok(n: int) -> bool:
        return welch_power(effect, sd_a, n, sd_b, n, alpha) >= power

    if not ok(MAX_RUNS):
        return None
    lo, hi = 2, 2
    while not ok(hi):
        lo, hi = hi, hi * 2
    while lo < hi:
        mid = (lo + hi) // 2
        if ok(mid):
            hi = mid
        else:
            lo = mid + 1
    return hi
