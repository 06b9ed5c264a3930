"""The history as one self-contained HTML page: an index of every key, then each key's trend.

The index is what a reader scans first: one row per key with a sparkline, the latest value,
its change against the previous and the first run, and the change points ``history changes``
found (the same :class:`~perfproof.history.analysis.Change` objects, never a second
detector), each row linking to the key's full plot further down the page. Everything is
rendered by a jinja2 template with autoescaping, so a benchmark name, a @Param value, a branch
or a commit from the database is text, never markup; the only unescaped parts are the SVGs
this package drew. No scripts, nothing fetched: the file opens offline.

A key on several machines is several series, each its own row and section named by its
machine, and the page says which machines it holds (never one pooled trend).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import jinja2
from markupsafe import Markup

from perfproof.history.analysis import Change, estimates, key_scale, summarise
from perfproof.history.links import CommitLinks, CommitRef
from perfproof.history.render import UNNAMED, machines_note, named
from perfproof.history.store import Series
from perfproof.history.trend import Sparkline, sparkline, trend_svg
from perfproof.model import PRIMARY
from perfproof.units import Scale, percent, scaled
from perfproof.units.percentages import delta_with_interval

_ENV = jinja2.Environment(
    loader=jinja2.PackageLoader("perfproof.history", "templates"),
    autoescape=True,
    trim_blocks=True,
    lstrip_blocks=True,
    undefined=jinja2.StrictUndefined,
)


@dataclass(frozen=True)
class ChangeFlag:
    """One change point as the page prints it."""

    kind: str
    delta: str
    before_after: str
    p_value: str
    commit: CommitRef | None
    run: str
    time: str


@dataclass(frozen=True)
class RunRow:
    """One run of a key, for the key's table of runs."""

    time: str
    commit: CommitRef | None
    run: str
    branch: str
    estimate: str
    interval: str
    forks: int


@dataclass(frozen=True)
class KeyView:
    """One key: its index row and its section."""

    anchor: str
    machine: str
    """``ci-large``, ``(unnamed)``; empty when no run in the page carries a name."""
    benchmark: str
    params: str
    mode: str
    metric: str
    unit: str
    direction: str
    spark: Sparkline
    latest: str
    latest_commit: CommitRef | None
    latest_time: str
    vs_previous: str
    vs_first: str
    changes: tuple[ChangeFlag, ...]
    runs: tuple[RunRow, ...]
    plot: Markup


def _relative(now: float, then: float) -> str:
    """``+3.1%``: the latest value against an earlier one; a dash when either is unusable."""
    if not (math.isfinite(now) and math.isfinite(then)) or then == 0:
        return percent(None)
    return percent((now / then - 1.0) * 100.0)


def _flag(c: Change, links: CommitLinks, scale: Scale) -> ChangeFlag:
    return ChangeFlag(
        kind=c.kind,
        delta=delta_with_interval(c.delta_pct, c.delta_ci_pct),
        before_after=f"{scaled(c.before, scale)} → {scaled(c.after, scale)}",
        p_value=f"{c.p_value:.3f}",
        commit=links.ref(c.point.commit),
        run=c.point.run_id or c.point.run_uid,
        time=c.point.time,
    )


def _runs(s: Series, confidence: float, links: CommitLinks, scale: Scale) -> tuple[RunRow, ...]:
    rows = []
    for p in s.points:
        summary = summarise(p, confidence)
        interval = "n/a (1 fork)"
        if summary.lo is not None and summary.hi is not None:
            interval = f"[{scaled(summary.lo, scale)}, {scaled(summary.hi, scale)}]"
        rows.append(
            RunRow(
                time=p.time,
                commit=links.ref(p.commit),
                run=p.run_id or p.run_uid,
                branch=p.branch or "",
                estimate=scaled(summary.mean, scale),
                interval=interval,
                forks=summary.forks,
            )
        )
    return tuple(rows)


def key_view(
    number: int,
    s: Series,
    changes: Sequence[Change],
    confidence: float,
    links: CommitLinks,
    with_machine: bool = False,
) -> KeyView:
    """Everything the page shows of one key on one machine (its plot drawn here, once)."""
    values = [float(v) for v in estimates(s)]
    latest = s.points[-1]
    anchor = f"key-{number}"
    scale = key_scale(s)
    return KeyView(
        anchor=anchor,
        machine=(UNNAMED if s.machine is None else s.machine) if with_machine else "",
        benchmark=s.key.benchmark,
        params=", ".join(f"{k}={v}" for k, v in s.key.params),
        mode=s.key.mode,
        metric="" if s.key.metric == PRIMARY else s.key.metric,
        unit=scale.unit,
        direction=s.direction,
        spark=sparkline(values, [c.index for c in changes]),
        latest=scaled(values[-1], scale),
        latest_commit=links.ref(latest.commit),
        latest_time=latest.time,
        vs_previous=_relative(values[-1], values[-2]) if len(values) > 1 else percent(None),
        vs_first=_relative(values[-1], values[0]) if len(values) > 1 else percent(None),
        changes=tuple(_flag(c, links, scale) for c in changes),
        runs=_runs(s, confidence, links, scale),
        plot=Markup(trend_svg(s, changes, confidence, anchor, links, scale)),
    )


def html_page(
    title: str,
    series: Sequence[Series],
    changes: Sequence[Change],
    confidence: float,
    links: CommitLinks | None = None,
    detector: str = "",
    machine: str | None = None,
) -> str:
    """The page: an index of all keys, then a section per key with its plot, shifts and runs.

    ``detector`` says in words how the change points were found (the options of the run);
    ``machine`` is the ``--machine`` filter (None: every machine, each in its own series).
    """
    links = links or CommitLinks()
    with_machine = named(series)
    views = [
        key_view(n, s, [c for c in changes if c.series is s], confidence, links, with_machine)
        for n, s in enumerate(series, start=1)
        if s.points
    ]
    template = _ENV.get_template("history.html.j2")
    return template.render(
        title=title,
        keys=views,
        shifts=sum(len(v.changes) for v in views),
        confidence=f"{confidence * 100:g}%",
        detector=detector,
        linked=links.template is not None,
        machines=machines_note(series, machine) or "",
    )
