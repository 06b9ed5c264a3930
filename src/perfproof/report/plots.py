"""The HTML report's forest plot and bytes/op bars as inline SVG strings (matplotlib, no
pyplot, no files); the per-fork figure of each key is :mod:`perfproof.report.forkplot`.

Text stays text (``svg.fonttype = none``) so the figures are small, searchable and crisp;
nothing refers to an outside resource, so the report opens offline. Each figure gets its own
hash salt so the ids of clip paths never collide when several SVGs share one HTML page, and no
date is written, so the same run always renders the same bytes.
"""

from __future__ import annotations

import io
import math
import re
import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import matplotlib
import numpy as np
from matplotlib.figure import Figure

if TYPE_CHECKING:
    from matplotlib.typing import RcKeyType

from perfproof.model.bounds import RatioBounds, bound_exp, log_bound
from perfproof.report.svgtext import compact
from perfproof.units import bytes_value

BASE_COLOR = "#3b6ea5"
HEAD_COLOR = "#d9822b"
BAND_COLOR = "#dddddd"
FAST_BAND = "#dcefd8"
SLOW_BAND = "#f6e0d6"
INK = "#222222"

RC: dict[RcKeyType, Any] = {
    "svg.fonttype": "none",
    "font.family": "sans-serif",
    "font.size": 9,
    "axes.edgecolor": "#888888",
    "axes.labelcolor": INK,
    "xtick.color": INK,
    "ytick.color": INK,
    "axes.spines.top": False,
    "axes.spines.right": False,
}


RATIO_TICKS = (
    1.0,
    0.5,
    2.0,
    0.1,
    10.0,
    0.8,
    1.25,
    0.9,
    1.1,
    0.95,
    1.05,
    0.2,
    5.0,
    0.99,
    1.01,
    0.01,
    100.0,
)
"""Ratio axis ticks in order of preference: readable as "20% faster" or "twice as slow"."""


def ratio_ticks(lo: float, hi: float, min_gap: float = 0.08) -> list[float]:
    """Preferred ticks inside [lo, hi], none closer than ``min_gap`` of the log span."""
    span = log_bound(hi) - log_bound(lo)
    chosen: list[float] = []
    for t in RATIO_TICKS:
        if lo <= t <= hi and all(abs(log_bound(t / c)) >= min_gap * span for c in chosen):
            chosen.append(t)
    return sorted(chosen)


@dataclass(frozen=True)
class ForestRow:
    """One comparison in the forest plot: ratio head/base and its interval, which may be
    unbounded on either side."""

    label: str
    ratio: float
    bounds: RatioBounds
    verdict: str
    bytes: bool = False
    """A bytes/op comparison (drawn with a square), not a time or throughput one."""


AXIS_REACH = 1000.0
"""The forest's ratio axis never reaches past ×1000 or ÷1000: an interval wider than that
(two forks a side, a strict per-look level) would squash every other row into a dot, so its
ends are drawn as arrows at the axis limit instead."""


def to_svg(fig: Figure, salt: str, tight: bool = True) -> str:
    """Render a figure to an SVG element fit for inlining into HTML; ``tight`` trims it to what
    is drawn (a second drawing pass: a figure laid out by :func:`_fit` needs none)."""
    buf = io.StringIO()
    with matplotlib.rc_context({"svg.hashsalt": salt}), warnings.catch_warnings():
        # A figure with many rows (a suite with six @Param columns) can leave constrained
        # layout no room; the SVG is still right, and a user must not see matplotlib's advice.
        warnings.filterwarnings("ignore", message="constrained_layout not applied")
        # An @Param value in a script the font lacks (CJK, emoji) draws as a box in the
        # plot; the tables beside it carry the exact text, so the warning is noise.
        warnings.filterwarnings("ignore", message=r"Glyph \d+ .* missing from font")
        fig.savefig(
            buf, format="svg", metadata={"Date": None}, bbox_inches="tight" if tight else None
        )
    text = buf.getvalue()
    text = re.sub(r"<\?xml[^>]*\?>\s*", "", text)
    text = re.sub(r"<!DOCTYPE[^>]*>\s*", "", text)
    text = re.sub(r"<metadata>.*?</metadata>\s*", "", text, flags=re.S)
    text = re.sub(r'<svg ([^>]*?)width="[^"]*" height="[^"]*"', r"<svg \1", text, count=1)
    text = _prefix_ids(compact(text), salt)
    return text.replace("<svg ", f'<svg role="img" aria-label="{salt}" class="plot" ', 1).strip()


