"""Futility for keys the bimodal-forks rule holds: would any later look decide them?

A held key's pooled Welch look is decisive but neither the occupancy of the two groups nor a
shift inside one agrees with it (:func:`perfproof.stats.bimodal.support`), so the key runs
more forks. The predictive futility stop (:func:`perfproof.stats.futility.predictive_power`)
never stops it: it asks whether Welch would decide, and Welch already does. Such a key used to
run every remaining round, the occupancy test out of reach, and end ``inconclusive``.

The question a stop must answer is whether the *whole rule* could decide the key by the last
look, and a best case of the occupancy test alone does not answer it: more forks can also make
a shift inside a group significant, or show that the forks are one group after all, and either
would decide the key. So the continuation is simulated, the way a predictive probability is
computed: what the forks say about the key (each side's share of forks in the low group, as
Jeffreys' Beta posterior of the counts; each group's mean per side, with its standard error
from the spread inside the groups) is drawn afresh for every continuation rather than fixed at
the estimate of a few forks, the key's forks are continued to the design's last look, and the
look's own rule — pooled Welch at the level the key would have once the family is decided, then
the bimodal detector and :func:`support` — is applied to each continuation. The share of
continuations decided is the key's chance of a verdict; below the futility bar (and with an
interval that bounds the change, :func:`perfproof.stats.futility.stop_rule`) the key stops
without a verdict. Stopping without a verdict can only remove chances of a false
improved/regressed, so the sequential guarantee stands whatever this estimate is; what it costs
is power, measured in ``tests/stats/test_bimodal_futility.py``. A key on a benchmark the change
reaches is never stopped this way (:func:`perfproof.stats.sequential.judge`).

It judges the last look only and the pooled look without borrowing the suite's spread, both
of which understate the chance: it errs towards stopping.
"""

from __future__ import annotations

import hashlib

import numpy as np

from perfproof.stats import bimodal
from perfproof.stats.welch import SideMoments, welch_where_tested

FUTURES = 200
"""Continuations simulated per held key."""


def _seed(values: np.ndarray) -> int:
    """The same forks give the same continuations (a look is a function of its data)."""
    data = np.ascontiguousarray(np.nan_to_num(values, nan=0.0)).tobytes()
    return int.from_bytes(hashlib.sha256(data).digest()[:8], "little")


def held_power(
    rows: bimodal.ForkRows,
    s: bimodal.Splits,
    held: np.ndarray,
    level: np.ndarray,
    forks_end: int,
    reached: np.ndarray | None = None,
) -> np.ndarray:
    """Per key (row): the share of continuations to ``forks_end`` forks a side in which the
    last look at nominal ``level`` decides it; 1 for keys not ``held`` (not this rule's)."""
    out = np.ones(len(held))
    for i in np.flatnonzero(held):
        out[i] = _power_one(rows, s, int(i), float(np.reshape(level, -1)[i]), forks_end,
                            None if reached is None else bool(reached[i]))  # fmt: skip
    return out


def _power_one(
    rows: bimodal.ForkRows,
    s: bimodal.Splits,
    i: int,
    level: float,
    forks_end: int,
    reached: bool | None,
) -> float:
    values, head = rows.values[i], rows.head[i]
    present = ~np.isnan(values)
    low = s.low[i]
    rng = np.random.default_rng(_seed(values))
    sd = float(s.within_sd[i])
    group_mean = (float(s.low_mean[i]), float(s.high_mean[i]))
    sides = []
    for side in (~head & present, head & present):
        n = int(side.sum())
        in_low_now = int((side & low).sum())
        # what the forks say about the side: its share of the low group (Jeffreys' Beta
        # posterior) and each group's mean on this side (normal, se from the spread inside the
        # groups; the group's pooled mean where the side has no fork in it), one draw a future
        share_low = rng.beta(in_low_now + 0.5, n - in_low_now + 0.5, (FUTURES, 1))
        means = []
        for g, member in enumerate((low, present & ~low)):
            k = int((side & member).sum())
            centre = float(values[side & member].mean()) if k else group_mean[g]
            count = k if k else max(int(member.sum()), 1)
            means.append(centre + rng.standard_normal((FUTURES, 1)) * sd / np.sqrt(count))
        more = max(forks_end - n, 0)
        in_low = rng.random((FUTURES, more)) < share_low
        drawn = np.where(in_low, means[0], means[1]) + rng.standard_normal((FUTURES, more)) * sd
        sides.append(np.concatenate([np.broadcast_to(values[side], (FUTURES, n)), drawn], axis=1))
    base, headv = sides
    futures = bimodal.ForkRows(
        np.concatenate([base, headv], axis=1),
        np.concatenate([np.zeros(base.shape, bool), np.ones(headv.shape, bool)], axis=1),
    )
    w, tested = welch_where_tested(SideMoments.of_rows(base), SideMoments.of_rows(headv))
    decisive = tested & (w.p_value <= level)
    groups = bimodal.split_rows(futures)
    support = bimodal.support(
        futures, groups, w.diff, decisive, np.full(FUTURES, level),
        None if reached is None else np.full(FUTURES, reached),
    )  # fmt: skip
    return float((decisive & ~support.held).mean())
