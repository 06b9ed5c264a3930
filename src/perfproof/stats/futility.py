"""Futility on evidence: stop a key without a verdict only when its data say the effect is small.

A sequential run stops a key that has no verdict yet when more rounds would be wasted on it.
The rule this replaces took the key's current estimate as the truth and asked whether the last
look would decide (conditional power). At the first look a key has three forks a side, a
per-look level near 0.1% and an interval that spans ×0.5…×3, so its estimate is barely
known: conditional power under it is near 0 for most real effects of 1.3–2×, and they were
stopped, with "no change beyond ±222.7%" as their bound. A stop must rest on evidence that
the effect is small, so there are two rules, and the note says which applied:

``EQUIVALENCE``
    The look's interval lies inside the stated margin ±``margin`` (log-symmetric:
    ``[1/(1+m), 1+m]``): whatever the change is, it is smaller than that. Only effects inside
    the margin can be given up, which is what the margin states.
``PREDICTIVE``
    The *predictive* probability that the last look decides the key is below the bar γ, and
    the interval already bounds the change within ±``bound`` in percent of the metric (ratio
    ``[1 − b, 1 + b]``: a stop whose interval bounds nothing is no evidence of a small effect,
    whatever a probability says). The probability
    averages the conditional power over what the data say about the effect instead of fixing
    it at the estimate (Spiegelhalter, Freedman & Blackburn 1986): the effect's posterior from
    a normal prior centred on no change with sd ``prior_sd`` (twofold changes are ordinary in
    a benchmark suite, ten-fold ones rare) and the look's estimate with its *moderated* se
    (the suite's spread borrowed, :mod:`perfproof.stats.moderation`), integrated over the true
    spread its degrees of freedom allow; the last look's estimate is then normal around the
    posterior mean (:func:`predictive_power`). The last look's critical value
    is taken at the level the family procedure gives a key when every key is decided (the
    overall α): early looks of a suite still starve each key's level (Benjamini–Hochberg with
    nothing selected tests at α/m), and the level a key gets by the end is not that.

Both only ever stop *without* a verdict, so the design's false-alarm guarantee stands whatever
they decide (non-binding futility); they cost power only for effects inside the margin, or ones
the design could not have decided anyway. The last look alone is counted: an earlier look's
crossing adds a little to the chance, so the rule errs towards stopping, and the bar and the
bound keep that small (measured on resampled real forks in BENCHMARKS.md).
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from typing import Literal

import numpy as np
from scipy import special

NONE, EQUIVALENCE, PREDICTIVE = 0, 1, 2
"""Which futility rule stopped a key (``NONE``: it continues)."""

RuleName = Literal["equivalence", "predictive"]
RULE_NAMES: dict[int, RuleName] = {EQUIVALENCE: "equivalence", PREDICTIVE: "predictive"}


@dataclass(frozen=True)
class FutilityRule:
    """The futility rule of a design: the bar γ on the predictive probability (0: no stop at
    all), the equivalence margin, the widest interval a predictive stop may have, and the
    prior's sd of the log ratio."""

    bar: float
    margin: float = 0.05
    bound: float = 0.5
    prior_sd: float = math.log(2.0)

    def __post_init__(self) -> None:
        if not 0.0 <= self.bar < 1.0:
            raise ValueError(f"futility must be in [0, 1), got {self.bar}")
        if self.margin < 0 or self.bound <= 0 or self.prior_sd <= 0:
            raise ValueError("the futility margin, bound and prior sd must be positive")

    @property
    def active(self) -> bool:
        return self.bar > 0


def inside(lo: np.ndarray, hi: np.ndarray, margin: float) -> np.ndarray:
    """Log intervals that lie inside the log-symmetric margin ``[1/(1+m), 1+m]``."""
    edge = math.log1p(margin)
    return np.asarray((np.asarray(lo) >= -edge) & (np.asarray(hi) <= edge))


@functools.cache
def _spread_nodes(count: int = 24) -> tuple[np.ndarray, np.ndarray]:
    """Gauss–Legendre nodes and weights on the probability scale of a sample variance's law:
    the integral over what the true se may be, given the look's (as ``stats.power`` does)."""
    x, w = special.roots_legendre(count)
    return 0.5 - x / 2.0, w / 2.0