def _prefix_ids(svg: str, prefix: str) -> str:
    """Make every id (and reference to it) unique to this figure: one page holds many SVGs."""
    ids = set(re.findall(r'\bid="([^"]+)"', svg))
    if not ids:
        return svg

    def fix(m: re.Match[str]) -> str:
        return f"{m.group(1)}{prefix}-{m.group(2)}" if m.group(2) in ids else m.group(0)

    svg = re.sub(r'(\bid=")([^"]+)(?=")', fix, svg)
    return re.sub(r"(#)([A-Za-z_][\w.-]*)", fix, svg)


CHAR_WIDTH = 0.6
"""A generous average glyph width of a sans-serif font, as a share of its size: a browser draws
the labels in its own font anyway, so measuring them in matplotlib's would be no truer."""

PLOT_WIDTH = 300.0
"""The least width in points the data of a row figure keep beside its labels."""


def _text_width(texts: Sequence[str], size: float) -> float:
    return max((len(t) for t in texts), default=0) * size * CHAR_WIDTH


def _fit(
    height: float, left: float, right: float, top: float = 22.0, bottom: float = 34.0
) -> Figure:
    """A figure of rows whose margins (in points) are set from its labels' lengths rather than
    found by a layout engine: constrained layout and a tight bounding box each draw the whole
    figure once more, most of a forest plot's cost. It is 7.5 inches wide, wider when long
    labels would leave the data less than :data:`PLOT_WIDTH`."""
    width = max(7.5 * 72, left + PLOT_WIDTH + right)
    with matplotlib.rc_context(RC):
        fig = Figure(figsize=(width / 72, height))
    points = height * 72
    fig.subplots_adjust(
        left=left / width, right=1 - right / width, top=1 - top / points, bottom=bottom / points
    )
    return fig


@dataclass(frozen=True)
class ForestPlot:
    """The forest plot and the labels of the rows whose interval reaches past its axis (drawn
    as arrows at the limit), for the caption to say so."""

    svg: str
    off_chart: tuple[str, ...]


def forest_limits(rows: Sequence[ForestRow], threshold: float) -> tuple[float, float]:
    """The ratio axis: every point estimate and bounded end that lies within ×/÷
    :data:`AXIS_REACH`, the threshold band, padded by 8% of the log span on each side."""
    values = [1.0 - threshold, 1.0 + threshold]
    for r in rows:
        values += [v for v in (r.ratio, *r.bounds) if 0.0 < v < math.inf]
    reach = [min(max(v, 1.0 / AXIS_REACH), AXIS_REACH) for v in values]
    lo, hi = log_bound(min(reach)), log_bound(max(reach))
    pad = max(hi - lo, 0.05) * 0.08
    return bound_exp(lo - pad), bound_exp(hi + pad)


