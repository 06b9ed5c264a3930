"""Ranks of fork means: the Hodges–Lehmann shift with the exact Mann–Whitney interval.

The second fork-level method, for forks whose means are not normal: two code shapes per JVM,
a fork that hit a GC storm, a machine that stalled. Welch's t assumes normal log fork means
and one outlying fork moves both its estimate and its spread; a rank method asks only that the
forks of a side be exchangeable. On the log fork means ``x`` (base) and ``y`` (head):

- the estimate of the log ratio is the Hodges–Lehmann shift, the median of the ``m·n``
  differences ``y_j − x_i``;
- the test is Mann–Whitney's: under "nothing changed" the count ``U`` of pairs with
  ``y_j > x_i`` has a law that depends on ``m`` and ``n`` only (:func:`null_cdf`, exact,
  computed once per pair of sizes), so its p-value holds for *any* continuous law of fork means;
- the interval at level 1 − α is the pair of order statistics ``D_(k)``, ``D_(mn+1−k)`` of the
  sorted differences, ``k`` the largest count with ``P(U ≤ k − 1) ≤ α/2``. It excludes 0
  exactly when the test rejects at α (ties count against rejecting on both), so the verdict
  read off the interval is the test's.

What it costs: with few forks no p-value is small. ``m = n`` forks a side give no two-sided
p-value below ``2/C(2n, n)``: 0.1 at three forks, 0.008 at five, 0.0011 at seven. A key with
too few forks for the level gets an unbounded interval (and a note saying how many forks the
level needs) rather than a narrow wrong one. Under normal fork means the test is about 95%
(3/π) as efficient as Welch's, which is how its power is reckoned here.

At the looks of a sequential design the per-look level is Bonferroni's α/K
(:class:`perfproof.stats.sequential_levels.Bonferroni`): each look's p-value is exact, so the
union bound keeps any false improved/regressed over the K looks within α for any law of fork
means, with no table to calibrate. The futility rule's prediction reads the look's Welch se and
degrees of freedom (a prediction, not a decision: futility never adds a false alarm). The
simulations of ``tests/stats/test_fork_ranks.py`` check the A/A guarantee at a fixed design and
at the looks, on normal and two-shape forks.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

import numpy as np
from scipy import special

from perfproof.model import Estimate
from perfproof.model.diagnostics import ComparisonMethod, Kind, Note
from perfproof.stats import method_notes
from perfproof.stats.fork_welch import ADVISED_FORKS, WELCH_FORKS
from perfproof.stats.forks import Forks, fork_means
from perfproof.stats.method import Effect, Support
from perfproof.stats.sequential_levels import BONFERRONI, Levels, Schedule
from perfproof.stats.welch import SideMoments, welch_where_tested

EFFICIENCY = 3.0 / math.pi
"""Asymptotic efficiency of the rank test relative to Welch's t under normal fork means: it
needs about π/3 times the forks for the same power."""
MAX_EXACT = 400
"""Forks of both sides together up to which the null law of U is computed exactly; beyond,
its normal approximation (with continuity correction) is within 1e-4 of it."""


@functools.lru_cache(maxsize=1024)
def null_cdf(m: int, n: int) -> np.ndarray:
    """P(U ≤ u) for u = 0..m·n, U the Mann–Whitney count of m base and n head values drawn from
    one continuous law: the coefficients of ∏ᵢ (1 − q^(n+i)) / (1 − qⁱ), i = 1..m, as
    power series (each step causal, so truncation at m·n is exact), over C(m+n, m)."""
    size = m * n + 1
    if m + n > MAX_EXACT:
        u = np.arange(size)
        mean, sd = m * n / 2.0, math.sqrt(m * n * (m + n + 1) / 12.0)
        return np.asarray(special.ndtr((u + 0.5 - mean) / sd))
    c = np.zeros(size)
    c[0] = 1.0
    for i in range(1, m + 1):
        s = n + i
        if s < size:
            c[s:] -= c[:-s].copy()
        width = -(-size // i) * i
        padded = np.zeros(width)
        padded[:size] = c
        c = np.cumsum(padded.reshape(-1, i), axis=0).reshape(-1)[:size]
    cdf = np.cumsum(c) / math.comb(m + n, m)
    return np.asarray(np.minimum(cdf, 1.0))


def trimmed(level: float, m: int, n: int) -> int:
    """k: how many sorted differences the interval at two-sided ``level`` leaves out at each
    end (0: no interval of so few values reaches the level)."""
    return int(np.searchsorted(null_cdf(m, n), level / 2.0 * (1.0 + 1e-12), side="right"))


def smallest_p(m: int, n: int) -> float:
    """The smallest two-sided p-value m and n values can give."""
    return min(1.0, 2.0 * float(null_cdf(m, n)[0]))


def forks_for(level: float) -> int:
    """Fewest forks a side whose smallest p-value reaches two-sided ``level``."""
    n = 2
    while smallest_p(n, n) > level:
        n += 1
    return n


@dataclass(frozen=True)
class _Rows:
    """Every key's sorted differences (keys × m·n), its p-value and Hodges–Lehmann shift."""

    sorted: np.ndarray
    p_value: np.ndarray
    shift: np.ndarray


