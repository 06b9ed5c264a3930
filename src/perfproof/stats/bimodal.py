"""Fork means of both sides in two groups: a test with a known false-positive rate, and what a
look may conclude from a key that has them.

A JIT can settle into one of two code shapes per JVM, so the fork means of a benchmark (both
sides pooled, log scale) sometimes fall in two groups far apart with little spread inside
each. Welch's t then compares two mixtures: when, by chance, the base forks landed in one
shape and the head forks in the other, it sees a large difference with a small spread and
calls it a change, which no number of looks at three forks per side can tell from a real one
(BENCHMARKS.md, "Fork means in two code shapes").

**Detection.** (Groups that split exactly by side and lie further apart than
:data:`MAX_SHAPE_RATIO` are not two shapes but the change, and are not called bimodal.) The
pooled values are split in two by 2-means (the cut of the sorted values that
leaves the least spread inside the groups, each group at least :data:`MIN_GROUP` values), and
the statistic is the ratio of the spread between the groups to the spread inside them (B/W).
For values from one normal distribution the statistic does not depend on the mean or the sd,
only on the number of values, so its null quantiles are simulated once per number of values
(:func:`null_statistics`, shipped in ``bimodal_levels.json`` by
``benchmarks/calibrate_bimodal.py``); a key is *bimodal* when its statistic exceeds the
quantile at :data:`LEVEL`, which is then the chance of calling one normal group bimodal.

**What a bimodal key may conclude.** Two things can differ between the sides: how many forks
of each side fell in each group (*occupancy*) and, inside a group that holds forks of both
sides, where they lie (*within-group shift*). An improvement or regression that Welch's t finds
on the pooled forks stands only when one of them agrees with it at the same nominal level as
the look's interval: Boschloo's exact test on the 2×2 table of side × group (valid whatever the
shapes' shares, because the groups are found blind to the sides), or Welch's t inside a group
with at least two forks of each side. Otherwise the key is *held*: the look does not decide it
and it runs more forks, so that chance occupancy alone never makes a verdict. Holding only ever
removes a decision at a look, so the sequential design's guarantee stands.

**Unless the change explains the split.** When the change reaches the benchmark (a static call
path, or a change outside the Java sources) and the groups split exactly by side (every base
fork in one, every head fork in the other), the split is what a real change leaves: the new
code runs in one shape, the old in another. Holding it cost real 1.3–2.3× effects three more
rounds each, so such a key is decided at the normal look. The hold stays where the change
cannot explain the split: keys it does not reach, and keys whose reach is not known (``compare``
on files, without a repository). An A/A run has an empty diff and reaches nothing, so its
guarantee is the held one; what a change that runs in a bimodal benchmark without moving it
risks is measured in BENCHMARKS.md ("Fork means in two code shapes").
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from perfproof.stats.boschloo import boschloo_two_sided
from perfproof.stats.tables import shipped_table
from perfproof.stats.welch import SideMoments, welch_where_tested

MIN_GROUP = 2
"""Values in each group: a single far value is an outlier, not a second code shape."""
MAX_SHAPE_RATIO = 3.0
"""Groups whose means are further apart than this factor are not taken for two code shapes of
one build. The shapes a JIT settles into (inlining, loop layout, contended or not) differ by
tens of percent up to about two-fold (JCTools' CAT counter: 15 against 26–33 ns/op); a clean
split of 26× or 2600× between the sides (the demo's two fixes) is the change itself, and holding
it for occupancy would leave every large effect inconclusive at a few forks a side."""
LEVEL = 0.01
"""Nominal false-positive rate of the detector on one normal group."""
LEVELS_FILE = "bimodal_levels.json"
LEVELS_SCHEMA = "perfproof.bimodal-levels/1"


# ------------------------------------------------------------------------------ the input


@dataclass(frozen=True)
class ForkRows:
    """Log fork means of many keys (rows), both sides in one padded array: ``values`` (rows ×
    width, NaN where a row has fewer values) and ``head`` (True where a value is a head fork)."""

    values: np.ndarray
    head: np.ndarray


def fork_rows(base: Sequence[np.ndarray], head: Sequence[np.ndarray]) -> ForkRows:
    """One row per key from each side's log fork means (keys may differ in fork counts)."""
    width = max([len(b) + len(h) for b, h in zip(base, head, strict=True)] + [1])
    values = np.full((len(base), width), np.nan)
    is_head = np.zeros((len(base), width), dtype=bool)
    for i, (b, h) in enumerate(zip(base, head, strict=True)):
        values[i, : len(b)] = b
        values[i, len(b) : len(b) + len(h)] = h
        is_head[i, len(b) : len(b) + len(h)] = True
    return ForkRows(values, is_head)


# ---------------------------------------------------------------------------- the split


@dataclass(frozen=True)
class Splits:
    """The 2-means split of every row: values, the statistic B/W and whether it exceeds the
    null quantile (``bimodal``); the groups' log means and, per side, how many forks fell in
    the low group and in the high one. Rows with fewer than 2 × MIN_GROUP values are never
    bimodal (their other fields are 0 or NaN)."""

    n: np.ndarray
    statistic: np.ndarray
    bimodal: np.ndarray
    low_mean: np.ndarray
    high_mean: np.ndarray
    base_low: np.ndarray
    base_high: np.ndarray
    head_low: np.ndarray
    head_high: np.ndarray
    within_sd: np.ndarray
    """The pooled sd inside the two groups (log scale)."""
    low: np.ndarray
    """(rows × width) True where a value (in the input's order) is in the low group."""

    def separation(self) -> np.ndarray:
        """Distance of the group means in sds inside the groups (what a reader can picture)."""
        gap = self.high_mean - self.low_mean
        sd = self.within_sd
        return np.where(sd > 0, gap / np.where(sd > 0, sd, 1.0), np.inf)


def statistics(
    values: np.ndarray,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Per row of ``values`` (NaN-padded): the number of values, the best 2-means cut (how many
    of the sorted values go to the low group; 0 when no cut is allowed), B/W at that cut and
    W (the sum of squares inside the groups)."""
    x = np.atleast_2d(np.asarray(values, dtype=float))
    rows, width = x.shape
    n = np.sum(~np.isnan(x), axis=1)
    x = np.sort(x, axis=1)  # NaN last
    centre = np.where(n > 0, np.nansum(x, axis=1) / np.maximum(n, 1), 0.0)
    x = np.where(np.isnan(x), 0.0, x - centre[:, None])
    s, q = np.cumsum(x, axis=1), np.cumsum(x * x, axis=1)
    last = np.maximum(n - 1, 0)[:, None]
    s_all = np.take_along_axis(s, last, axis=1)
    q_all = np.take_along_axis(q, last, axis=1)
    j = np.arange(1, width + 1)[None, :]  # values in the low group
    n_hi = n[:, None] - j
    s_hi = s_all - s
    with np.errstate(divide="ignore", invalid="ignore"):
        w = (q - s * s / j) + (q_all - q) - s_hi * s_hi / np.where(n_hi > 0, n_hi, 1)
    allowed = (j >= MIN_GROUP) & (n_hi >= MIN_GROUP)
    w = np.where(allowed, np.maximum(w, 0.0), np.inf)
    best = np.argmin(w, axis=1)
    w_best = w[np.arange(rows), best]
    total = np.maximum(q_all[:, 0] - s_all[:, 0] ** 2 / np.maximum(n, 1), 0.0)
    possible = np.isfinite(w_best)
    b = np.where(possible, np.maximum(total - w_best, 0.0), 0.0)
    with np.errstate(divide="ignore", invalid="ignore"):
        stat = np.where(w_best > 0, b / np.where(w_best > 0, w_best, 1.0), np.inf)
    stat = np.where(possible & (b > 0), stat, 0.0)
    return n, np.where(possible, best + 1, 0), stat, np.where(possible, w_best, 0.0)


def split_rows(rows: ForkRows, level: float = LEVEL) -> Splits:
    """The 2-means split of every key's pooled log fork means, with the detector's verdict."""
    n, cut, stat, within = statistics(rows.values)
    bimodal = (cut > 0) & (stat > threshold(n, level))
    # a value is low when its rank among the row's values is below the cut (NaN sort last)
    rank = np.argsort(np.argsort(rows.values, axis=1, kind="stable"), axis=1)
    present = ~np.isnan(rows.values)
    low = present & (rank < cut[:, None])
    high = present & ~low & (cut > 0)[:, None]
    with np.errstate(invalid="ignore"):
        low_mean = np.nansum(np.where(low, rows.values, 0.0), axis=1) / np.sum(low, axis=1)
        high_mean = np.nansum(np.where(high, rows.values, 0.0), axis=1) / np.sum(high, axis=1)
    # split exactly by side and further apart than two shapes of one build: the change itself
    with np.errstate(invalid="ignore"):
        too_far = high_mean - low_mean > np.log(MAX_SHAPE_RATIO)
    bimodal &= ~(_by_side(low, high, rows.head) & too_far)
    return Splits(
        n=n,
        statistic=stat,
        bimodal=bimodal,
        low_mean=low_mean,
        high_mean=high_mean,
        base_low=np.sum(low & ~rows.head, axis=1),
        base_high=np.sum(high & ~rows.head, axis=1),
        head_low=np.sum(low & rows.head, axis=1),
        head_high=np.sum(high & rows.head, axis=1),
        within_sd=np.sqrt(within / np.maximum(n - 2, 1)),
        low=low,
    )


def _by_side(low: np.ndarray, high: np.ndarray, head: np.ndarray) -> np.ndarray:
    """Rows whose groups each hold forks of one side only."""
    low_one = (np.sum(low & head, axis=1) == 0) | (np.sum(low & ~head, axis=1) == 0)
    high_one = (np.sum(high & head, axis=1) == 0) | (np.sum(high & ~head, axis=1) == 0)
    return np.asarray(low_one & high_one, dtype=bool)


def by_side(s: Splits) -> np.ndarray:
    """Bimodal rows whose two groups split exactly by side: every base fork in one group,
    every head fork in the other (the pattern a change that moves the benchmark leaves)."""
    one_side = (np.minimum(s.base_low, s.head_low) == 0) & (
        np.minimum(s.base_high, s.head_high) == 0
    )
    return np.asarray(s.bimodal & one_side, dtype=bool)


# ----------------------------------------------------------------------- null quantiles


def null_statistics(rng: np.random.Generator, n: int, draws: int) -> np.ndarray:
    """B/W of ``draws`` samples of ``n`` values from one normal group (the null), in chunks so
    that large ``n`` stays within memory."""
    out = []
    chunk = max(1, 2_000_000 // max(n, 1))
    for start in range(0, draws, chunk):
        size = min(chunk, draws - start)
        out.append(statistics(rng.standard_normal((size, n)))[2])
    return np.concatenate(out)


def levels_table() -> dict[str, Any]:
    """The shipped null quantiles."""
    return shipped_table(LEVELS_FILE, LEVELS_SCHEMA)


@functools.cache
def _quantiles(level: float) -> tuple[int, np.ndarray]:
    """(smallest n, quantile per n from there on) at ``level``, from the shipped table."""
    table = levels_table()
    levels = [float(x) for x in table["levels"]]
    if level not in levels:
        raise ValueError(f"no null quantiles at level {level} (have {levels})")
    col = levels.index(level)
    sizes = sorted(int(k) for k in table["quantiles"])
    return sizes[0], np.array([table["quantiles"][str(k)][col] for k in sizes], dtype=float)


def threshold(n: np.ndarray, level: float = LEVEL) -> np.ndarray:
    """The null quantile of B/W at ``level`` for ``n`` values: infinite below the smallest
    calibrated n (no cut possible), the largest calibrated n's beyond the table (the quantile
    falls with n, so that errs towards fewer detections)."""
    first, q = _quantiles(level)
    idx = np.clip(np.asarray(n, dtype=int) - first, 0, q.size - 1)
    return np.where(np.asarray(n) < first, np.inf, q[idx])


# ------------------------------------------------------------------ what a look concludes


@dataclass(frozen=True)
class Support:
    """Per key, why a pooled verdict of a bimodal key stands (or not): Boschloo's p on side ×
    group, Welch's p inside the low and the high group (1 where a group lacks two forks of a
    side), ``held``: the verdict rests on nothing but which group the forks fell in, and
    ``explained``: the groups split exactly by side on a key the change reaches, so the split
    is taken as the change and the look decides as it would without the rule."""

    occupancy_p: np.ndarray
    low_p: np.ndarray
    high_p: np.ndarray
    held: np.ndarray
    explained: np.ndarray


def occupancy_p(s: Splits) -> np.ndarray:
    """Two-sided p-value of Boschloo's exact test on the side × group table of every bimodal
    row (1 elsewhere).

    Unconditional: the chance of a table at least as extreme, maximised over the share of
    forks the fast shape gets, with the sides' fork counts fixed. Fisher's test conditions on
    the groups' sizes too and is needlessly conservative here: 5 forks per side all on
    opposite sides give p = 0.002 (the chance at an even share, 2 × 0.5¹⁰), where Fisher
    says 0.008. Tables repeat, so each is computed once.
    """
    out = np.ones(s.n.shape)
    for i in np.flatnonzero(s.bimodal):
        table = (int(s.base_low[i]), int(s.base_high[i]), int(s.head_low[i]), int(s.head_high[i]))
        out[i] = _boschloo(table)
    return out


@functools.lru_cache(maxsize=4096)
def _boschloo(table: tuple[int, int, int, int]) -> float:
    base_low, base_high, head_low, head_high = table
    if min(base_low + base_high, head_low + head_high) == 0:
        return 1.0
    p = boschloo_two_sided((base_low, base_high, head_low, head_high))
    return min(p, 1.0) if np.isfinite(p) else 1.0


def _within_group(rows: ForkRows, member: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Welch's (p, head − base) on the forks of one group per row; p = 1 where a side of the
    group has fewer than two forks."""
    sides = []
    for side in (~rows.head, rows.head):
        m = member & side
        k = np.sum(m, axis=1)
        x = np.where(m, rows.values, 0.0)
        mean = np.sum(x, axis=1) / np.maximum(k, 1)
        var = np.sum(np.where(m, (rows.values - mean[:, None]) ** 2, 0.0), axis=1)
        sides.append(SideMoments(k, mean, var / np.maximum(k - 1, 1)))
    w, tested = welch_where_tested(sides[0], sides[1])
    return np.where(tested, w.p_value, 1.0), w.diff


def support(
    rows: ForkRows,
    s: Splits,
    diff: np.ndarray,
    decisive: np.ndarray,
    level: np.ndarray,
    reached: np.ndarray | None = None,
) -> Support:
    """For each key whose pooled look is ``decisive`` (an improvement or regression with log
    ratio ``diff``): does the occupancy or a within-group shift agree with it at nominal
    ``level``? A bimodal key that is decisive with neither is held, unless the change
    ``reached`` it (True per row; None: reach not known, every row held) and its forks split
    exactly by side: that is what a change leaves on the benchmarks it runs in."""
    direction = np.sign(diff)
    occ = occupancy_p(s)
    nb = np.maximum(s.base_low + s.base_high, 1)
    nh = np.maximum(s.head_low + s.head_high, 1)
    # more head forks in the low group: head lower, the sign of a negative log ratio
    occ_sign = -np.sign(s.head_low / nh - s.base_low / nb)
    present = ~np.isnan(rows.values)
    low_p, low_d = _within_group(rows, s.low)
    high_p, high_d = _within_group(rows, present & ~s.low)
    agrees = (
        ((occ <= level) & (occ_sign == direction))
        | ((low_p <= level) & (np.sign(low_d) == direction))
        | ((high_p <= level) & (np.sign(high_d) == direction))
    )
    clean = by_side(s)
    explained = clean & (np.zeros_like(clean) if reached is None else np.asarray(reached, bool))
    return Support(occ, low_p, high_p, s.bimodal & decisive & ~agrees & ~explained, explained)
