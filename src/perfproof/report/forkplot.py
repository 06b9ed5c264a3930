"""The per-fork figure of one comparison, written as SVG directly: every fork's measurement
iterations (a strip plot, left) and each fork's iterations in order with its warm-up (right).

A report has one such figure per key. Drawn by matplotlib each cost 0.3–0.5 s of CPU and
40–110 KB (a ``<use>`` element with its own style for every point, a deep tree of named
groups): a 48-key report took 47 s and weighed 3 MB. Written here they cost about a
millisecond and a few KB each: a fork is one path for its line and one for its dots (dots are
zero-length round-capped strokes), and every style is a class the page declares once
(:data:`CSS`). Tick positions still come from matplotlib's locators, labels from the one
number formatter.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from html import escape

import numpy as np
from matplotlib.ticker import LogLocator, MaxNLocator

from perfproof.report.plots import BAND_COLOR, BASE_COLOR, FAST_BAND, HEAD_COLOR, INK, SLOW_BAND
from perfproof.units import significant

WIDTH, HEIGHT = 540.0, 190.0
"""The figure in points (7.5 × 2.6 inches, as the matplotlib figure it replaces)."""

TOP, BOTTOM = 20.0, 150.0
STRIP = (50.0, 205.0)
TIMELINE = (270.0, 532.0)

CSS = f"""
svg.fork text {{ font: 9px sans-serif; fill: {INK}; }}
svg.fork .small {{ font-size: 7px; }}
svg.fork .tiny {{ font-size: 6px; }}
svg.fork .mid {{ text-anchor: middle; }}
svg.fork .end {{ text-anchor: end; }}
svg.fork .axis {{ stroke: #888888; stroke-width: 0.8; fill: none; }}
svg.fork .tick {{ stroke: {INK}; stroke-width: 0.8; }}
svg.fork .base, svg.fork .head {{ fill: none; stroke-linecap: round; stroke-linejoin: round; }}
svg.fork .base {{ stroke: {BASE_COLOR}; }} svg.fork .head {{ stroke: {HEAD_COLOR}; }}
svg.fork .iter {{ stroke-width: 4; stroke-opacity: 0.45; }}
svg.fork .bar {{ stroke-width: 2; stroke-linecap: butt; }}
svg.fork .line {{ stroke-width: 0.9; stroke-opacity: 0.8; }}
svg.fork .pt {{ stroke-width: 2.5; stroke-opacity: 0.8; }}
svg.fork .mean {{ stroke: {INK}; stroke-width: 0.8; stroke-dasharray: 3 1.5; }}
"""
"""The styles of every fork figure, declared once on the page that holds them."""


@dataclass(frozen=True)
class SideSeries:
    """One side of one comparison: measurement iterations per fork, optional warm-ups."""

    name: str
    forks: Sequence[Sequence[float] | np.ndarray]
    warmups: Sequence[Sequence[float] | np.ndarray] = ()


@dataclass(frozen=True)
class GroupBand:
    """One of two groups the fork means of both sides fall in: its level (the group's
    geometric mean, in the metric's own unit), whether it is the fast one, and its label
    (how many forks of each side it holds)."""

    level: float
    fast: bool
    label: str


WIDE_RANGE = 20.0
"""Above this max/min ratio of the plotted values a linear axis flattens one side to a line."""


@dataclass(frozen=True)
class _Axis:
    """A value axis from ``lo`` to ``hi`` (linear or log) mapped onto [pixel_lo, pixel_hi]."""

    lo: float
    hi: float
    log: bool
    pixel_lo: float
    pixel_hi: float

    def _t(self, v: float) -> float:
        return math.log10(v) if self.log else v

    def at(self, v: float) -> float:
        a, b = self._t(self.lo), self._t(self.hi)
        share = 0.5 if b == a else (self._t(v) - a) / (b - a)
        return self.pixel_lo + share * (self.pixel_hi - self.pixel_lo)

    def ticks(self, integer: bool = False) -> list[float]:
        if self.log:
            found = LogLocator(base=10, subs=(1.0, 2.0, 5.0)).tick_values(self.lo, self.hi)
            inside = [float(t) for t in found if self.lo <= t <= self.hi]
            if len(inside) >= 2:
                return inside[:: max(1, math.ceil(len(inside) / 6))]
        locator = MaxNLocator(nbins=5, integer=integer, min_n_ticks=2)
        return [float(t) for t in locator.tick_values(self.lo, self.hi) if self.lo <= t <= self.hi]


def _range(values: np.ndarray, log: bool, pad: float = 0.06) -> tuple[float, float]:
    lo, hi = float(values.min()), float(values.max())
    if log:
        a, b = math.log10(lo), math.log10(hi)
        span = max(b - a, 0.05) * pad
        return 10 ** (a - span), 10 ** (b + span)
    span = (hi - lo) or abs(hi) * 0.05 or 1.0
    return lo - span * pad, hi + span * pad


def _tick_text(v: float) -> str:
    text = significant(v)
    if "." in text and "e" not in text:
        text = text.rstrip("0").rstrip(".")
    return text


def _num(x: float) -> str:
    return f"{x:.1f}".removesuffix(".0")


def _path(points: Iterable[tuple[float, float]], dots: bool) -> str:
    """A polyline, or dots: each point a zero-length segment drawn with a round cap."""
    if dots:
        return " ".join(f"M{_num(x)} {_num(y)}h0" for x, y in points)
    return "M" + " L".join(f"{_num(x)} {_num(y)}" for x, y in points)


class _Svg:
    """The figure's elements in drawing order."""

    def __init__(self) -> None:
        self.parts: list[str] = []

    def add(self, element: str) -> None:
        self.parts.append(element)

    def text(self, x: float, y: float, text: str, cls: str = "", rotate: bool = False) -> None:
        turn = f' transform="rotate(-90 {_num(x)} {_num(y)})"' if rotate else ""
        c = f' class="{cls}"' if cls else ""
        self.add(f'<text x="{_num(x)}" y="{_num(y)}"{c}{turn}>{escape(text)}</text>')

    def line(self, x1: float, y1: float, x2: float, y2: float, cls: str) -> None:
        self.add(f'<path class="{cls}" d="M{_num(x1)} {_num(y1)} L{_num(x2)} {_num(y2)}"/>')

    def rect(self, x: float, y: float, w: float, h: float, fill: str) -> None:
        self.add(
            f'<rect x="{_num(x)}" y="{_num(y)}" width="{_num(w)}" height="{_num(h)}" '
            f'fill="{fill}"/>'
        )


def _values(sides: Sequence[SideSeries], warmups: bool) -> np.ndarray:
    parts = [np.asarray(f, dtype=float) for s in sides for f in s.forks if len(f)]
    if warmups:
        parts += [np.asarray(w, dtype=float) for s in sides for w in s.warmups if len(w)]
    values = np.concatenate(parts) if parts else np.array([1.0])
    finite = values[np.isfinite(values)]
    return finite if finite.size else np.array([1.0])


def _wide(values: np.ndarray) -> bool:
    positive = values[values > 0]
    return positive.size == values.size and bool(positive.max() / positive.min() > WIDE_RANGE)


def _value_axis(svg: _Svg, axis: _Axis, x: float, label: str) -> None:
    svg.line(x, TOP, x, BOTTOM, "axis")
    for t in axis.ticks():
        y = axis.at(t)
        svg.line(x - 3.5, y, x, y, "tick")
        svg.text(x - 5, y + 3, _tick_text(t), "end")
    svg.text(x - 40, (TOP + BOTTOM) / 2, label, "mid", rotate=True)


def fork_detail(
    base: SideSeries,
    head: SideSeries,
    unit: str,
    factor: float,
    salt: str,
    groups: Sequence[GroupBand] = (),
) -> str:
    """Per-fork strip plot (left) and per-fork iteration timeline with warm-up (right); with
    ``groups``, the strip plot shades the band of each group of fork means and labels it.
    Values are divided by ``factor`` to show them in ``unit``; ``salt`` makes the figure's
    ids unique on its page."""
    sides = (base, head)
    scaled = tuple(
        SideSeries(
            s.name,
            [np.asarray(f, dtype=float) / factor for f in s.forks],
            [np.asarray(w, dtype=float) / factor for w in s.warmups],
        )
        for s in sides
    )
    every = _values(scaled, warmups=True)
    log = _wide(every)
    ylabel = f"{unit} (log scale)" if log else unit
    svg = _Svg()
    clip = f"{salt}-clip"
    svg.add(
        f'<defs><clipPath id="{clip}"><rect x="0" y="{_num(TOP)}" width="{_num(WIDTH)}" '
        f'height="{_num(BOTTOM - TOP)}"/></clipPath></defs>'
    )
    _strip(svg, scaled, groups, factor, log, ylabel, clip)
    _timeline(svg, scaled, log, ylabel, clip)
    body = "".join(svg.parts)
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {_num(WIDTH)} {_num(HEIGHT)}" '
        f'role="img" aria-label="{escape(salt)}" class="plot fork">{body}</svg>'
    )


def _strip(
    svg: _Svg,
    sides: Sequence[SideSeries],
    groups: Sequence[GroupBand],
    factor: float,
    log: bool,
    ylabel: str,
    clip: str,
) -> None:
    values = _values(sides, warmups=False)
    bands = _bands(sides, groups, factor)
    if bands:
        values = np.concatenate([values, [v for b in bands for v in b[:2]]])
    lo, hi = _range(values, log)
    axis = _Axis(lo, hi, log, BOTTOM, TOP)
    left, right = STRIP
    xaxis = _Axis(-0.6, 1.6, False, left, right)
    for band_lo, band_hi, fill, label in bands:
        top, bottom = axis.at(min(band_hi, hi)), axis.at(max(band_lo, lo))
        svg.rect(left, top, right - left, max(bottom - top, 0.5), fill)
        svg.text(right - 2, top + 6, label, "tiny end")
    parts = []
    for i, (side, cls) in enumerate(zip(sides, ("base", "head"), strict=True)):
        offsets = np.linspace(-0.28, 0.28, len(side.forks)) if len(side.forks) > 1 else [0.0]
        dots, bars, means = [], [], []
        for off, fork in zip(offsets, side.forks, strict=True):
            values = np.asarray(fork, dtype=float)
            values = values[np.isfinite(values)]
            if not values.size:
                continue
            x = xaxis.at(i + off)
            dots += [(x, axis.at(v)) for v in values]
            mean = float(values.mean())
            means.append(mean)
            bars.append(f"M{_num(x - 4.3)} {_num(axis.at(mean))}h8.6")
        if dots:
            parts.append(f'<path class="{cls} iter" d="{_path(dots, True)}"/>')
            parts.append(f'<path class="{cls} bar" d="{" ".join(bars)}"/>')
            y = axis.at(float(np.mean(means)))
            parts.append(
                f'<path class="mean" d="M{_num(xaxis.at(i - 0.38))} {_num(y)} '
                f'L{_num(xaxis.at(i + 0.38))} {_num(y)}"/>'
            )
    svg.add(f'<g clip-path="url(#{clip})">{"".join(parts)}</g>')
    svg.line(left, BOTTOM, right, BOTTOM, "axis")
    for i, side in enumerate(sides):
        x = xaxis.at(i)
        svg.line(x, BOTTOM, x, BOTTOM + 3.5, "tick")
        svg.text(x, BOTTOM + 13, side.name, "mid")
    _value_axis(svg, axis, left, ylabel)
    svg.text(
        left, TOP - 6, "forks: iterations (dots), fork mean (bar), mean of fork means (dashed)",
        "small",
    )  # fmt: skip


def _bands(
    sides: Sequence[SideSeries], groups: Sequence[GroupBand], factor: float
) -> list[tuple[float, float, str, str]]:
    """Each group's band (low, high, colour, label): from its lowest to its highest fork mean,
    a fork belonging to the group whose level is nearer on the log scale (the groups are
    found on log means)."""
    means = np.array([float(np.mean(f)) for s in sides for f in s.forks if len(f)])
    levels = np.array([g.level / factor for g in groups], dtype=float)
    if not groups or means.size == 0 or (means <= 0).any() or (levels <= 0).any():
        return []
    nearest = np.argmin(np.abs(np.log(means)[:, None] - np.log(levels)[None, :]), axis=1)
    out = []
    for k, group in enumerate(groups):
        member = means[nearest == k]
        lo, hi = (member.min(), member.max()) if member.size else (levels[k], levels[k])
        pad = max((hi - lo) * 0.15, abs(levels[k]) * 0.01)
        out.append((lo - pad, hi + pad, FAST_BAND if group.fast else SLOW_BAND, group.label))
    return out


def _timeline(svg: _Svg, sides: Sequence[SideSeries], log: bool, ylabel: str, clip: str) -> None:
    values = _values(sides, warmups=True)
    lo, hi = _range(values, log)
    axis = _Axis(lo, hi, log, BOTTOM, TOP)
    warm_len = max((len(w) for s in sides for w in s.warmups), default=0)
    longest = max((len(f) for s in sides for f in s.forks), default=1)
    left, right = TIMELINE
    xaxis = _Axis(0.5, warm_len + longest + 0.5, False, left, right)
    if warm_len:
        x0, x1 = xaxis.at(0.5), xaxis.at(warm_len + 0.5)
        svg.rect(x0, TOP, x1 - x0, BOTTOM - TOP, BAND_COLOR)
        svg.text((x0 + x1) / 2, TOP + 8, "warm-up", "small mid")
    parts = []
    for side, cls in zip(sides, ("base", "head"), strict=True):
        lines, dots = [], []
        for k, fork in enumerate(side.forks):
            warm = list(side.warmups[k]) if k < len(side.warmups) else []
            series = [*warm, *fork]
            start = warm_len - len(warm) + 1
            points = [
                (xaxis.at(start + j), axis.at(v))
                for j, v in enumerate(series)
                if math.isfinite(v) and (v > 0 or not log)
            ]
            if points:
                lines.append(_path(points, False))
                dots.append(_path(points, True))
        if lines:
            parts.append(f'<path class="{cls} line" d="{" ".join(lines)}"/>')
            parts.append(f'<path class="{cls} pt" d="{" ".join(dots)}"/>')
    svg.add(f'<g clip-path="url(#{clip})">{"".join(parts)}</g>')
    svg.line(left, BOTTOM, right, BOTTOM, "axis")
    for t in xaxis.ticks(integer=True):
        x = xaxis.at(t)
        svg.line(x, BOTTOM, x, BOTTOM + 3.5, "tick")
        svg.text(x, BOTTOM + 13, f"{t:g}", "mid")
    label = "iteration (warm-up, then measurement)" if warm_len else "measurement iteration"
    svg.text((left + right) / 2, BOTTOM + 28, label, "mid")
    _value_axis(svg, axis, left, ylabel)
    svg.add(
        f'<rect x="{_num(right - 74)}" y="{_num(TOP + 1)}" width="72" height="22" '
        'fill="#ffffff" fill-opacity="0.85"/>'
    )
    for k, (side, cls) in enumerate(zip(sides, ("base", "head"), strict=True)):
        y = TOP + 6 + 11 * k
        svg.line(right - 70, y, right - 56, y, f"{cls} line")
        svg.text(right - 52, y + 3, side.name, "small")
