"""Quotes in Markdown tables: each column's header says what its cells hold.

A header names the side (``Before``, ``Feature (ns/op)``), the unit, or the kind of number
(``Error``, ``Δ%``, ``B/op``); a column titled like one of the run's @Param names holds that
parameter's value; the first column names the benchmark. Cells arrive as plain text, already
unescaped by the Markdown parser (``\\|`` is a ``|`` inside a @Param value).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from perfproof.audit.quotes.model import (
    BYTES_METRIC,
    COST_HEADERS,
    METRIC_UNITS,
    PRIMARY_METRIC,
    Quote,
)
from perfproof.audit.quotes.prose import (
    Found,
    assign_text_sides,
    delta_quotes,
    score,
    score_quotes,
)
from perfproof.audit.quotes.words import (
    ARROW,
    BARE_SCORE,
    BASE,
    HEAD,
    NUM,
    UNIT,
    Names,
    side_of,
    to_number,
)

COST_SIDE = re.compile(rf"^(?P<v>{NUM})(?:\s*±\s*(?P<e>{NUM}))?(?:\s*(?P<u>{UNIT}))?$")
"""One side of a cost cell: a number, with or without its unit."""


@dataclass
class Column:
    name: str
    role: str  # bench, param, score, error, delta, bytes, cost, unit, other
    side: str | None = None
    unit: str | None = None
    param: str | None = None
    metric: str | None = None
    """The cost a ``cost`` column holds (direct, native bytes; GC time, collections)."""


_DELTA_WORDS = ("Δ", "delta", "change", "diff", "%", "speedup")


def columns(header: list[str], names: Names) -> list[Column]:
    """What each column of a table holds, from its header cell."""
    cols = []
    for i, raw in enumerate(header):
        h = raw.strip().strip("`*").strip()
        low = h.lower()
        stripped = low.strip("()")
        unit_m = re.search(UNIT, h)
        unit = unit_m.group(0) if unit_m else None
        side = side_of(low)
        cost = next((metric for word, metric in COST_HEADERS if word in low), None)
        if cost is not None:
            cols.append(Column(h, "cost", side, METRIC_UNITS.get(cost), metric=cost))
        elif stripped in names.param_names:
            cols.append(Column(h, "param", param=stripped))
        elif "benchmark" in low or (i == 0 and not side and "Δ" not in h and "%" not in h):
            cols.append(Column(h, "bench"))
        elif low in ("unit", "units"):
            cols.append(Column(h, "unit"))
        elif "error" in low or low in ("±", "+/-"):
            cols.append(Column(h, "error", side))
        elif any(w in h or w in low for w in _DELTA_WORDS):
            bytes_unit = unit == "B/op" or "alloc" in low
            cols.append(Column(h, "delta", side, "B/op" if bytes_unit else None))
        elif "b/op" in low or "alloc" in low or "bytes" in low:
            cols.append(Column(h, "bytes", side, "B/op"))
        elif side or "score" in low or unit:
            cols.append(Column(h, "score", side, unit))
        else:
            cols.append(Column(h, "other"))
    return cols


def _row_context(
    cells: list[str], cols: list[Column], names: Names, side_hint: str | None
) -> tuple[str | None, dict[str, str], str | None, str | None, str | None]:
    """Benchmark, params, unit, metric hint and side a row names outside its number cells."""
    bench: str | None = None
    params: dict[str, str] = {}
    row_unit: str | None = None
    metric_hint: str | None = None
    row_side = side_hint
    for cell, col in zip(cells, cols, strict=False):
        clean = cell.replace("`", "")
        if col.role == "bench":
            found = list(names.mentions(clean))
            if found:
                bench = found[0][1]
            if ":" in clean and "alloc.rate.norm" in clean:
                metric_hint = BYTES_METRIC
            params.update({k: v for _, k, v in names.params(clean)})
        elif col.role == "param":
            params[col.param or col.name] = clean.strip()
        elif col.role == "unit":
            row_unit = clean.strip()
        elif col.role == "other":
            row_side = side_of(cell) or row_side
    return bench, params, row_unit, metric_hint, row_side


def table_row(
    cells: list[str],
    cols: list[Column],
    line: int,
    names: Names,
    side_hint: str | None,
    group: int,
) -> list[Quote]:
    """The quotes of one body row, with the benchmark and params the row names."""
    bench, params, row_unit, metric_hint, row_side = _row_context(cells, cols, names, side_hint)
    quotes: list[Quote] = []
    for cell, col in zip(cells, cols, strict=False):
        clean = cell.replace("`", "").replace("**", "")
        found: Found = []
        if col.role in ("score", "bytes"):
            found = score_quotes(clean, line, col.unit or row_unit)
            for _, q in found:
                q.side = q.side or col.side or row_side
            assign_text_sides(clean, found)
            found += delta_quotes(clean, line)
        elif col.role == "delta":
            found = _delta_cell(clean, line)
            for _, q in found:
                if col.unit == "B/op":
                    q.metric = BYTES_METRIC
        elif col.role == "error":
            _error_cell(clean, quotes)
            continue
        elif col.role == "cost":
            quotes += _cost_cell(clean, line, col, bench, params, group)
            continue
        cell_metric = None
        for _, q in found:
            if q.kind == "score":
                if metric_hint and q.metric == PRIMARY_METRIC and q.unit == "B/op":
                    q.metric = BYTES_METRIC
                cell_metric = q.metric
            elif q.metric is None:
                q.metric = cell_metric or (BYTES_METRIC if col.role == "bytes" else PRIMARY_METRIC)
            q.benchmark, q.params, q.group = bench, dict(params), group
            quotes.append(q)
    if metric_hint:
        for q in quotes:
            if q.kind == "score":
                q.metric = BYTES_METRIC
    return quotes


def _delta_cell(text: str, line: int) -> Found:
    found = delta_quotes(text, line)
    if not found:
        m = BARE_SCORE.match(text)
        if m:
            v, d = to_number(m.group("v"))
            found = [(0, Quote("delta", v, d, text, line, signed=text[:1] in "+-−"))]
    return found


def _error_cell(text: str, quotes: list[Quote]) -> None:
    """A separate error column: the number is the error of the score just before it."""
    m = BARE_SCORE.match(text)
    if m and quotes:
        target = next((q for q in reversed(quotes) if q.kind == "score"), None)
        if target is not None and target.error is None:
            target.error, target.error_decimals = to_number(m.group("v"))


def _cost_cell(
    text: str, line: int, col: Column, bench: str | None, params: dict[str, str], group: int
) -> list[Quote]:
    """``10,240 → 0 B/op (-100.0%)``, ``2.06 → 0 µs/op (-100.0% [...]) improved``,
    ``37.1 → 0 (…)`` collections per million operations: both sides (a number before the
    arrow takes the unit written after the one behind it) and the change, each of the column's
    metric."""
    sides, _, rest = text.partition("(")
    parts = [p.strip() for p in ARROW.split(sides, maxsplit=1)]
    written = [COST_SIDE.match(p) for p in parts]
    units = [m.group("u") for m in written if m is not None and m.group("u")]
    out: list[Quote] = []
    if len(parts) == 2 and all(written):
        for side, m in zip((BASE, HEAD), written, strict=True):
            assert m is not None
            unit = m.group("u") or (units[-1] if units else None)
            if unit is not None:
                q = score(m, line, unit)
            else:
                value, decimals = to_number(m.group("v"))
                q = Quote("score", value, decimals, m.group(0).strip(), line)
            q.side = side
            out.append(q)
    out += [q for _, q in delta_quotes("(" + rest, line)[:1]] if rest else []
    for q in out:
        q.metric, q.benchmark, q.params, q.group = col.metric, bench, dict(params), group
    return out
