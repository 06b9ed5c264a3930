"""Power of a two-sided Welch test: what a design can detect, and how big it must be.

The power is that of Welch's test as the strategies run it, whose degrees of freedom come
from the sample variances. With the two to five observations per side that JVM forks and
end-to-end runs usually give, both common shortcuts overstate it: ``(t[1−α/2] + t[1−β]) ×
se`` and the noncentral t with the degrees of freedom of the true variances. They promise a
smaller detectable effect (and fewer forks) than the test delivers. So small designs are
integrated exactly over both sample variances; from :data:`EXACT_BELOW` per side on, the
noncentral t is used, where the difference has become negligible.

Effects are on whatever scale the caller tests on (``compare`` and ``e2e`` use log ratios).
Power depends on the design only through the standardised effect (effect over the true se),
the two sizes and each side's share of the se², so the standardised MDE is solved once per
design and scaled by each key's se; that keeps a suite of thousands of keys fast.

For fork-level comparisons (Kalibera & Jones 2013) the variance of one fork mean with ``n``
iterations is ``between + within / n``. The fork component does not shrink with ``n``, so
more iterations stop helping once ``within / n`` is small next to ``between``; then only more
forks do. :func:`mde_log` and :func:`forks_needed` take that fork-mean variance, equal on
both sides, with ``forks`` per side.
"""

from __future__ import annotations

import functools
import math

import numpy as np
from scipy import optimize, special

from perfproof.stats.welch import SideMoments, t_quantile, welch_df

DEFAULT_POWER = 0.80
MAX_FORKS = 10_000
MAX_RUNS = 100_000
EXACT_BELOW = 40
"""Below this many observations on a side the power is integrated exactly (see
:func:`_power_std`); from it on the noncentral t is used, whose MDE is then within 0.05% of
the exact one at α = 1%."""


def _nct_power(nc: float, df: float, alpha: float) -> float:
    """Rejection probability of a two-sided level-``alpha`` t test with known ``df``."""
    crit = t_quantile(1.0 - alpha / 2.0, df)
    upper = 1.0 - float(special.nctdtr(df, nc, crit))
    lower = float(special.nctdtr(df, nc, -crit))
    # the noncentral t can come back NaN deep in a tail; there the tail's mass is nil
    upper = upper if math.isfinite(upper) else float(nc > crit)
    lower = lower if math.isfinite(lower) else 0.0
    return min(1.0, max(0.0, upper + lower))


@functools.lru_cache(maxsize=256)
def _chi2_nodes(k: int) -> tuple[np.ndarray, np.ndarray]:
    """Quadrature nodes and weights for a sample variance over its true value (chi²_k / k).

    Gauss–Legendre on the chi² probability scale: the power's integrand is smooth there even
    where small sample variances meet the huge critical values of a few degrees of freedom
    and a small alpha, which defeats Gauss–Laguerre on the variance scale. One degree of
    freedom (two observations) converges slowest and gets more nodes.
    """
    u, w = special.roots_legendre(128 if k == 1 else 64)
    return special.chdtri(k, 0.5 - u / 2.0) / k, w / 2.0


