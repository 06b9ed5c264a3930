"""Quotes in running text: ``48.0 ns/op → 53.7 ns/op (+12.0%)``, ``12% faster``, captions.

A line of prose is read left to right once: scores and percentages are found with anchored
regular expressions, each gets the side named nearest before it (or an arrow between two
scores: ``A → B`` is baseline → feature), and the benchmark and @Param values named last
before it. Each step looks only at a bounded window or at the text between two neighbouring
numbers, so a line costs time proportional to its length.
"""

from __future__ import annotations

import itertools
import re

from perfproof.audit.quotes.model import BYTES_METRIC, PRIMARY_METRIC, Quote
from perfproof.audit.quotes.words import (
    ARROW,
    BARE_SCORE,
    BASE,
    HEAD,
    PERCENT,
    SCORE,
    Names,
    direction_after,
    last_side_word,
    side_of,
    to_number,
    unit_of,
)

Found = list[tuple[int, Quote]]
"""Quotes of one text with their character position in it."""

_NOT_EFFECT_AFTER = re.compile(
    r"^\s*(?:CI|confidence|interval|intervals|power|threshold|level|of the|percentile|quantile)",
    re.I,
)
_NOT_EFFECT_BEFORE = re.compile(
    r"(?:\bp|\bp\d+|\bat|±|within|threshold|confidence of|\bsd|\bcv|variance|noise|≈|[<>≤≥])\s*$",
    re.I,
)
_WINDOW = 60
"""Characters before a score searched for a side word when no score precedes it."""


def delta_quotes(text: str, line: int, offset: int = 0) -> Found:
    """Percentages that state an effect (not a confidence level, a threshold, a p-value)."""
    out = []
    for m in PERCENT.finditer(text):
        if m.group("pre"):
            continue
        after = text[m.end() : m.end() + 80]
        before = text[max(0, m.start() - 40) : m.start()]
        if _NOT_EFFECT_AFTER.match(after) or _NOT_EFFECT_BEFORE.search(before):
            continue
        raw = m.group("v")
        value, decimals = to_number(raw)
        quote = Quote(
            "delta",
            value,
            decimals,
            m.group(0),
            line,
            signed=raw[0] in "+-−",
            direction_word=direction_after(after[:40]),
        )
        out.append((offset + m.start(), quote))
    return out


def score_quotes(text: str, line: int, default_unit: str | None = None, offset: int = 0) -> Found:
    """Scores with a unit; a bare number counts only in a column whose header gave the unit."""
    out = [(offset + m.start(), score(m, line, m.group("u"))) for m in SCORE.finditer(text)]
    if not out and default_unit:
        m = BARE_SCORE.match(text)
        if m:
            out.append((offset + m.start(), score(m, line, default_unit)))
    return out


def score(m: re.Match[str], line: int, unit_text: str) -> Quote:
    value, decimals = to_number(m.group("v"))
    unit, factor = unit_of(unit_text)
    q = Quote("score", value, decimals, m.group(0).strip(), line, unit=unit, factor=factor)
    q.metric = BYTES_METRIC if unit == "B/op" else PRIMARY_METRIC
    if m.group("e"):
        q.error, q.error_decimals = to_number(m.group("e"))
    return q


def assign_text_sides(text: str, quotes: Found) -> None:
    """``from A to B`` / ``A → B``: A is the baseline, B the feature; side words win."""
    scores = [(p, q) for p, q in quotes if q.kind == "score"]
    for i, (pos, q) in enumerate(scores):
        start = scores[i - 1][0] if i else max(0, pos - _WINDOW)
        # the nearest side word before the number, within its clause
        clause = re.split(r"[;.]\s|,\s(?=\D)", text[start:pos])[-1]
        # "24.6 ops/us after": a side word right behind the number wins
        end = pos + len(q.text)
        following = re.split(r"[,;(]", text[end : end + 16])[0]
        side = side_of(following) or last_side_word(clause)
        if side:
            q.side = side
    for (p1, q1), (p2, q2) in itertools.pairwise(scores):
        gap = p2 - p1 - len(q1.text)
        if q1.metric == q2.metric and 0 <= gap < 40 and ARROW.search(text[p1 + len(q1.text) : p2]):
            q1.side = q1.side or BASE
            q2.side = q2.side or HEAD


def attribute(
    text: str, quotes: Found, names: Names, bench: str | None, params: dict[str, str]
) -> None:
    """Give each quote the benchmark and params named last before it (or right after it).

    One sweep over the mentions in position order; what follows a quote is looked up in a
    table built once per stretch between two benchmark mentions.
    """
    events = [(p, "bench", b, "") for p, b in names.mentions(text)]
    events += [(p, "param", k, v) for p, k, v in names.params(text)]
    events.sort()
    next_bench = [len(events)] * (len(events) + 1)
    for i in range(len(events) - 1, -1, -1):
        next_bench[i] = i if events[i][1] == "bench" else next_bench[i + 1]
    params_from: dict[int, dict[str, str]] = {}

    def params_after(j: int) -> dict[str, str]:
        if j not in params_from:
            params_from[j] = {e[2]: e[3] for e in events[j : next_bench[j]]}
        return params_from[j]

    b, ps, e = bench, dict(params), 0
    for pos, q in sorted(quotes, key=lambda x: x[0]):
        while e < len(events) and events[e][0] < pos:
            _, kind, name, value = events[e]
            if kind == "bench":
                if name != b:
                    ps = {}
                b = name
            else:
                ps[name] = value
            e += 1
        qb, qps, later = b, dict(ps), e
        if qb is None and next_bench[later] < len(events):
            qb = events[next_bench[later]][2]
            later = next_bench[later] + 1
        if not qps:
            qps = dict(params_after(later))
        q.benchmark, q.params = qb, qps


def delta_metrics(text: str, found: Found) -> None:
    """A Δ% belongs to the metric of the last score before it, or to time by default."""
    last: str | None = None
    for pos, q in sorted(found, key=lambda x: x[0]):
        if q.kind == "score":
            last = q.metric or PRIMARY_METRIC
            continue
        if last is not None:
            q.metric = last
            continue
        # only this clause: in "A -94%; bytes/op B 2,048 → 0" the -94% is A's time, not bytes
        window = re.split(r";|\.\s", text[pos : pos + 60])[0].lower()
        bytes_word = "alloc" in window or "b/op" in window or "bytes" in window
        q.metric = BYTES_METRIC if bytes_word else PRIMARY_METRIC


def is_caption(text: str) -> bool:
    """A short bold or colon-ended line such as ``**Baseline, round 01**`` or ``After:``."""
    return len(text) < 100 and (text.startswith("**") or text.endswith(":"))


def prose_line(
    text: str, line: int, names: Names, bench: str | None, params: dict[str, str], group: int
) -> list[Quote]:
    """Every quote of one line of running text, attributed and ordered by position."""
    found = score_quotes(text, line) + delta_quotes(text, line)
    if not found:
        return []
    assign_text_sides(text, found)
    attribute(text, found, names, bench, params)
    delta_metrics(text, found)
    for _, q in found:
        q.group = group
    return [q for _, q in sorted(found, key=lambda x: x[0])]
