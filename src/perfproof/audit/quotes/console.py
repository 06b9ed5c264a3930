"""Quotes in pasted JMH console tables (``Benchmark (n) Mode Cnt Score Error Units``).

JMH prints one row per benchmark and @Param set, the params as columns named ``(n)``; a
secondary metric's row is the benchmark name with ``:gc.alloc.rate.norm`` appended. Only the
primary and bytes/op rows are quoted; other secondary metrics are not in a comparison.
"""

from __future__ import annotations

import re

from perfproof.audit.quotes.model import BYTES_METRIC, PRIMARY_METRIC, Quote
from perfproof.audit.quotes.prose import score_quotes
from perfproof.audit.quotes.words import Names

_BENCHMARK = re.compile(r"^\s*Benchmark\s")
_MODE = re.compile(r"\bMode\b")
_SCORE_WORD = re.compile(r"\bScore\b")


def header_params(line: str) -> list[str] | None:
    """The @Param columns of a JMH console header, or None when ``line`` is not one."""
    if not _BENCHMARK.match(line):
        return None
    mode = _MODE.search(line)
    if mode is None or _SCORE_WORD.search(line, mode.end()) is None:
        return None
    return re.findall(r"\((\w+)\)", line)


def _param_values(
    text: str, start: int, params: list[str], names: Names
) -> tuple[dict[str, str], int] | None:
    """The @Param columns of a row from ``start``: a value the run knows is taken whole (it may
    hold spaces, as JMH prints it), anything else up to the next space."""
    values: dict[str, str] = {}
    pos = start
    for name in params:
        while pos < len(text) and text[pos].isspace():
            pos += 1
        if pos >= len(text):
            return None
        known = next(
            (
                (form, value)
                for form, value in names.values.get(name, [])
                if text.startswith(form, pos)
                and (pos + len(form) == len(text) or text[pos + len(form)].isspace())
            ),
            None,
        )
        if known is not None:
            values[name], pos = known[1], pos + len(known[0])
            continue
        end = pos
        while end < len(text) and not text[end].isspace():
            end += 1
        values[name], pos = text[pos:end], end
    return values, pos


def console_row(
    text: str, params: list[str], line: int, names: Names, side: str | None, group: int
) -> list[Quote]:
    stripped = text.strip()
    name = stripped.split(None, 1)[0] if stripped else ""
    metric = BYTES_METRIC if "alloc.rate.norm" in name else PRIMARY_METRIC
    if not name or (":" in name and metric != BYTES_METRIC):
        return []
    found = list(names.mentions(name.split(":")[0]))
    if not found:
        return []
    parsed = _param_values(stripped, len(name), params, names)
    if parsed is None:
        return []
    values = {k: v for k, v in parsed[0].items() if v != "N/A"}
    quotes = [q for _, q in score_quotes(" ".join(stripped[parsed[1] :].split()), line)]
    for q in quotes:
        q.benchmark, q.params, q.side, q.group = found[0][1], values, side, group
        q.metric = metric
    return quotes


def code_block(
    lines: list[str], first_line: int, names: Names, side: str | None, group: int
) -> tuple[list[Quote], int]:
    """The quotes of a fenced or indented block: rows under a JMH header, nothing else."""
    quotes: list[Quote] = []
    params: list[str] | None = None
    for k, raw in enumerate(lines):
        found = header_params(raw)
        if found is not None:
            params = found
        elif params is not None:
            group += 1
            quotes += console_row(raw, params, first_line + k, names, side, group)
    return quotes, group
