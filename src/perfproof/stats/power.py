"""Minimal detectable effect and the number of forks needed to resolve a threshold.

An "inconclusive" verdict is only useful with a way forward. From the two variance
components (Kalibera & Jones 2013) the variance of one fork mean with ``n`` iterations is
``between + within / n``; with ``f`` forks per side the log-ratio's standard error is
``sqrt(2 (between + within / n) / f)``. The minimal detectable effect at power 1 − β for a
two-sided level-α Welch test is ``(t[1−α/2] + t[1−β]) × se``. Because the fork component does
not shrink with ``n``, more iterations stop helping once ``within / n`` is small next to
``between``; then only more forks do.
"""

from __future__ import annotations

import math

from perfproof.stats.welch import t_quantile

POWER = 0.80
MAX_FORKS = 10_000


def _t(p: float, df: float) -> float:
    return t_quantile(p, float(df))


def mde_log(variance: float, forks: int, alpha: float, power: float = POWER) -> float:
    """Minimal detectable |log ratio| with ``forks`` per side and fork-mean ``variance``."""
    if forks < 2 or not math.isfinite(variance):
        return math.inf
    df = 2.0 * forks - 2.0
    se = math.sqrt(2.0 * variance / forks)
    return (_t(1.0 - alpha / 2.0, df) + _t(power, df)) * se


def mde_pct(variance: float, forks: int, alpha: float, power: float = POWER) -> float:
    """The minimal detectable effect as a percentage change of the ratio."""
    d = mde_log(variance, forks, alpha, power)
    return math.expm1(d) * 100.0 if math.isfinite(d) else math.inf


def forks_needed(variance: float, threshold: float, alpha: float, power: float = POWER) -> int:
    """Fewest forks per side whose minimal detectable effect is within ``threshold``.

    Returns ``MAX_FORKS`` when even that many would not do (or the variance is unknown).
    """
    target = math.log1p(threshold)
    if not math.isfinite(variance) or target <= 0:
        return MAX_FORKS
    if variance <= 0:
        return 2
    # the normal approximation never needs more forks than the t-based answer: start there
    z = _t(1.0 - alpha / 2.0, math.inf) + _t(power, math.inf)
    f = max(2, int(2.0 * variance * z * z / (target * target)))
    while f < MAX_FORKS and mde_log(variance, f, alpha, power) > target:
        f += 1
    return f
