"""Which figures a run gets, and the data behind each: the bridge from a run folder to plots.

The forest plot and the bytes/op bars come from the compare document (the same numbers as the
tables); the per-fork strip plots and timelines need the raw iterations, read from the JMH
files with the same reader the comparison used, plus warm-up scores from the JMH logs.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass
from typing import Any

from perfproof import defaults
from perfproof.model import PRIMARY, BenchKey, Comparison, Direction, RatioBounds, Samples
from perfproof.render.results import Row, params_label, short_name
from perfproof.report import forkplot, plots
from perfproof.report.context import ReportContext
from perfproof.report.rundir import BASE, HEAD, RunFolder
from perfproof.report.svgtext import share_styles
from perfproof.report.warmuplog import read_warmups
from perfproof.units import BYTES_ZERO, quantity


@dataclass(frozen=True)
class Figure:
    """One inline SVG with its caption; ``anchor`` ties it to a results row."""

    anchor: str
    caption: str
    svg: str
    title: str = ""


@dataclass(frozen=True)
class PageFigures:
    """Every figure of a run's page, drawn once, with the CSS their shared styles need: what
    report.html shows, and what a prove report embeds of its A/B run."""

    forest: Figure | None
    bytes: Figure | None
    forks: list[Figure]
    css: str

    @property
    def svgs(self) -> tuple[str, ...]:
        """The figures in the page's order: forest, bytes/op, then each key's forks."""
        drawn = [f for f in (self.forest, self.bytes) if f is not None]
        return tuple(f.svg for f in (*drawn, *self.forks))


def page_figures(run: RunFolder, ctx: ReportContext) -> PageFigures:
    """The forest plot and bytes/op bars (their styles shared as classes) and the fork
    figures of one run."""
    forest = forest_figure(ctx)
    bytes_fig = bytes_figure(ctx)
    drawn = [f for f in (forest, bytes_fig) if f is not None]
    svgs, plot_css = share_styles([f.svg for f in drawn])
    shared = {f.anchor: dataclasses.replace(f, svg=svg) for f, svg in zip(drawn, svgs, strict=True)}
    return PageFigures(
        shared.get(forest.anchor) if forest else None,
        shared.get(bytes_fig.anchor) if bytes_fig else None,
        fork_figures(run, ctx),
        plot_css + forkplot.CSS,
    )


def row_label(benchmark: str, row: Row) -> str:
    label = params_label(row.params)
    return f"{short_name(benchmark)} {label}".strip()


def anchor(benchmark: str, row: Row) -> str:
    text = f"{benchmark}-{params_label(row.params)}-{row.comparison.key.mode}"
    return "fig-" + "".join(c if c.isalnum() else "-" for c in text).strip("-")


def _samples(run: RunFolder, side: str) -> dict[BenchKey, Samples]:
    paths = [r.path for r in run.raw_for(side)]
    if not paths:
        return {}
    from perfproof.jmh.reader import read_results

    samples = read_results(paths)
    if run.manifest.variants is None:
        return samples
    from perfproof.model.variants import split

    # both variants share the file: the side's own, under the names the comparisons use
    base, head = split(samples, run.manifest.variants)
    return base if side == "base" else head


def forest_figure(ctx: ReportContext) -> Figure | None:
    """Every comparison of the results tables on one ratio axis: time or throughput (a dot)
    and, below it, bytes/op where either side allocates (a square), each with its verdict."""
    rows = []
    for table in ctx.tables:
        for row in table.rows:
            label = row_label(table.benchmark, row)
            rows.append(_forest_row(label, row.comparison, row.verdict))
            a = row.alloc
            if (
                a is not None
                and max(abs(_num(a.base.value)), abs(_num(a.head.value))) >= BYTES_ZERO
            ):
                rows.append(_forest_row(f"{label} · B/op", a, str(a.verdict), True))
    if not rows:
        return None
    threshold = ctx.document.threshold or defaults.THRESHOLD
    plot = plots.forest(rows, threshold)
    allocs = sum(1 for r in rows if r.bytes)
    caption = (
        "Ratio feature / baseline per comparison with its interval (log scale); the shaded "
        f"band is the ±{threshold * 100:g}% practical threshold. Left of 1 is lower "
        "(better for time and bytes, worse for throughput)."
        + (
            " Rows marked · B/op (squares) are the bytes/op comparisons of keys that "
            "allocate, with their own verdicts."
            if allocs
            else ""
        )
        + _off_chart(plot.off_chart, len(rows))
    )
    return Figure("fig-forest", caption, plot.svg)


def _forest_row(label: str, c: Comparison, verdict: str, alloc: bool = False) -> plots.ForestRow:
    lo, hi = c.ratio_ci
    return plots.ForestRow(
        label, _num(c.ratio), RatioBounds.read(_num(lo), _num(hi)), verdict, alloc
    )


def _off_chart(labels: tuple[str, ...], total: int) -> str:
    """The caption's sentence on intervals drawn with an arrow: those the data leave unbounded
    on a side, or that reach past the axis."""
    if not labels:
        return ""
    n = len(labels)
    which = "Every interval" if n == total else f"{n} of {total} intervals"
    named = "" if n == total or n > 3 else " (" + "; ".join(labels) + ")"
    return (
        f" {which}{named} reach{'es' if n == 1 or n == total else ''} past the chart on a "
        "side: an arrow "
        "marks the side the data leave unbounded or that lies beyond the axis (the tables "
        "give the numbers)."
    )


def bytes_figure(ctx: ReportContext) -> Figure | None:
    labels, base, head = [], [], []
    for table in ctx.tables:
        for row in table.rows:
            if row.alloc is None:
                continue
            b = _num(row.alloc.base.value)
            h = _num(row.alloc.head.value)
            if not (math.isfinite(b) and math.isfinite(h)) or max(abs(b), abs(h)) < 0.5:
                continue
            labels.append(row_label(table.benchmark, row))
            base.append(b)
            head.append(h)
    if not labels:
        return None
    caption = (
        "Bytes allocated per operation (JMH -prof gc, gc.alloc.rate.norm), baseline vs feature."
    )
    return Figure("fig-bytes", caption, plots.bytes_bars(labels, base, head))


def fork_figures(run: RunFolder, ctx: ReportContext) -> list[Figure]:
    """A strip plot and a timeline per primary comparison that has raw data on both sides."""
    sides = {side: _samples(run, side) for side in (BASE, HEAD)}
    warm = {side: read_warmups(run.logs.get(side, [])) for side in (BASE, HEAD)}
    out = []
    for table in ctx.tables:
        for row in table.rows:
            key = BenchKey(table.benchmark, table.mode, tuple(sorted(row.params.items())), PRIMARY)
            series = []
            for side, name in ((BASE, "baseline"), (HEAD, "feature")):
                samples = sides[side].get(key)
                if samples is None or not samples.forks:
                    break
                warmups = warm[side].get((key.benchmark, key.params), [])
                if len(warmups) != len(samples.forks):
                    warmups = []
                series.append(forkplot.SideSeries(name, samples.forks, warmups))
            if len(series) != 2:
                continue
            label = row_label(table.benchmark, row)
            fig_id = anchor(table.benchmark, row)
            bands, said = _groups(row.comparison)
            svg = forkplot.fork_detail(
                series[0], series[1], row.scale.unit, row.scale.factor, salt=fig_id, groups=bands
            )
            caption = (
                f"{label}: every fork's measurement iterations (left) and each fork's "
                "iterations in order (right)"
                + (", warm-up shaded" if any(s.warmups for s in series) else "")
                + "."
                + said
            )
            out.append(Figure(fig_id, caption, svg, label))
    return out


def _groups(c: Comparison) -> tuple[list[forkplot.GroupBand], str]:
    """The bands of a comparison whose fork means fell in two groups, and the caption's
    sentence about them (nothing when they did not)."""
    g = c.diagnostics.fork_groups
    if g is None:
        return [], ""
    fast_low = c.direction is Direction.LOWER
    nb, nh = g.base_low + g.base_high, g.head_low + g.head_high
    low = f"base {g.base_low} of {nb}, head {g.head_low} of {nh}"
    high = f"base {g.base_high} of {nb}, head {g.head_high} of {nh}"
    pairs = [(g.low, low), (g.high, high)]
    if not fast_low:
        pairs.reverse()
    (fast, fast_n), (slow, slow_n) = pairs
    bands = [
        forkplot.GroupBand(fast, True, f"fast group: {fast_n}"),
        forkplot.GroupBand(slow, False, f"slow group: {slow_n}"),
    ]
    said = (
        f" The fork means of both sides fall in two groups (shaded): fast near "
        f"{quantity(fast, c.unit)} ({fast_n} forks), slow near {quantity(slow, c.unit)} "
        f"({slow_n})."
    )
    if g.held:
        said += (
            " The difference rests on which group the forks fell in, so the look gave no "
            "verdict on it."
        )
    return bands, said


def _num(value: Any) -> float:
    try:
        return float(value)
    except (TypeError, ValueError):
        return math.nan