def _rows(x: np.ndarray, y: np.ndarray) -> _Rows:
    """Mann–Whitney and Hodges–Lehmann for every row pair of x (keys × m) and y (keys × n)."""
    m, n = x.shape[-1], y.shape[-1]
    d = np.sort((y[:, None, :] - x[:, :, None]).reshape(x.shape[0], m * n), axis=-1)
    below = (d < 0).sum(axis=-1)
    above = (d > 0).sum(axis=-1)
    ties = m * n - below - above
    cdf = null_cdf(m, n)
    tail = np.minimum(cdf[below + ties], cdf[above + ties])
    return _Rows(d, np.minimum(1.0, 2.0 * tail), np.median(d, axis=-1))


class RankForks:
    """Ranks of log fork means: Hodges–Lehmann shift, exact Mann–Whitney interval."""

    name = ComparisonMethod.FORK_RANKS
    at_looks = ComparisonMethod.FORK_RANKS_SEQUENTIAL
    in_family = True
    plain = False
    describes_ratio = True
    has_power = True
    summary = (
        "Hodges-Lehmann shift with the exact Mann-Whitney interval: holds for any law of fork "
        "means, needs 5+ forks a side at 99%"
    )

    def summarize(self, forks: Forks, confidence: float) -> Estimate:
        return WELCH_FORKS.summarize(forks, confidence)

    def side_at_level(self, side: Estimate, nominal: float, level: float) -> tuple[float, float]:
        return WELCH_FORKS.side_at_level(side, nominal, level)

    def compare(self, base: Forks, head: Forks, confidence: float) -> Effect:
        x, y = fork_means(base), fork_means(head)
        if x.size < 2 or y.size < 2:
            return WELCH_FORKS.compare(base, head, confidence)
        if bool((x > 0).all()) and bool((y > 0).all()):
            effects = self.compare_rows(x[None, :], y[None, :], confidence)
            assert effects is not None
            return effects[0]
        # a value ≤ 0 has no log: the shift of the values themselves, relative to |mean(base)|
        scale = abs(float(np.mean(x)))
        r = _rows(x[None, :], y[None, :])
        if scale == 0.0 or not math.isfinite(scale):
            return Effect(math.nan, math.nan, math.nan, float(r.p_value[0]), math.nan)
        support = Support(1.0 + r.sorted[0] / scale, (x.size, y.size))
        return _effect(support, float(1.0 + r.shift[0] / scale), float(r.p_value[0]), confidence)

    def at_level(self, effect: Effect, nominal: float, confidence: float) -> Effect:
        s = effect.support
        if s is None or math.isclose(confidence, nominal):
            return effect
        lo, hi = s.interval(trimmed(1.0 - confidence, *s.sizes))
        return Effect(effect.ratio, lo, hi, effect.p_value, effect.df, s)

    def compare_rows(
        self, base: np.ndarray, head: np.ndarray, confidence: float
    ) -> list[Effect] | None:
        x, y = np.log(base), np.log(head)
        r = _rows(x, y)
        sizes = (x.shape[-1], y.shape[-1])
        with np.errstate(over="ignore"):
            ratios = np.exp(r.sorted)
            shifts = np.exp(r.shift)
        unbounded = (0.0, math.inf)
        return [
            _effect(Support(ratios[i], sizes, unbounded), float(s), float(p), confidence)
            for i, (s, p) in enumerate(zip(shifts, r.p_value, strict=True))
        ]

    def look(
        self,
        log_base: list[np.ndarray],
        log_head: list[np.ndarray],
        groups: list[str] | None,
        schedule: Schedule,
    ) -> RankLook:
        return rank_look(log_base, log_head)

    def levels(self, schedule: Schedule) -> Levels:
        return BONFERRONI

    def mde_log(self, fork_var: float, forks: int, alpha: float) -> float:
        if forks < 2 or smallest_p(forks, forks) > alpha:
            return math.inf
        return WELCH_FORKS.mde_log(fork_var / EFFICIENCY, forks, alpha)

    def forks_needed(self, fork_var: float, threshold: float, alpha: float) -> int:
        need = WELCH_FORKS.forks_needed(fork_var / EFFICIENCY, threshold, alpha)
        return max(need, forks_for(alpha))

    def fork_var_for(self, mde_log: float, forks: int, alpha: float) -> float:
        return WELCH_FORKS.fork_var_for(mde_log, forks, alpha) * EFFICIENCY

    def notes(self, base_forks: int, head_forks: int, is_bytes: bool, alpha: float) -> list[Note]:
        out = [method_notes.bytes_vary()] if is_bytes else []
        p = smallest_p(base_forks, head_forks)
        if p > alpha:
            need = forks_for(alpha)
            out.append(
                Note(
                    Kind.FEW_FORKS,
                    f"too few forks for a rank test: {base_forks} base, {head_forks} head can "
                    f"give no p-value below {p:.2g}, so no interval at {(1 - alpha) * 100:g}% "
                    f"(it needs {need} forks per side)",
                )
            )
        elif min(base_forks, head_forks) < ADVISED_FORKS:
            out.append(method_notes.few_forks(base_forks, head_forks, ADVISED_FORKS))
        return out

    def tag(self, fewest_forks: int) -> str | None:
        return WELCH_FORKS.tag(fewest_forks)

    def words(self) -> str:
        return "the Hodges–Lehmann shift of log fork means with its exact Mann–Whitney interval"

    def interval_words(self) -> str:
        return (
            "the Hodges–Lehmann shift of the logarithms of the fork means (the median of every "
            "base–head difference) with the exact Mann–Whitney interval, which holds for any "
            "law of the fork means"
        )

    def look_words(self, alpha: float, schedule: Schedule) -> str:
        k = schedule.max_looks
        return (
            f"({self.words()}) at a nominal level constant across looks (Bonferroni across "
            f"the {k} looks; the levels the intervals were decided at are named with them), so "
            f"that the chance of any false improved/regressed over all looks stays ≤ "
            f"{alpha * 100:g}% whatever the law of the fork means; nothing was borrowed across "
            f"comparisons, and no comparison could decide with fewer than "
            f"{forks_for(alpha / k)} forks a side."
        )

    def caveat(self, count: int) -> str:
        return ""


