"""A sequential look by Welch's t on log fork means: every key's statistics, as whole arrays.

Each look's Welch statistics borrow the fork spread of the other keys of the family where that
widens a key's variance (:mod:`perfproof.stats.moderation`): more degrees of freedom for the
same forks, never a narrower interval than a key's own forks give; the calibrated levels are
used unchanged (the moderated p-values lie between Welch's and the normal ones, whose levels
are looser), and the simulations of ``tests/stats`` check the guarantee with borrowing on.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy import special

from perfproof.stats import moderation
from perfproof.stats.sequential_levels import CALIBRATED, Levels
from perfproof.stats.welch import SideMoments, welch_where_tested


@dataclass(frozen=True)
class LookRows:
    """Welch on log fork means for many keys at one look: log ratio, its se and df, the
    nominal p-value, and whether each key had at least two forks per side (``tested``)."""

    diff: np.ndarray
    se: np.ndarray
    df: np.ndarray
    p_value: np.ndarray
    tested: np.ndarray
    borrowed: np.ndarray | None = None
    """Where a side's variance borrowed the suite's fork spread (:mod:`.moderation`)."""

    @property
    def levels(self) -> Levels:
        """Welch's per-look levels: the shipped Monte Carlo table."""
        return CALIBRATED

    def interval(self, level: float | np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The repeated interval of the log ratio at nominal two-sided ``level`` (per key or one
        for all); unbounded where a key was not tested."""
        lvl = np.broadcast_to(np.asarray(level, dtype=float), self.diff.shape)
        q = special.stdtrit(np.where(self.tested, self.df, 1.0), 1.0 - lvl / 2.0)
        half = np.where(self.se > 0, q * self.se, 0.0)
        lo = np.where(self.tested, self.diff - half, -np.inf)
        hi = np.where(self.tested, self.diff + half, np.inf)
        return lo, hi

    def detectable(self, per_look: np.ndarray, power: float = 0.8) -> np.ndarray:
        """The smallest true |log ratio| whose repeated interval at this look's nominal level
        would exclude 1 with probability ``power``, given the forks used: what a key that stops
        without a verdict could have seen (infinite where a key was not tested)."""
        df = np.where(self.tested, self.df, 1.0)
        q = special.stdtrit(df, 1.0 - np.asarray(per_look) / 2.0) + special.stdtrit(df, power)
        se = np.where(self.tested, self.se, np.inf)
        return np.asarray(np.where(se > 0, q * se, 0.0))

    def padded(self, count: int) -> LookRows:
        """The look with ``count`` untested keys appended."""

        def more(a: np.ndarray) -> np.ndarray:
            return np.concatenate([a, np.full(count, np.nan)])

        return LookRows(
            diff=more(self.diff),
            se=more(self.se),
            df=more(self.df),
            p_value=more(self.p_value),
            tested=np.concatenate([self.tested, np.zeros(count, dtype=bool)]),
            borrowed=None
            if self.borrowed is None
            else np.concatenate([self.borrowed, np.zeros(count, dtype=bool)]),
        )


def look_rows(
    log_base: list[np.ndarray], log_head: list[np.ndarray], groups: list[str] | None = None
) -> LookRows:
    """Welch statistics for each key from its sides' log fork means (usable forks only).

    Each key's moments are taken on its own (keys differ in fork counts), then one Welch over
    all keys, each side's variance moderated with the other keys of its group (``groups``: a
    label per key, e.g. the metric; None: one group) where that widens it
    (:func:`moments_rows`); a key without two forks on a side is not tested (p = 1, no se or
    df).
    """
    n = len(log_base)
    nb, nh = (np.array([len(x) for x in side], dtype=int) for side in (log_base, log_head))
    mb, mh, vb, vh = (np.full(n, math.nan) for _ in range(4))
    for i, (x, y) in enumerate(zip(log_base, log_head, strict=True)):
        if len(x) and len(y):
            mb[i], mh[i] = np.mean(x), np.mean(y)
        if len(x) >= 2 and len(y) >= 2:
            vb[i], vh[i] = np.var(x, ddof=1), np.var(y, ddof=1)
    labels = np.array(groups if groups is not None else [""] * n, dtype=object)
    parts = {g: np.flatnonzero(labels == g) for g in dict.fromkeys(labels.tolist())}
    out = {f: np.full(n, math.nan) for f in ("diff", "se", "df", "p_value")}
    tested = np.zeros(n, dtype=bool)
    borrowed = np.zeros(n, dtype=bool)
    for idx in parts.values():
        r = moments_rows(
            SideMoments(nb[idx], mb[idx], vb[idx]), SideMoments(nh[idx], mh[idx], vh[idx])
        )
        for f in out:
            out[f][idx] = np.reshape(getattr(r, f), -1)
        tested[idx] = np.reshape(r.tested, -1)
        borrowed[idx] = np.reshape(r.borrowed, -1) if r.borrowed is not None else False
    return LookRows(tested=tested, borrowed=borrowed, **out)


def moments_rows(
    base: SideMoments[np.ndarray], head: SideMoments[np.ndarray], borrow: bool = True
) -> LookRows:
    """Welch on every key's (forks, mean, variance) of log fork means per side, families in
    rows and their keys in columns (1-D: one family); with ``borrow`` each side's variance
    takes the family's fork spread where that widens it (:func:`moderation.moderate`), the
    same rule in a run's looks and in the simulations that check them."""
    borrowed = np.zeros(np.shape(base.n), dtype=bool)
    if borrow:
        mb, mh = moderation.moderate(base.n, base.var), moderation.moderate(head.n, head.var)
        base, head = base._replace(var=mb.var, df=mb.df), head._replace(var=mh.var, df=mh.df)
        borrowed = mb.borrowed | mh.borrowed
    w, tested = welch_where_tested(base, head)
    return LookRows(
        diff=w.diff, se=w.se, df=w.df, p_value=w.p_value, tested=tested,
        borrowed=borrowed & tested,
    )  # fmt: skip


def detectable(rows: LookRows, per_look: np.ndarray, power: float = 0.8) -> np.ndarray:
    """:meth:`LookRows.detectable`, as a function of the rows."""
    return rows.detectable(per_look, power)
