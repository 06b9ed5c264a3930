"""A key's fork spread borrowed from the other keys of its suite, only ever to widen it.

With 3–6 forks a side, a key's own variance of log fork means has 2–5 degrees of freedom,
and at the sequential design's per-look level (about 0.2%, less after the family procedure)
Welch's critical value is 5–10 where the normal one is 3.1: on a suite whose forks spread
±13% a 1.5× change needs six forks a side. Keys of one suite measured on one machine share
most of that spread (JIT, memory layout, the machine), which the standard empirical-Bayes
remedy for many features with few replicates uses (Smyth 2004, limma's ``fitFDist``): a
scaled inverse-χ² prior fitted to all keys' sample variances gives each key a variance with
the prior's degrees of freedom d0 added to its own.

Plain moderation is calibrated over the prior, not per key: a key noisier than the suite's
typical key gets its spread understated, and the A/A error of a family with such keys rises
to 4–9% at α = 1% (``benchmarks/variance_moderation.py``). Two guards make every key's
interval at least as wide as a correctly specified moderation would make it for a key at the
prior's 90th percentile of spread:

* the pooled value is the prior's 90th percentile of σ² (s0²·d0/χ²_{d0; 0.10}), not its centre;
* a side whose own sample variance is at or above that keeps its own variance and n − 1
  degrees of freedom: borrowing never narrows a key's interval below what its own forks say.

A key far noisier than the rest is thus judged by its own forks (plain Welch) unless its
sample variance happens to fall below the suite's 90th percentile, the one case the guards
do not cover; the simulations of ``tests/stats/test_moderation.py`` and the script above keep
the A/A error within α for keys 1.2–3× noisier than the rest, in any share of the suite.
Below ``MIN_KEYS`` keys with a variance nothing is borrowed.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy import special

MIN_KEYS = 4
"""Fewest keys with a variance (≥ 2 forks on the side) a prior is fitted to."""
UPPER = 0.9
"""The prior's quantile of σ² that a borrowed variance is pulled towards."""


@dataclass(frozen=True)
class Moderated:
    """Every key's variance of log fork means on one side and the degrees of freedom it
    carries; ``borrowed`` where the suite's spread was used (the rest keep their own)."""

    var: np.ndarray
    df: np.ndarray
    borrowed: np.ndarray
    prior_df: np.ndarray
    """d0 of each family (row): 0 where nothing was fitted."""


def _trigamma_inverse(x: np.ndarray) -> np.ndarray:
    """Newton's method on ψ′(y) = x, as limma's ``trigammaInverse`` (x > 0)."""
    y = 0.5 + 1.0 / x
    for _ in range(50):
        tri = special.polygamma(1, y)
        step = tri * (1.0 - tri / x) / special.polygamma(2, y)
        y = y + step
        if np.all(np.abs(step / y) < 1e-8):
            break
    return np.asarray(y)


def fit_prior(n: np.ndarray, v: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(d0, s0²) of each family (row over keys) from its keys' sample variances ``v`` of ``n``
    forks, by the method of moments on log variances (limma's ``fitFDist``). d0 is at most the
    keys' pooled degrees of freedom (the prior cannot know more than the data it came from);
    0 (no prior) below ``MIN_KEYS`` keys with a positive variance."""
    n, v = np.atleast_2d(np.asarray(n, dtype=float)), np.atleast_2d(np.asarray(v, dtype=float))
    ok = (n >= 2) & np.isfinite(v) & (v > 0)
    d = np.where(ok, n - 1.0, 2.0)
    e = np.where(ok, np.log(np.where(ok, v, 1.0)) - special.digamma(d / 2) + np.log(d / 2), 0.0)
    k = ok.sum(axis=1)
    mean = e.sum(axis=1) / np.maximum(k, 1)
    spread = ((e - mean[:, None]) ** 2 * ok).sum(axis=1) / np.maximum(k - 1, 1)
    spread = spread - (special.polygamma(1, d / 2) * ok).sum(axis=1) / np.maximum(k, 1)
    pooled = ((n - 1.0) * ok).sum(axis=1)
    d0 = np.where(spread > 0, 2.0 * _trigamma_inverse(np.where(spread > 0, spread, 1.0)), pooled)
    d0 = np.where(k >= MIN_KEYS, np.minimum(d0, pooled), 0.0)
    safe = np.maximum(d0, 1e-9)
    s0 = np.where(d0 > 0, np.exp(mean + special.digamma(safe / 2) - np.log(safe / 2)), np.nan)
    return d0, s0


def moderate(n: np.ndarray, v: np.ndarray) -> Moderated:
    """Each key's side variance with the suite's spread borrowed where that widens it.

    ``n`` and ``v`` are forks and sample variances (rows = families, columns = keys; one row
    for one family). A key with fewer than two forks keeps what it has (it is not tested).
    """
    n2, v2 = np.atleast_2d(np.asarray(n, dtype=float)), np.atleast_2d(np.asarray(v, dtype=float))
    d0, s0 = fit_prior(n2, v2)
    fitted = d0 > 0
    dd = np.where(fitted, d0, 1.0)
    upper = np.where(fitted, s0 * dd / special.chdtri(dd, UPPER), np.nan)[:, None]
    own_df = n2 - 1.0
    own_v = np.where(n2 >= 2, v2, 0.0)
    borrow = fitted[:, None] & (n2 >= 2) & ~(own_v >= upper)
    d0c = d0[:, None]
    var = np.where(borrow, (d0c * upper + own_df * own_v) / (d0c + own_df), v2)
    df = np.where(borrow, d0c + own_df, own_df)
    shape = np.shape(n)
    return Moderated(var.reshape(shape), df.reshape(shape), borrow.reshape(shape), d0)
