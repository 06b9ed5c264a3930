"""The summary a maintainer reads in thirty seconds, before any table.

The counting line says how many keys went which way; the lines under it say *which* and *by
how much*, one line per group of keys that agree (a benchmark whose @Param values changed the
same way, with the range of the change over them), then what stayed unresolved and why (the
look it stopped at, whether every round leaned one way), and whether the machine drifted
between rounds. At most :data:`MAX_LINES` lines: past that, the rest is counted and left to
the tables.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from perfproof.jmh.units import THROUGHPUT_UNIT, TIME_UNIT
from perfproof.model import Comparison, Verdict
from perfproof.model.diagnostics import SequentialLook
from perfproof.render.results import Row, Table, short_name
from perfproof.report.rounds import RoundsView, drift_sentence_short
from perfproof.units import bytes_value, change_interval, fraction_pct, percent, percent_range

MAX_LINES = 10
"""Lines under the counting line: with it and the blank line after, the summary fits in 12."""

MAX_VALUES = 8
"""@Param values listed on one line before the rest is counted."""


@dataclass(frozen=True)
class Group:
    """Rows of one table that agree on what happened to them."""

    table: Table
    rows: list[Row]


def _timed(rows: Sequence[Row]) -> bool:
    return all(r.comparison.unit in (TIME_UNIT, THROUGHPUT_UNIT) for r in rows)


def _where(g: Group) -> str:
    """``on every numOfDigits value``, ``on numOfDigits = -20, -10, 2``, or nothing for a
    benchmark without @Param values."""
    names = g.table.param_names
    if not names:
        return ""
    if len(g.rows) == len(g.table.rows) and len(g.rows) > 1:
        return f" on every {names[0]} value" if len(names) == 1 else " on every @Param combination"
    if len(names) == 1:
        values = [r.params.get(names[0], "") for r in g.rows]
        listed = ", ".join(values[:MAX_VALUES])
        more = f" and {len(values) - MAX_VALUES} more" if len(values) > MAX_VALUES else ""
        return f" on {names[0]} = {listed}{more}"
    combos = ["(" + ", ".join(f"{k}={v}" for k, v in r.params.items()) + ")" for r in g.rows]
    more = f" and {len(combos) - MAX_VALUES} more" if len(combos) > MAX_VALUES else ""
    return " on " + ", ".join(combos[:MAX_VALUES]) + more


def _name(t: Table) -> str:
    return f"`{short_name(t.benchmark)}`"


def _range(rows: Sequence[Row]) -> str:
    deltas = sorted(r.comparison.delta_pct for r in rows)
    return percent(deltas[0], 0) if len(deltas) == 1 else percent_range(deltas[0], deltas[-1])


def _changed(tables: Sequence[Table]) -> list[str]:
    """One line per benchmark that changed: the time (or score) groups with their ranges,
    then bytes/op by before → after, each with the @Param values it holds for."""
    out = []
    for t in tables:
        parts = []
        for verdict in (Verdict.IMPROVED, Verdict.REGRESSED):
            rows = [r for r in t.rows if r.comparison.verdict is verdict]
            if rows:
                better = verdict is Verdict.IMPROVED
                word = ("faster" if better else "slower") if _timed(rows) else str(verdict)
                parts.append(f"{word} {_range(rows)}{_where(Group(t, rows))}")
        for verdict, word in ((Verdict.IMPROVED, "less"), (Verdict.REGRESSED, "more")):
            rows = [r for r in t.rows if r.alloc is not None and r.alloc.verdict is verdict]
            by_change: dict[str, list[Row]] = {}
            for r in rows:
                a = r.alloc
                assert a is not None
                change = f"{bytes_value(a.base.value)} → {bytes_value(a.head.value)}"
                by_change.setdefault(change, []).append(r)
            if by_change:
                changes = [f"{ch}{_where(Group(t, rs))}" for ch, rs in by_change.items()]
                parts.append(f"allocates {word}, B/op " + "; ".join(changes))
        if parts:
            out.append(f"- {_name(t)}: " + "; ".join(parts))
    return out


def _unchanged(tables: Sequence[Table], threshold: float | None) -> list[str]:
    theta = f" (within ±{fraction_pct(threshold)})" if threshold is not None else ""
    out = []
    for verdict, word in ((Verdict.SAME, f"unchanged{theta}"), (Verdict.NEGLIGIBLE, "negligible")):
        for t in tables:
            rows = [r for r in t.rows if r.comparison.verdict is verdict]
            if rows:
                out.append(f"- {_name(t)} {word}{_where(Group(t, rows))}")
    return out


def futility_reason(look: SequentialLook) -> str:
    """The rule a futility stop recorded, in the words of what it computed: a run written
    before the rules were named stopped on the conditional power at the forks' estimate, which
    is said as such, not as the predictive rule that replaced it."""
    if look.futility_rule == "equivalence":
        return "its interval lay inside the equivalence margin"
    if look.futility_rule == "predictive":
        return "a verdict by the last look had become improbable"
    if look.conditional_power is not None:
        return (
            "a verdict by the last look was improbable were its estimate so far the truth (the "
            "rule of the perfproof that wrote the run)"
        )
    return "its rule is not recorded"


def why_undecided(c: Comparison, ended: str | None) -> str:
    """Why a key has no verdict, from what its last look did."""
    look = c.diagnostics.sequential
    if look is None:
        forks = min(c.base.forks, c.head.forks)
        return f"no verdict at {forks} fork{'s' if forks != 1 else ''} a side"
    if look.futile:
        return f"stopped at look {look.look} without a verdict: {futility_reason(look)}"
    if look.max_looks is not None and look.look >= look.max_looks:
        return f"no verdict after the last look ({look.look})"
    return f"the run ended at look {look.look}" + (f" ({ended})" if ended else "")


def _lean(rows: Sequence[Row], rounds: RoundsView | None) -> str:
    """Which way every round leaned, when the rounds of all the rows agree."""
    if rounds is None:
        return ""
    keys = [rounds.keys.get(r.comparison.key) for r in rows]
    if any(k is None for k in keys):
        return ""
    leans = {k.lean for k in keys if k is not None}
    n = min(len(k.ratios) for k in keys if k is not None)
    if len(leans) != 1 or 0 in leans or n < 2:
        return ""
    side = "the feature" if leans == {1} else "the baseline"
    return f"; every round ({n}{'+' if len(rows) > 1 else ''}) favoured {side}"


def _undecided(tables: Sequence[Table], rounds: RoundsView | None, ended: str | None) -> list[str]:
    out = []
    for t in tables:
        rows = [r for r in t.rows if r.comparison.verdict is Verdict.INCONCLUSIVE]
        by_why: dict[str, list[Row]] = {}
        for r in rows:
            by_why.setdefault(why_undecided(r.comparison, ended), []).append(r)
        for why, rs in by_why.items():
            bound = ""
            if len(rs) == 1:
                lo, hi = rs[0].comparison.ratio_ci
                bound = f"; its interval {change_interval(lo, hi)}"
            out.append(
                f"- {_name(t)} undecided{_where(Group(t, rs))}: {why}{bound}{_lean(rs, rounds)}"
            )
    return out


def digest_lines(
    tables: Sequence[Table],
    threshold: float | None,
    rounds: RoundsView | None = None,
    ended: str | None = None,
) -> list[str]:
    """The lines under the counting line (see the module's doc), Markdown list items."""
    changed = _changed(tables)
    rest = _unchanged(tables, threshold) + _undecided(tables, rounds, ended)
    drift = drift_sentence_short(rounds) if rounds is not None else ""
    tail = [f"- {drift}"] if drift else []
    room = MAX_LINES - len(tail)
    lines = changed + rest
    if len(lines) > room:
        left = len(lines) - (room - 1)
        lines = [*lines[: room - 1], f"- {left} more group{'s' if left != 1 else ''}: see Results"]
    return lines + tail