@functools.lru_cache(maxsize=256)
def _critical_grid(
    n_a: int, n_b: int, share_a: float, alpha: float
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Welch's rejection threshold for the difference of means, in units of its true se, at
    each pair of quadrature nodes: the slow part (a t quantile per node pair), which does not
    depend on the effect and so is shared by every step of an MDE solve."""
    ka, kb = n_a - 1, n_b - 1
    xa, wa = _chi2_nodes(ka)
    xb, wb = _chi2_nodes(kb)
    a = share_a * xa[:, None]
    b = (1.0 - share_a) * xb[None, :]
    s2 = a + b
    df = s2 * s2 / (a * a / ka + b * b / kb)
    return wa, special.stdtrit(df, 1.0 - alpha / 2.0) * np.sqrt(s2), wb


def _power_std(delta: float, n_a: int, n_b: int, share_a: float, alpha: float) -> float:
    """Power of Welch's test at standardised effect ``delta`` (effect over the true se).

    ``share_a`` is side a's part of the true se² (sd_a²/n_a over the total). The degrees of
    freedom of Welch's test are estimated from the two sample variances, so with few
    observations they are random and usually well below the value the true variances give;
    plugging that value into a noncentral t overstates the power badly (3 vs 3 at α = 1%:
    0.80 promised, 0.58 delivered). Given both sample variances the difference of means is
    normal and independent of them, so the exact power is a two-dimensional integral over
    two chi-square laws, done by quadrature (checked against simulation in the tests).
    """
    if min(n_a, n_b) >= EXACT_BELOW:
        # variances that split the se² share_a : 1 − share_a (the means do not enter df)
        a, b = SideMoments(n_a, 0.0, share_a * n_a), SideMoments(n_b, 0.0, (1.0 - share_a) * n_b)
        df = float(welch_df(a, b))
        return _nct_power(abs(delta), df, alpha)
    wa, crit, wb = _critical_grid(n_a, n_b, share_a, alpha)
    d = abs(delta)
    hit = special.ndtr(d - crit) + special.ndtr(-d - crit)
    return min(1.0, max(0.0, float(wa @ hit @ wb)))


def welch_power(effect: float, sd_a: float, n_a: int, sd_b: float, n_b: int, alpha: float) -> float:
    """Probability that a two-sided Welch test at level ``alpha`` rejects when the true
    difference of means is ``effect``."""
    va, vb = sd_a**2 / n_a, sd_b**2 / n_b
    se = math.sqrt(va + vb)
    if se == 0:
        return 1.0 if effect != 0 else alpha
    return _power_std(effect / se, n_a, n_b, va / (va + vb), alpha)


@functools.lru_cache(maxsize=4096)
def standardised_mde(
    n_a: int, n_b: int, share_a: float, alpha: float, power: float = DEFAULT_POWER
) -> float:
    """The effect over the true se that Welch's test detects with probability ``power``.

    It depends on the design only through the sizes and side a's share of the se², so it is
    solved once and scaled by each key's se.
    """
    if power <= alpha:
        return 0.0
    hi = t_quantile(1.0 - alpha / 2.0, float(min(n_a, n_b) - 1)) + 4.0
    for _ in range(64):  # a finite start reaches the power long before; inf never does
        if not math.isfinite(hi):
            return math.inf
        if _power_std(hi, n_a, n_b, share_a, alpha) >= power:
            break
        hi *= 2.0
    else:
        return math.inf
    return float(
        optimize.brentq(
            lambda d: _power_std(d, n_a, n_b, share_a, alpha) - power, 0.0, hi, xtol=1e-12
        )
    )


def minimal_detectable_effect(
    sd_a: float, n_a: int, sd_b: float, n_b: int, alpha: float, power: float = DEFAULT_POWER
) -> float | None:
    """Smallest true difference the design detects with probability ``power``.

    None when there is no variance estimate (fewer than 2 observations on a side).
    """
    if n_a < 2 or n_b < 2:
        return None
    va, vb = sd_a**2 / n_a, sd_b**2 / n_b
    if va + vb == 0:
        return 0.0
    return math.sqrt(va + vb) * standardised_mde(n_a, n_b, va / (va + vb), alpha, power)


def runs_needed(
    effect: float,
    sd_a: float,
    sd_b: float,
    alpha: float,
    power: float = DEFAULT_POWER,
    max_n: int = MAX_RUNS,
) -> int | None:
    """Observations per side (equal on both) for a Welch test to detect ``effect`` with
    ``power``.

    None when the effect is zero or more than ``max_n`` per side would be needed.
    """
    if effect == 0 or not math.isfinite(effect):
        return None
    if sd_a == 0 and sd_b == 0:
        return 2
    size = abs(effect)

    def ok(n: int) -> bool:
        # "power ≥ target" is "MDE ≤ effect", and the standardised MDE of a design is
        # solved once and shared by every key of a suite
        mde = minimal_detectable_effect(sd_a, n, sd_b, n, alpha, power)
        return mde is not None and mde <= size

    # The normal approximation lands within a few observations of the answer unless the
    # answer is tiny; walk from there, galloping if it is far off, then bisect.
    z = t_quantile(1.0 - alpha / 2.0, math.inf) + t_quantile(power, math.inf)
    guess = (sd_a**2 + sd_b**2) * z * z / (effect * effect)
    n = min(max_n, max(2, math.ceil(guess) if math.isfinite(guess) else max_n))
    if ok(n):
        lo, hi, step = n, n, 1
        while lo > 2:
            lo = max(2, hi - step)
            if not ok(lo):
                break
            hi, step = lo, step * 2
        else:
            return 2
        lo += 1  # lo fails, hi passes
    else:
        lo, hi, step = n + 1, n, 1
        while not ok(hi):
            if hi >= max_n:
                return None
            lo = hi + 1
            hi, step = min(max_n, hi + step), step * 2
    while lo < hi:
        mid = (lo + hi) // 2
        if ok(mid):
            hi = mid
        else:
            lo = mid + 1
    return hi


def mde_log(variance: float, forks: int, alpha: float, power: float = DEFAULT_POWER) -> float:
    """Minimal detectable |log ratio| with ``forks`` per side and fork-mean ``variance``."""
    if forks < 2 or not math.isfinite(variance):
        return math.inf
    sd = math.sqrt(max(variance, 0.0))
    mde = minimal_detectable_effect(sd, forks, sd, forks, alpha, power)
    return math.inf if mde is None else mde


def mde_pct(variance: float, forks: int, alpha: float, power: float = DEFAULT_POWER) -> float:
    """The minimal detectable effect as a percentage change of the ratio (unbounded past the
    float range: forks decades apart detect nothing)."""
    return log_pct(mde_log(variance, forks, alpha, power))


def log_pct(d: float) -> float:
    """A detectable |log ratio| as the percentage change of the ratio it stands for (unbounded
    past the float range)."""
    return math.expm1(d) * 100.0 if d < _LOG_MAX else math.inf  # expm1 overflows past ~709


_LOG_MAX = math.log(1e300)


def forks_needed(
    variance: float, threshold: float, alpha: float, power: float = DEFAULT_POWER
) -> int:
    """Fewest forks per side whose minimal detectable effect is within ``threshold``.

    Returns ``MAX_FORKS`` when even that many would not do (or the variance is unknown).
    """
    target = math.log1p(threshold)
    if not math.isfinite(variance) or target <= 0:
        return MAX_FORKS
    if variance <= 0:
        return 2
    sd = math.sqrt(variance)
    need = runs_needed(target, sd, sd, alpha, power, max_n=MAX_FORKS)
    return MAX_FORKS if need is None else need
