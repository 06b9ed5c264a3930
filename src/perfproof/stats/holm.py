"""Holm's step-down adjustment for a family of p-values.

A report compares many (benchmark, params, metric) keys at once; without an adjustment a 1%
test would flag about one key in a hundred as changed when nothing changed. Holm controls
the family-wise error rate like Bonferroni but is uniformly more powerful, and it needs no
assumption about how the tests depend on each other.
"""

from __future__ import annotations

import numpy as np


def holm(p_values: np.ndarray) -> np.ndarray:
    """Holm-adjusted p-values, in the input order, monotone and capped at 1."""
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