def bounded(lo: np.ndarray, hi: np.ndarray, bound: float) -> np.ndarray:
    """Log intervals whose change, written in percent of the metric, lies within ±``bound``
    (ratio ``[1 − b, 1 + b]``): the bound a note then gives means something."""
    low = math.log(1.0 - bound) if bound < 1.0 else -math.inf
    return np.asarray((np.asarray(lo) >= low) & (np.asarray(hi) <= math.log1p(bound)))


def predictive_power(
    diff: np.ndarray,
    se: np.ndarray,
    df: np.ndarray,
    forks_now: int,
    forks_end: int,
    level_end: float,
    prior_sd: float,
) -> np.ndarray:
    """The predictive probability that the last look (``forks_end`` forks a side) excludes 1 at
    nominal two-sided ``level_end``, given each key's log ratio ``diff``, its se and degrees of
    freedom at this look (``forks_now`` forks a side) and a normal prior N(0, ``prior_sd``²) on
    the true log ratio; 1 where the se is not positive or not finite (nothing to judge).

    The true se is not the look's: given ``df``, (se / true se)² is χ²_df / df, and the chance
    is integrated over it. For each true se σ the effect's posterior is normal (mean w·diff,
    variance w·σ², w = τ² / (τ² + σ²)), the last look's estimate is today's forks' share f of
    the information plus the rest drawn from that posterior, and its statistic is compared with
    Student's critical value at the last look's degrees of freedom. An unchanged key (estimate
    near 0) has a small chance whatever its spread; a real effect measured on few, noisy forks
    keeps the chance its possible spreads give it, not the one its current se alone gives.
    """
    d, s, nu = (np.asarray(x, dtype=float) for x in (diff, se, df))
    ok = np.isfinite(d) & np.isfinite(s) & (s > 0) & np.isfinite(nu) & (nu > 0)
    d = np.where(ok, d, 0.0)[..., None]
    nu_ = np.where(ok, nu, 1.0)[..., None]
    prob, weight = _spread_nodes()
    u2 = special.chdtri(nu_, prob) / nu_  # (se / true se)² at each node
    sigma2 = np.where(ok, s, 1.0)[..., None] ** 2 / u2
    f = forks_now / forks_end  # the information today's forks hold of the last look's
    shrink = prior_sd**2 / (prior_sd**2 + sigma2)
    mean_end = f * d + (1.0 - f) * shrink * d
    var_end = (1.0 - f) ** 2 * shrink * sigma2 + sigma2 * f * (1.0 - f)
    se_end = np.sqrt(sigma2 * f)
    c = special.stdtrit(nu_ + 2.0 * (forks_end - forks_now), 1.0 - level_end / 2.0)
    z_mean = np.abs(mean_end) / se_end
    if forks_end <= forks_now:
        hit = (z_mean > c).astype(float)
    else:
        z_sd = np.sqrt(var_end) / se_end
        hit = special.ndtr((z_mean - c) / z_sd) + special.ndtr((-z_mean - c) / z_sd)
    p = hit @ weight
    return np.asarray(np.where(ok, np.clip(p, 0.0, 1.0), 1.0))


def stop_rule(
    lo: np.ndarray,
    hi: np.ndarray,
    power: np.ndarray,
    candidate: np.ndarray,
    rule: FutilityRule,
) -> np.ndarray:
    """Per key, the rule that stops it (``EQUIVALENCE``, ``PREDICTIVE``) or ``NONE``.

    ``lo``/``hi`` are the log bounds of the interval the key is shown with at this look,
    ``power`` its chance of a verdict by the last look (:func:`predictive_power`, or the
    bimodal-forks rule's own), ``candidate`` where a stop is allowed at all (a key that
    continues, was tested and is not waiting for the forks it needs).
    """
    out = np.zeros(np.shape(lo), dtype=np.int8)
    if not rule.active:
        return out
    cand = np.asarray(candidate, dtype=bool)
    equivalent = cand & inside(lo, hi, rule.margin)
    improbable = cand & ~equivalent & (np.asarray(power) < rule.bar) & bounded(lo, hi, rule.bound)
    out[equivalent] = EQUIVALENCE
    out[improbable] = PREDICTIVE
    return out