def forest(rows: Sequence[ForestRow], threshold: float, salt: str = "forest") -> ForestPlot:
    """Ratios with intervals on a log axis, one row per comparison, threshold band shaded; an
    interval end off the axis (unbounded, or past :data:`AXIS_REACH`) is an arrow at the limit."""
    with matplotlib.rc_context(RC):
        fig = _fit(
            0.9 + 0.32 * max(1, len(rows)),
            left=_text_width([r.label for r in rows], 9) + 12,
            right=_text_width([r.verdict for r in rows], 8) + 14,
        )
        ax = fig.add_subplot()
        left, right = forest_limits(rows, threshold)
        ax.axvspan(
            1 - threshold,
            1 + threshold,
            color=BAND_COLOR,
            zorder=0,
            label=f"±{threshold * 100:g}% threshold",
        )
        ax.axvline(1.0, color="#666666", lw=0.8, zorder=1)
        ys = np.arange(len(rows))[::-1]
        off_chart: list[str] = []
        arrows = 0
        for y, r in zip(ys, rows, strict=True):
            point_marker = "s" if r.bytes else "o"
            if math.isnan(r.ratio):
                pass
            elif not 0.0 < r.ratio < math.inf:
                # from nothing to something (0 → 24 B/op) or the reverse: no ratio to place
                arrows += 1
                x, marker = (right, ">") if r.ratio > 0 else (left, "<")
                (arrow,) = ax.plot([x], [y], marker, color=INK, ms=5, zorder=3, clip_on=False)
                arrow.set_gid(f"off-chart-{arrows}")
                off_chart.append(r.label)
            else:
                shown = r.bounds.on_axis(left, right)
                ax.plot([shown.lo, shown.hi], [y, y], color=INK, lw=1.4, zorder=2)
                for cut, x, marker in ((shown.cut_lo, left, "<"), (shown.cut_hi, right, ">")):
                    if cut:
                        arrows += 1
                        (arrow,) = ax.plot(
                            [x], [y], marker, color=INK, ms=5, zorder=3, clip_on=False
                        )
                        arrow.set_gid(f"off-chart-{arrows}")
                if shown.cut_lo or shown.cut_hi:
                    off_chart.append(r.label)
                point = RatioBounds(r.ratio, r.ratio).on_axis(left, right)
                ax.plot([point.lo], [y], point_marker, color=INK, ms=4, zorder=3, clip_on=False)
            ax.annotate(
                r.verdict,
                (1.0, y),
                xycoords=("axes fraction", "data"),
                xytext=(8, 0),
                textcoords="offset points",
                va="center",
                fontsize=8,
            )
        ax.set_xscale("log")
        ax.set_xlim(left, right)
        ticks = ratio_ticks(left, right)
        ax.xaxis.set_major_locator(matplotlib.ticker.FixedLocator(ticks))
        ax.xaxis.set_major_formatter(matplotlib.ticker.FuncFormatter(lambda v, _: f"{v:g}"))
        ax.xaxis.set_minor_locator(matplotlib.ticker.NullLocator())
        ax.set_yticks(ys, [r.label for r in rows])
        ax.set_ylim(-0.7, len(rows) - 0.3)
        ax.set_xlabel("ratio feature / baseline (log scale); interval per comparison")
        ax.legend(loc="lower left", bbox_to_anchor=(0, 1.0), frameon=False, fontsize=8)
        return ForestPlot(to_svg(fig, salt, tight=False), tuple(off_chart))


def bytes_bars(
    labels: Sequence[str], base: Sequence[float], head: Sequence[float], salt: str = "bytes"
) -> str:
    """Bytes per operation, baseline and feature side by side for each comparison."""
    with matplotlib.rc_context(RC):
        fig = _fit(0.9 + 0.34 * max(1, len(labels)), left=_text_width(labels, 9) + 12, right=12)
        ax = fig.add_subplot()
        ys = np.arange(len(labels))[::-1]
        ax.barh(ys + 0.18, base, height=0.34, color=BASE_COLOR, label="baseline")
        ax.barh(ys - 0.18, head, height=0.34, color=HEAD_COLOR, label="feature")
        for y, b, h in zip(ys, base, head, strict=True):
            for off, v in ((0.18, b), (-0.18, h)):
                ax.annotate(
                    bytes_value(v),
                    (v, y + off),
                    xytext=(3, 0),
                    textcoords="offset points",
                    va="center",
                    fontsize=7,
                )
        ax.set_yticks(ys, labels)
        positive = [v for v in (*base, *head) if v >= 0.5]
        top = max([*positive, 1.0])
        if positive and top / min(positive) > 100:
            ax.set_xscale("log")
            ax.set_xlim(min(positive) / 2, top * 3)
            ax.set_xlabel("B/op (log scale)")
        else:
            ax.set_xlim(0, top * 1.15)
            ax.set_xlabel("B/op")
        ax.legend(frameon=False, fontsize=8, loc="lower left", bbox_to_anchor=(0, 1.0), ncols=2)
        return to_svg(fig, salt, tight=False)