FORK_RANKS = RankForks()


def _effect(support: Support, ratio: float, p: float, confidence: float) -> Effect:
    lo, hi = support.interval(trimmed(1.0 - confidence, *support.sizes))
    return Effect(ratio, lo, hi, p, math.nan, support)


@dataclass(frozen=True)
class _Shape:
    """The keys of a look with ``sizes`` forks a side: where they sit (flat) and their sorted
    log differences (keys × m·n)."""

    where: np.ndarray
    sizes: tuple[int, int]
    sorted: np.ndarray


@dataclass(frozen=True)
class RankLook:
    """One look by ranks for many keys: the Hodges–Lehmann log shift, the exact p-value, the
    sorted differences of each shape of keys for their interval at any level, and Welch's se
    and df of the same log fork means for the futility rule's prediction."""

    diff: np.ndarray
    se: np.ndarray
    df: np.ndarray
    p_value: np.ndarray
    tested: np.ndarray
    shapes: tuple[_Shape, ...]
    borrowed: np.ndarray | None = None

    @property
    def levels(self) -> Levels:
        return BONFERRONI

    def _trims(self, level: float | np.ndarray) -> list[np.ndarray]:
        """Per shape of keys, how many differences each key's interval at ``level`` trims."""
        lvl = np.broadcast_to(np.asarray(level, dtype=float), self.diff.shape).reshape(-1)
        return [
            np.searchsorted(null_cdf(*g.sizes), lvl[g.where] / 2.0 * (1.0 + 1e-12), "right")
            for g in self.shapes
        ]

    def interval(self, level: float | np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        lo, hi = np.full(self.diff.size, -np.inf), np.full(self.diff.size, np.inf)
        for g, k in zip(self.shapes, self._trims(level), strict=True):
            reach = k > 0
            rows = np.flatnonzero(reach)
            lo[g.where[reach]] = g.sorted[rows, k[reach] - 1]
            hi[g.where[reach]] = g.sorted[rows, g.sorted.shape[1] - k[reach]]
        return lo.reshape(self.diff.shape), hi.reshape(self.diff.shape)

    def detectable(self, per_look: np.ndarray, power: float = 0.8) -> np.ndarray:
        """Welch's detectable effect of the same forks with π/3 of their information, and
        infinite where so few forks cannot reach the level."""
        reach = np.zeros(self.diff.size, dtype=bool)
        for g, k in zip(self.shapes, self._trims(per_look), strict=True):
            reach[g.where] = k > 0
        df = np.where(self.tested, self.df, 1.0)
        q = special.stdtrit(df, 1.0 - np.asarray(per_look) / 2.0) + special.stdtrit(df, power)
        se = np.where(self.tested, self.se, np.inf) / math.sqrt(EFFICIENCY)
        out = np.where(se > 0, q * se, 0.0)
        return np.asarray(np.where(reach.reshape(self.diff.shape), out, np.inf))

    def padded(self, count: int) -> RankLook:
        def more(a: np.ndarray) -> np.ndarray:
            return np.concatenate([a, np.full(count, np.nan)])

        return RankLook(
            more(self.diff), more(self.se), more(self.df), more(self.p_value),
            np.concatenate([self.tested, np.zeros(count, dtype=bool)]), self.shapes,
        )  # fmt: skip

    def reshape(self, shape: tuple[int, ...]) -> RankLook:
        """The same keys as families in rows (the flat order kept)."""
        return RankLook(
            self.diff.reshape(shape), self.se.reshape(shape), self.df.reshape(shape),
            self.p_value.reshape(shape), self.tested.reshape(shape), self.shapes,
        )  # fmt: skip


def rank_look(log_base: list[np.ndarray], log_head: list[np.ndarray]) -> RankLook:
    """Every key's look by ranks from its sides' log fork means (two forks a side to be tested),
    the keys of one shape computed together."""
    n = len(log_base)
    diff, p = np.full(n, np.nan), np.ones(n)
    se, df = np.full(n, np.nan), np.full(n, np.nan)
    sizes = [(len(x), len(y)) for x, y in zip(log_base, log_head, strict=True)]
    tested = np.array([min(s) >= 2 for s in sizes], dtype=bool)
    by_shape: dict[tuple[int, int], list[int]] = {}
    for i, s in enumerate(sizes):
        if tested[i]:
            by_shape.setdefault(s, []).append(i)
    shapes = []
    for size, idx in by_shape.items():
        x = np.array([log_base[i] for i in idx])
        y = np.array([log_head[i] for i in idx])
        r = _rows(x, y)
        where = np.array(idx)
        diff[where], p[where] = r.shift, r.p_value
        w, _ = welch_where_tested(SideMoments.of_rows(x), SideMoments.of_rows(y))
        se[where], df[where] = w.se, w.df
        shapes.append(_Shape(where, size, r.sorted))
    return RankLook(diff, se, df, p, tested, tuple(shapes))
