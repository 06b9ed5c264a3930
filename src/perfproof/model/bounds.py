"""An interval of a ratio that may be unbounded on either side: one type from the statistics up.

With two forks a side and a strict per-look level, Welch's interval on log fork means can reach
thousands in log space: ``exp`` of such a bound is no float, and an untested key has no bound at
all. Both are answers, not errors ("the data cannot bound the ratio"), so every layer carries
them the same way: a ratio bound of ``0`` is unbounded below (log −∞), ``inf`` unbounded above
(log +∞), and ``nan`` unknown. The conversions that could raise or warn (``exp`` of a huge log,
``log`` of 0) live here, once; a consumer asks this type for logs, a percentage or the part of
the interval a chart can show, and never calls ``math.exp``/``math.log`` on a raw bound.

It is a :class:`~typing.NamedTuple`, so a bound pair still unpacks (``lo, hi = c.ratio_ci``)
and writes to JSON as a two-element list (``null`` for an unbounded or unknown side).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import NamedTuple

LARGEST_LOG = math.log(1.7976931348623157e308)
"""Past this a log bound has no float ratio: unbounded above."""

SMALLEST_LOG = math.log(5e-324)
"""Below this a log bound's ratio is 0 as a float: unbounded below."""


def bound_exp(log_value: float) -> float:
    """``exp`` of a log-scale estimate or bound, saturating: ``inf`` past the float range, ``0``
    below it, ``nan`` kept (never an ``OverflowError``)."""
    if math.isnan(log_value):
        return math.nan
    if log_value > LARGEST_LOG:
        return math.inf
    if log_value < SMALLEST_LOG:
        return 0.0
    return math.exp(log_value)


def log_bound(ratio: float) -> float:
    """``log`` of a ratio or ratio bound: ``-inf`` for 0 or below (no finite log, so as far
    left as a log axis goes), ``inf`` for ``inf``, ``nan`` kept (never a math domain error)."""
    if math.isnan(ratio):
        return math.nan
    if ratio <= 0.0:
        return -math.inf
    if math.isinf(ratio):
        return math.inf
    return math.log(ratio)


@dataclass(frozen=True)
class OnAxis:
    """The part of an interval a chart between two limits can draw, and which ends it cuts:
    a cut end is drawn as an arrow at the limit and said in the caption."""

    lo: float
    hi: float
    cut_lo: bool
    cut_hi: bool


class RatioBounds(NamedTuple):
    """A ratio's interval ``[lo, hi]`` on (0, ∞): 0 is unbounded below, ``inf`` unbounded
    above, ``nan`` unknown (a JSON ``null`` read back: unbounded on that side)."""

    lo: float
    hi: float

    @classmethod
    def of_logs(cls, log_lo: float, log_hi: float) -> RatioBounds:
        """The ratio interval of a log-space interval (a Welch interval on log fork means)."""
        return cls(bound_exp(log_lo), bound_exp(log_hi))

    @classmethod
    def unbounded(cls) -> RatioBounds:
        """No bound on either side: an untested key, or one whose look says nothing."""
        return cls(0.0, math.inf)

    @classmethod
    def read(cls, lo: float | None, hi: float | None) -> RatioBounds:
        """Bounds as a document holds them: ``null`` (``None`` or ``nan``) is unbounded."""
        low = 0.0 if lo is None or math.isnan(lo) else float(lo)
        high = math.inf if hi is None or math.isnan(hi) else float(hi)
        return cls(low, high)

    @property
    def bounded_below(self) -> bool:
        return math.isfinite(self.lo) and self.lo > 0.0

    @property
    def bounded_above(self) -> bool:
        return math.isfinite(self.hi) and self.hi > 0.0

    @property
    def bounded(self) -> bool:
        return self.bounded_below and self.bounded_above

    def logs(self) -> tuple[float, float]:
        """The interval in log space, ±inf where it is unbounded."""
        return log_bound(self.lo), log_bound(self.hi)

    def percent(self) -> tuple[float, float]:
        """The interval as changes in percent, ``(ratio − 1) × 100`` (−100 … +inf)."""
        return (self.lo - 1.0) * 100.0, (self.hi - 1.0) * 100.0

    def widened(self, centre: float, scale: float) -> RatioBounds:
        """The interval around ``centre`` with its log half-width times ``scale`` (a change of
        confidence level at the same degrees of freedom); an unbounded side stays unbounded."""
        mid = log_bound(centre)
        lo, hi = self.logs()
        return RatioBounds.of_logs(mid - (mid - lo) * scale, mid + (hi - mid) * scale)

    def on_axis(self, left: float, right: float) -> OnAxis:
        """The part of the interval a log axis from ``left`` to ``right`` (both > 0) shows."""
        lo = self.lo if not math.isnan(self.lo) else 0.0
        hi = self.hi if not math.isnan(self.hi) else math.inf
        return OnAxis(
            lo=min(max(lo, left), right),
            hi=max(min(hi, right), left),
            cut_lo=lo < left,
            cut_hi=hi > right,
        )


def null_is_nan(value: object) -> object:
    """A number a document left null is unknown: NaN once read (written back as null)."""
    return math.nan if value is None else value


def interval_of(value: object) -> object:
    """An interval a document holds as ``[low, high]`` (or null): a pair of numbers, an
    unknown end (or the whole) NaN."""
    if value is None:
        return (math.nan, math.nan)
    if isinstance(value, list | tuple):
        return tuple(null_is_nan(v) for v in value)
    return value


def bounds_of(value: object) -> object:
    """A ratio interval a document holds as ``[low, high]``: see :meth:`RatioBounds.read`."""
    if isinstance(value, list | tuple) and not isinstance(value, RatioBounds) and len(value) == 2:
        return RatioBounds.read(*value)
    return value
