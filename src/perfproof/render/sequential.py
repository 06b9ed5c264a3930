"""A replayed sequential design as a terminal table, Markdown or JSON.

The comparisons themselves render exactly like ``perfproof compare`` (same table, same cells,
each interval the one its verdict was decided on); this adds what only a sequential design
has: the look and round at which each entry stopped, the forks it used, and the methodology
paragraph saying how the looks were calibrated.
"""

from __future__ import annotations

from rich.console import Console
from rich.table import Table
from rich.text import Text

from perfproof.compare import CompareResult, compare_document
from perfproof.compare.sequential_replay import Replay, replay_summary
from perfproof.render import comparison as compare_render
from perfproof.render.markdown import markdown_table, md_text

HEADERS = (
    "entry",
    "stopped",
    "forks used (base/head)",
    "verdicts",
    "unwarmed start left out (iterations)",
)


def as_result(r: Replay) -> CompareResult:
    """The final comparisons of every entry, as a ``CompareResult`` the usual renderers take."""
    d = r.design
    options = d.verdict
    comparisons = [c for dec in r.decisions.values() for c in dec.comparisons]
    return CompareResult(comparisons, list(r.unmatched), options, list(r.notes))


def _rows(r: Replay) -> list[tuple[str, ...]]:
    out: list[tuple[str, ...]] = []
    for d in r.decisions.values():
        primary = d.comparisons[0]
        forks = f"{primary.base.forks}/{primary.head.forks}"
        if d.decided and d.look < r.design.schedule.max_looks:
            stopped = f"look {d.look} (round {r.stopped_at_round(d)})"
        elif d.decided and not d.settled:
            stopped = f"undecided after the last look {d.look} (round {r.stopped_at_round(d)})"
        elif d.decided:
            stopped = f"last look {d.look} (round {r.stopped_at_round(d)})"
        else:
            stopped = f"undecided after look {d.look}"
        verdicts = ", ".join(f"{c.key.metric}: {c.verdict}" for c in d.comparisons)
        left_out = "; ".join(
            [f"{side} fork {', '.join(str(i + 1) for i in idx)} (whole)"
             for side, idx in d.excluded.items()]
            + [f"{side} " + ", ".join(f"fork {i + 1} ({k})" for i, k in sorted(cut.items()))
               for side, cut in d.trimmed.items()]
        )  # fmt: skip
        out.append((d.key.label(), stopped, forks, verdicts, left_out or "-"))
    return out


def _method(r: Replay) -> str:
    return replay_summary(r).methodology


def print_table(r: Replay, console: Console | None = None) -> None:
    """The comparison table (its method line replaced by the sequential methodology), then
    where each entry stopped."""
    if console is None:
        console = Console()
        if not console.is_terminal:
            console = Console(width=160)
    result = as_result(r)
    group = compare_render.table(result)
    fixed = compare_render.method_line(result)
    group.renderables[:] = [
        Text(_method(r), style="dim") if isinstance(x, Text) and x.plain == fixed else x
        for x in group.renderables
    ]
    console.print(group)
    table = Table(title="Sequential replay: where each entry stopped", title_justify="left")
    for h in HEADERS:
        table.add_column(h)
    for row in _rows(r):
        table.add_row(*row)
    console.print(table)
    for note in r.notes:
        console.print(f"note: {note}")


def markdown(r: Replay) -> str:
    result = as_result(r)
    body = compare_render.markdown(result).replace(
        compare_render.method_line(result), md_text(_method(r))
    )
    parts = [body.rstrip("\n"), "", "### Sequential replay", "", *markdown_table(HEADERS, _rows(r))]
    parts += [f"- {md_text(n)}" for n in r.notes]
    return "\n".join(parts) + "\n"


def document(r: Replay) -> dict[str, object]:
    """The ``perfproof.compare/1`` document with a ``sequential`` section."""
    doc = compare_document(as_result(r))
    doc["sequential"] = replay_summary(r).dump()
    return doc
