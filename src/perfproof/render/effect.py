"""The change of one comparison as every table prints it: Δ% (or the ratio) with the interval
the verdict was decided on, or words where that interval is too wide to read.

The results tables, the gate's list of failures and the terminal table all print this one
cell, so a change reads the same in report.md, the PR comment, the job summary and the
terminal.
"""

from __future__ import annotations

from perfproof.model import Comparison, RatioBounds
from perfproof.units import delta_with_interval


def fork_counts(c: Comparison) -> tuple[int, int]:
    """The forks of each side (base, head): what a too-wide interval is put down to."""
    return c.base.forks, c.head.forks


def delta_text(c: Comparison) -> str:
    """``-12.3% [-14.1, -10.5]``, ``×19.3 [17.1, 21.5]``, ``×1.39 (interval too wide: 3 forks a
    side)``. The interval is read from the ratio's bounds, where a side a document left
    ``null`` is unbounded (never a missing interval, which would print a bare effect)."""
    bounds = RatioBounds.read(*c.ratio_ci)
    return delta_with_interval(c.delta_pct, bounds.percent(), fork_counts(c))
