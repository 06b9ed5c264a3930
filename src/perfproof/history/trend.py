"""A key's series drawn two ways: a full trend plot over dates, and a sparkline for the index.

The trend is matplotlib SVG with the runs placed at the time they ran (the ``run_time`` the
history stores), so a quiet month and a busy week look like what they were; tick labels are
dates (with hours when the series spans less than a few days). Each run is its own marker
group with a ``<title>`` (commit, time, estimate and interval: the browser's tooltip) and,
with a commit URL template, a link to the commit. A change point is a dashed line halfway
between the last run before the shift and the first after it.

The sparkline is a few hundred bytes of hand-written SVG numbers (no text at all), evenly
spaced by run, so a page of hundreds of keys stays light; its change points are ticks.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from markupsafe import escape

from perfproof.history.analysis import Change, PointSummary, summarise
from perfproof.history.links import CommitLinks
from perfproof.history.store import Point, Series
from perfproof.units import Scale, choose_scale, scaled

if TYPE_CHECKING:
    from matplotlib.axes import Axes

SPARK_WIDTH = 120.0
SPARK_HEIGHT = 24.0
_PAD = 2.0
_MINUTE = 1.0 / 1440.0
_DAYS_FOR_DATES_ONLY = 3.0
"""A series spanning at least this many days gets date ticks; a shorter one dates and hours."""


def run_moment(point: Point) -> datetime:
    """When the run ran, as an aware UTC time (the store keeps ``2026-01-02T03:04:05Z``)."""
    moment = datetime.fromisoformat(point.time)
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def _tooltip(point: Point, summary: PointSummary, scale: Scale, links: CommitLinks) -> str:
    ref = links.ref(point.commit)
    parts = [f"commit {ref.short}" if ref else f"run {point.run_id or point.run_uid}"]
    parts.append(point.time)
    if point.branch:
        parts.append(point.branch)
    estimate = scaled(summary.mean, scale)
    if summary.lo is not None and summary.hi is not None:
        estimate += f" [{scaled(summary.lo, scale)}, {scaled(summary.hi, scale)}]"
    parts.append(estimate)
    return " · ".join(parts)


def _date_axis(ax: Axes, xs: Sequence[float]) -> None:
    """Ticks that read as dates on an axis of matplotlib day numbers."""
    import matplotlib.dates as mdates

    first, last = min(xs), max(xs)
    if last - first < _MINUTE:  # one run, or runs in the same minute: a day around them
        first, last = first - 0.5, last + 0.5
        ax.set_xlim(first, last)
    days = last - first
    pattern = "%Y-%m-%d" if days >= _DAYS_FOR_DATES_ONLY else "%Y-%m-%d %H:%M"
    locator = mdates.AutoDateLocator(minticks=3, maxticks=7, tz=UTC)
    ax.xaxis.set_major_locator(locator)
    ax.xaxis.set_major_formatter(mdates.DateFormatter(pattern, tz=UTC))
    for label in ax.get_xticklabels():
        label.set_rotation(25)
        label.set_horizontalalignment("right")
        label.set_fontsize(7)


def trend_svg(
    s: Series,
    changes: Sequence[Change],
    confidence: float,
    salt: str,
    links: CommitLinks | None = None,
    scale: Scale | None = None,
) -> str:
    """One key's estimates over dates with interval bars; change points as dashed lines, in
    ``scale`` (the unit the page shows the key in; by default the one its last run reads in)."""
    import matplotlib
    import matplotlib.dates as mdates

    from perfproof.report.plots import BASE_COLOR, HEAD_COLOR, RC, to_svg

    links = links or CommitLinks()
    with matplotlib.rc_context(RC):
        from matplotlib.figure import Figure

        fig = Figure(figsize=(8, 2.8), layout="constrained")
        ax = fig.add_subplot()
        xs = [float(mdates.date2num(run_moment(p))) for p in s.points]
        summaries = [summarise(p, confidence) for p in s.points]
        if scale is None:
            scale = choose_scale(s.unit, summaries[-1].mean if summaries else None)
        f = scale.factor
        ys = [x.mean / f for x in summaries]
        lows = [(x.mean - x.lo) / f if x.lo is not None else 0.0 for x in summaries]
        highs = [(x.hi - x.mean) / f if x.hi is not None else 0.0 for x in summaries]
        ax.errorbar(xs, ys, yerr=[lows, highs], fmt="-", lw=1, color=BASE_COLOR, capsize=2)
        titles = {}
        for i, (point, summary) in enumerate(zip(s.points, summaries, strict=True)):
            (marker,) = ax.plot([xs[i]], [summary.mean / f], "o", ms=3.5, color=BASE_COLOR)
            marker.set_gid(f"run{i}")
            ref = links.ref(point.commit)
            if ref is not None and ref.href is not None:
                marker.set_url(ref.href)
            titles[f"run{i}"] = _tooltip(point, summary, scale, links)
        top = max((y for y in ys if math.isfinite(y)), default=0.0)
        for c in changes:
            at = (xs[c.index - 1] + xs[c.index]) / 2
            ax.axvline(at, color=HEAD_COLOR, ls="--", lw=1.2)
            ax.annotate(
                f"{c.kind} {c.delta_pct:+.1f}%", (at, top), color=HEAD_COLOR, fontsize=8, ha="left"
            )
        _date_axis(ax, xs)
        ax.set_ylabel(scale.unit)
        svg = to_svg(fig, salt)
    return _with_titles(svg, salt, titles)


def _with_titles(svg: str, salt: str, titles: dict[str, str]) -> str:
    """Give each run's marker group its tooltip: SVG shows a ``<title>`` child on hover."""
    for gid, text in titles.items():
        opening = f'<g id="{salt}-{gid}">'
        svg = svg.replace(opening, f"{opening}<title>{escape(text)}</title>", 1)
    return svg


@dataclass(frozen=True)
class Sparkline:
    """A series as SVG coordinates in a ``SPARK_WIDTH`` × ``SPARK_HEIGHT`` box."""

    points: str  # "x,y x,y ..." for a polyline
    last_x: float
    last_y: float
    marks: tuple[float, ...]  # x of each change point
    width: float = SPARK_WIDTH
    height: float = SPARK_HEIGHT


def sparkline(values: Sequence[float], change_indices: Sequence[int]) -> Sparkline:
    """Values evenly spaced by run, scaled to the box; a flat series sits in the middle."""
    finite = [v for v in values if math.isfinite(v)]
    lo, hi = (min(finite), max(finite)) if finite else (0.0, 0.0)
    n = len(values)
    inner_w, inner_h = SPARK_WIDTH - 2 * _PAD, SPARK_HEIGHT - 2 * _PAD

    def x_of(i: float) -> float:
        return _PAD + (inner_w * i / (n - 1) if n > 1 else inner_w / 2)

    def y_of(v: float) -> float:
        if not math.isfinite(v) or hi == lo:
            return SPARK_HEIGHT / 2
        return _PAD + inner_h * (hi - v) / (hi - lo)

    coords = [(x_of(i), y_of(v)) for i, v in enumerate(values)]
    text = " ".join(f"{x:.1f},{y:.1f}" for x, y in coords)
    last_x, last_y = coords[-1] if coords else (x_of(0), SPARK_HEIGHT / 2)
    marks = tuple(round(x_of(i - 0.5), 1) for i in change_indices)
    return Sparkline(text, round(last_x, 1), round(last_y, 1), marks)
