"""The history's series and change points as a terminal table, a JSON document or one HTML page.

The JSON documents (``perfproof.history/1`` for ``show``, ``perfproof.changes/1`` for
``changes``) carry the same numbers the table prints. The HTML page is self-contained: one
inline SVG trend per key (each run's estimate with its fork-level interval, change points
marked by a vertical line at the first run after the shift), no scripts and nothing fetched.
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, TextIO

from rich.markup import escape

from perfproof.history.analysis import Change, summarise
from perfproof.history.store import Series
from perfproof.units import percent, quantity

if TYPE_CHECKING:
    from rich.console import Console

HISTORY_SCHEMA = "perfproof.history/1"
CHANGES_SCHEMA = "perfproof.changes/1"


def _key_doc(s: Series) -> dict[str, Any]:
    return {
        "benchmark": s.key.benchmark,
        "mode": s.key.mode,
        "params": s.key.params_dict,
        "metric": s.key.metric,
        "unit": s.unit,
        "direction": s.direction,
    }


def history_document(series: Sequence[Series], confidence: float) -> dict[str, Any]:
    keys = []
    for s in series:
        points = []
        for p in s.points:
            summary = summarise(p, confidence)
            points.append(
                {
                    "run": p.run_id or p.run_uid,
                    "uid": p.run_uid,
                    "commit": p.commit,
                    "branch": p.branch,
                    "time": p.time,
                    "estimate": summary.mean,
                    "ci": [summary.lo, summary.hi],
                    "forks": summary.forks,
                    "fork_means": [float(v) for v in p.fork_means()],
                }
            )
        keys.append({**_key_doc(s), "points": points})
    return {"schema": HISTORY_SCHEMA, "confidence": confidence, "keys": keys}


def change_doc(c: Change) -> dict[str, Any]:
    p = c.point
    return {
        **_key_doc(c.series),
        "index": c.index,
        "run": p.run_id or p.run_uid,
        "commit": p.commit,
        "time": p.time,
        "kind": c.kind,
        "before": c.before,
        "after": c.after,
        "ratio": c.ratio,
        "ratio_ci": list(c.ratio_ci),
        "delta_pct": c.delta_pct,
        "delta_ci_pct": list(c.delta_ci_pct),
        "p_value": c.p_value,
    }


def changes_document(
    changes: Sequence[Change], keys: int, options: dict[str, Any]
) -> dict[str, Any]:
    return {
        "schema": CHANGES_SCHEMA,
        "options": options,
        "keys": keys,
        "changes": [change_doc(c) for c in changes],
    }


def _ci_text(lo: float | None, hi: float | None, unit: str) -> str:
    if lo is None or hi is None:
        return "n/a (1 fork)"
    return f"[{quantity(lo, unit)}, {quantity(hi, unit)}]"


def _console(width: int, file: TextIO | None) -> Console:
    """The terminal, or ``file`` (``--out``) as plain text at the same width."""
    from rich.console import Console

    if file is None:
        return Console(width=max(Console().width, width))
    return Console(file=file, width=width, no_color=True, force_terminal=False)


def print_history(series: Sequence[Series], confidence: float, file: TextIO | None = None) -> None:
    from rich.table import Table

    console = _console(110, file)
    if not series:
        console.print("no recorded results match")
        return
    for s in series:
        table = Table(title=escape(f"{s.key.label()} ({s.unit}, {s.direction} is better)"))
        for header in ("time", "commit", "branch", "estimate", f"{confidence:.0%} CI", "forks"):
            table.add_column(header, no_wrap=header != "branch")
        for p in s.points:
            summary = summarise(p, confidence)
            table.add_row(
                p.time,
                (p.commit or "")[:10],
                p.branch or "",
                quantity(summary.mean, s.unit),
                _ci_text(summary.lo, summary.hi, s.unit),
                str(summary.forks),
            )
        console.print(table)


def print_changes(changes: Sequence[Change], keys: int, file: TextIO | None = None) -> None:
    from rich.table import Table

    console = _console(140, file)
    if not changes:
        console.print(f"no significant shift in {keys} key(s)")
        return
    table = Table(title=f"{len(changes)} shift(s) in {keys} key(s)")
    for header in ("key", "first commit after", "kind", "before → after", "Δ% [CI]", "p"):
        table.add_column(header, no_wrap=True)
    for c in changes:
        lo, hi = c.delta_ci_pct
        table.add_row(
            escape(c.series.key.label()),
            (c.point.commit or c.point.run_id or "")[:12],
            c.kind,
            f"{quantity(c.before, c.series.unit)} → {quantity(c.after, c.series.unit)}",
            f"{percent(c.delta_pct)} [{percent(lo)}, {percent(hi)}]",
            f"{c.p_value:.3f}",
        )
    console.print(table)


def trend_svg(s: Series, changes: Sequence[Change], confidence: float, salt: str) -> str:
    """One key's estimates over runs with interval bars; change points as dashed lines."""
    import matplotlib

    from perfproof.report.plots import BASE_COLOR, HEAD_COLOR, RC, to_svg

    with matplotlib.rc_context(RC):
        from matplotlib.figure import Figure

        fig = Figure(figsize=(8, 2.6), layout="constrained")
        ax = fig.add_subplot()
        xs, ys, lows, highs = [], [], [], []
        for i, p in enumerate(s.points):
            summary = summarise(p, confidence)
            xs.append(i)
            ys.append(summary.mean)
            lows.append(summary.mean - summary.lo if summary.lo is not None else 0.0)
            highs.append(summary.hi - summary.mean if summary.hi is not None else 0.0)
        ax.errorbar(xs, ys, yerr=[lows, highs], fmt="o-", ms=3, lw=1, color=BASE_COLOR, capsize=2)
        for c in changes:
            ax.axvline(c.index - 0.5, color=HEAD_COLOR, ls="--", lw=1.2)
            ax.annotate(
                f"{c.kind} {c.delta_pct:+.1f}%",
                (c.index - 0.5, max(ys)),
                color=HEAD_COLOR,
                fontsize=8,
                ha="left",
            )
        labels = [(p.commit or p.run_id or "")[:7] for p in s.points]
        step = max(1, len(labels) // 12)
        ax.set_xticks(xs[::step], labels[::step], rotation=30, fontsize=7)
        ax.set_ylabel(s.unit)
        return to_svg(fig, salt)


def html_page(
    title: str,
    series: Sequence[Series],
    changes: Sequence[Change],
    confidence: float,
) -> str:
    """One self-contained page: a heading, a trend per key, and the change list under it."""
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f"<title>{html.escape(title)}</title>",
        "<style>body{font-family:sans-serif;max-width:60rem;margin:2rem auto;color:#222}"
        "svg.plot{width:100%;height:auto}li{margin:.2rem 0}</style>",
        "</head><body>",
        f"<h1>{html.escape(title)}</h1>",
        f"<p>Each point is one run: the mean of its fork means with a {confidence:.0%} "
        "interval over forks. Dashed lines mark the first run after a shift.</p>",
    ]
    for number, s in enumerate(series):
        own = [c for c in changes if c.series is s]
        parts.append(f"<h2>{html.escape(s.key.label())}</h2>")
        parts.append(trend_svg(s, own, confidence, f"trend{number}"))
        if own:
            parts.append("<ul>")
            for c in own:
                lo, hi = c.delta_ci_pct
                parts.append(
                    f"<li><b>{c.kind}</b> {c.delta_pct:+.1f}% [{lo:+.1f}%, {hi:+.1f}%] from "
                    f"commit <code>{html.escape((c.point.commit or '')[:12])}</code> "
                    f"({html.escape(c.point.time)}), p = {c.p_value:.3f}</li>"
                )
            parts.append("</ul>")
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"
