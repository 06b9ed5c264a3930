"""Many comparisons in one report: which are declared changed, and at which interval level.

A report judges a family of m keys at once. Judged one by one at level α, a suite where
nothing changed would show about α·m false alarms. Two procedures keep the A/A guarantee
(when nothing changed, the probability of any false ``improved``/``regressed`` is ≤ α):

``bh`` (the default)
    Benjamini–Hochberg at level α selects the R keys with p_(i) ≤ i·α/m for the largest such
    i. When nothing changed its false-discovery rate equals the probability of any false
    alarm, so the A/A guarantee holds; when many keys really changed, R is large and each is
    tested nearly at α, so a suite full of real effects is not starved (Holm tests the
    smallest p-value at α/m whatever else is true). The selected keys get intervals at level
    1 − R·α/m, the false-coverage-rate adjustment of Benjamini & Yekutieli (2005): the
    expected share of selected intervals that miss their true ratio stays ≤ α. Every
    selected p-value is ≤ R·α/m, so each selected interval excludes 1; every other p-value
    is > max(R, 1)·α/m, so their intervals at that level contain 1.
``holm``
    Holm's step-down procedure controls the family-wise error rate under any dependence. The
    i-th smallest p-value is tested at α/(m − i + 1); a rejected key's interval is shown at
    the level it was tested at (it excludes 1), the others at the level of the first key not
    rejected, α/(m − R) (they contain 1).
``none``
    Every key at α: no protection against the multiplicity, for one key or for comparison
    with tools that do not adjust.

So whatever the procedure, the interval shown for a key is the interval its verdict was
decided on. Everything here is a pure function of numpy arrays, so the sequential design can
apply the same procedure at every look.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.stats import false_discovery_control

from perfproof import defaults
from perfproof.model.enums import Family

METHODS = tuple(f.value for f in Family)

DESCRIPTIONS: dict[str, str] = {
    Family.BH: "Benjamini–Hochberg",
    Family.HOLM: "Holm",
    Family.NONE: "no adjustment",
}
"""Each procedure's name in a sentence (keyed by the member, so a document's word finds it)."""


@dataclass(frozen=True)
class FamilyDecision:
    """Per key, in input order: selected (declared different from 1), the adjusted p-value,
    and the α of the interval shown for that key (its level is 1 − ``interval_alpha``)."""

    method: str
    alpha: float
    selected: np.ndarray
    adjusted: np.ndarray
    interval_alpha: np.ndarray

    @property
    def size(self) -> int:
        return int(self.selected.size)

    @property
    def count(self) -> int:
        """R, the number of selected keys."""
        return int(self.selected.sum())


def holm(p_values: np.ndarray) -> np.ndarray:
    """Holm-adjusted p-values, in the input order, monotone and capped at 1.

    Written here because SciPy has Benjamini–Hochberg and –Yekutieli
    (``scipy.stats.false_discovery_control``, used for ``bh``) but no Holm, and statsmodels,
    which has it, would be a large dependency for six lines."""
    p = np.asarray(p_values, dtype=float)
    m = p.size
    if m == 0:
        return p.copy()
    order = np.argsort(p, kind="stable")
    scaled = p[order] * (m - np.arange(m))
    adjusted_sorted = np.minimum(np.maximum.accumulate(scaled), 1.0)
    out = np.empty(m, dtype=float)
    out[order] = adjusted_sorted
    return out


def decide(p_values: np.ndarray, alpha: float, method: str = defaults.FAMILY) -> FamilyDecision:
    """Apply ``method`` to one family of two-sided p-values at level ``alpha``.

    NaN p-values (a key with no test) are never selected and do not count in m.
    """
    if method not in METHODS:
        raise ValueError(f"unknown family procedure {method!r} (expected one of {METHODS})")
    p = np.asarray(p_values, dtype=float)
    tested = ~np.isnan(p)
    adjusted = np.full(p.shape, np.nan)
    selected = np.zeros(p.shape, dtype=bool)
    interval_alpha = np.full(p.shape, float(alpha))
    q = p[tested]
    m = q.size
    if m and method == "bh":
        adj = false_discovery_control(q, method="bh")
        sel = adj <= alpha
        r = int(sel.sum())
        adjusted[tested] = adj
        selected[tested] = sel
        interval_alpha[tested] = max(r, 1) * alpha / m
    elif m and method == "holm":
        adj = holm(q)
        sel = adj <= alpha
        r = int(sel.sum())
        levels = np.full(m, alpha / (m - r) if r < m else alpha)
        order = np.argsort(q, kind="stable")
        ranks = np.empty(m, dtype=int)
        ranks[order] = np.arange(m)
        levels[sel] = alpha / (m - ranks[sel])
        adjusted[tested] = adj
        selected[tested] = sel
        interval_alpha[tested] = levels
    elif m:
        adjusted[tested] = q
        selected[tested] = q <= alpha
    return FamilyDecision(method, float(alpha), selected, adjusted, interval_alpha)


def decide_rows(
    p_values: np.ndarray, alpha: float, method: str = defaults.FAMILY
) -> FamilyDecision:
    """:func:`decide` for many families at once: one family per row of a (families × m) array
    without NaN (what a simulation or a sequential look over complete rows needs)."""
    p = np.asarray(p_values, dtype=float)
    if p.ndim != 2:
        raise ValueError("expected a (families × keys) array")
    n, m = p.shape
    if method not in METHODS:
        raise ValueError(f"unknown family procedure {method!r} (expected one of {METHODS})")
    if method == "none" or m == 0:
        return FamilyDecision(method, alpha, p <= alpha, p.copy(), np.full(p.shape, alpha))
    order = np.argsort(p, axis=1, kind="stable")
    sorted_p = np.take_along_axis(p, order, axis=1)
    ranks = np.empty_like(order)
    np.put_along_axis(ranks, order, np.arange(m)[None, :].repeat(n, axis=0), axis=1)
    if method == "bh":
        adjusted = false_discovery_control(p, axis=1, method="bh")
    else:
        scaled = sorted_p * (m - np.arange(m))
        adj_sorted = np.minimum(np.maximum.accumulate(scaled, axis=1), 1.0)
        adjusted = np.take_along_axis(adj_sorted, ranks, axis=1)
    selected = adjusted <= alpha
    r = selected.sum(axis=1, keepdims=True)
    if method == "bh":
        levels = np.broadcast_to(np.maximum(r, 1) * alpha / m, p.shape).copy()
    else:
        rest = np.where(r < m, alpha / np.maximum(m - r, 1), alpha)
        levels = np.where(selected, alpha / (m - ranks), rest)
    return FamilyDecision(method, float(alpha), selected, adjusted, levels)


def describe(method: str, alpha: float, m: int, r: int) -> str:
    """What was done, in one sentence for a report's methodology: counts match the table."""
    keys = f"{m} statistical comparison{'s' if m != 1 else ''}"
    pct = f"{alpha * 100:g}%"
    if method == "none" or m == 0:
        return f"no adjustment across the {keys}: each interval is at {100 - alpha * 100:g}%"
    if method == "bh" and r == 0:
        return (
            f"Benjamini–Hochberg at {pct} across the {keys} selected none, so every interval is "
            f"shown at {_level(alpha / m)} (1 − α/m)"
        )
    if method == "bh":
        level = r * alpha / m
        return (
            f"Benjamini–Hochberg at {pct} across the {keys} selected {r}; their intervals are "
            f"false-coverage-adjusted (Benjamini–Yekutieli) to {_level(level)}, and the other "
            f"intervals are shown at {_level(level)} too"
        )
    return (
        f"Holm at {pct} across the {keys} rejected {r}; each interval is shown at the level "
        "its key was tested at (rejected keys at 1 − α/(m − i + 1), the rest at "
        f"{_level(alpha / (m - r)) if r < m else _level(alpha)})"
    )


def _level(a: float) -> str:
    return f"{(1 - a) * 100:.4g}%"
