"""Find the numbers a hand-written PR body quotes: scores, errors, Δ%, bytes/op, claims.

A PR body mixes prose, Markdown tables and pasted JMH console tables. This module turns each
into *quotes*: a number with the precision it was written at, its unit, which side it is
about (baseline or feature, when the text says), which metric (time/throughput or bytes/op)
and what it names nearby (benchmark and @Param values). It knows nothing about a run;
:mod:`perfproof.audit.check` matches the quotes to one.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from perfproof.jmh.units import canonical

BASE = "base"
HEAD = "head"
PRIMARY_METRIC = "primary"
BYTES_METRIC = "bytes"

NUM = r"[-+−]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?:[eE][-+]?\d+)?"
UNIT = r"(?:ns|us|µs|μs|ms|s)/op|ops/(?:ns|us|µs|μs|ms|s|sec|min)|B/op|bytes/op|b/op"
_SCORE = re.compile(
    rf"(?<![\w^.⁰¹²³⁴⁵⁶⁷⁸⁹⁻])(?P<v>{NUM})(?:\s*(?:±|\+/-|\+-)\s*(?P<e>{NUM}))?\s*(?P<u>{UNIT})(?![\w/])"
)
_BARE_SCORE = re.compile(rf"^\s*(?P<v>{NUM})(?:\s*(?:±|\+/-|\+-)\s*(?P<e>{NUM}))?\s*$")
_PERCENT = re.compile(rf"(?P<pre>±\s*|\+/-\s*)?(?P<v>{NUM})\s*%")
_ARROW = re.compile(r"→|->|=>|\bto\b|\bvs\.?\b|\bversus\b")
_PARAM = re.compile(r"\b(?P<k>[A-Za-z_]\w*)\s*=\s*(?P<v>[^\s,;)\]|`*]+)")
_SEPARATOR = re.compile(r"^\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$")
_OVERLAP_CLAIM = re.compile(
    r"(do(?:es)?\s+not|don't|doesn't|never|no|without)\s+overlap|non-?\s?overlapping"
    r"|not\s+overlapping|disjoint",
    re.I,
)
_NOT_EFFECT_AFTER = re.compile(
    r"^\s*(?:CI|confidence|interval|intervals|power|threshold|level|of the|percentile|quantile)",
    re.I,
)
_NOT_EFFECT_BEFORE = re.compile(
    r"(?:\bp|\bp\d+|\bat|±|within|threshold|confidence of|\bsd|\bcv|variance|noise|≈)\s*$", re.I
)

SIDE_WORDS = {
    BASE: ("baseline", "base", "before", "old", "main", "master", "trunk", "original"),
    HEAD: (
        "feature",
        "head",
        "after",
        "new",
        "patched",
        "patch",
        "this pr",
        "optimized",
        "optimised",
        "proposed",
    ),
}
DIRECTION_WORDS = {
    "faster": ("faster", "speedup", "speed-up", "improvement", "cheaper"),
    "slower": ("slower", "regression", "costlier"),
    "down": (
        "less",
        "fewer",
        "lower",
        "reduction",
        "reduced",
        "decrease",
        "smaller",
        "drop",
        "saving",
        "savings",
    ),
    "up": ("more", "higher", "increase", "increased", "larger", "growth"),
}
"""Words after an unsigned percentage that give it a direction (``12% faster``)."""


@dataclass
class Quote:
    """One number the text states, with everything needed to check it."""

    kind: str  # "score" or "delta"
    value: float
    decimals: int
    text: str
    line: int
    unit: str | None = None  # canonical unit of a score (ns/op, ops/s, B/op) if written
    factor: float = 1.0  # written value × factor = canonical value
    side: str | None = None
    metric: str | None = None
    error: float | None = None
    error_decimals: int = 0
    signed: bool = True  # a delta written with a sign (or a direction word)
    direction_word: str | None = None  # faster/slower/down/up for an unsigned "12% faster"
    benchmark: str | None = None
    params: dict[str, str] = field(default_factory=dict)
    group: int = 0  # quotes of one table row or one clause share a group id


@dataclass
class Claim:
    """A sentence saying two intervals do not overlap."""

    line: int
    text: str
    benchmark: str | None
    params: dict[str, str]


@dataclass
class Parsed:
    quotes: list[Quote]
    claims: list[Claim]


def to_number(text: str) -> tuple[float, int]:
    """``"−1,234.50"`` → ``(-1234.5, 2)``: the value and the decimals written."""
    clean = text.replace("−", "-").replace(",", "").replace("+", "")
    mantissa = re.split(r"[eE]", clean)[0]
    decimals = len(mantissa.split(".", 1)[1]) if "." in mantissa else 0
    exp = re.search(r"[eE]([-+]?\d+)", clean)
    if exp:
        decimals -= int(exp.group(1))
    return float(clean), decimals


def _unit(text: str) -> tuple[str, float]:
    lowered = text.replace("μ", "µ")
    if lowered.lower() in ("b/op", "bytes/op"):
        return "B/op", 1.0
    return canonical(lowered.replace("µs", "us"))


def side_of(text: str) -> str | None:
    """The side a short text names (``Baseline``, ``after``), if exactly one."""
    lowered = text.lower()
    found = {
        side
        for side, words in SIDE_WORDS.items()
        if any(re.search(rf"(?<![\w-]){re.escape(w)}(?![\w-])", lowered) for w in words)
    }
    return found.pop() if len(found) == 1 else None


class Names:
    """The benchmark names and @Param names a run knows, to spot them in free text."""

    def __init__(self, benchmarks: list[str], param_names: list[str]) -> None:
        self.param_names = set(param_names)
        aliases: dict[str, set[str]] = {}
        for bench in benchmarks:
            parts = bench.split(".")
            for k in range(1, len(parts) + 1):
                aliases.setdefault(".".join(parts[-k:]), set()).add(bench)
        self.aliases = aliases
        pattern = "|".join(
            re.escape(a) for a in sorted(aliases, key=len, reverse=True) if "." in a or len(a) > 2
        )
        self.regex = re.compile(rf"(?<![\w.])(?:{pattern})(?![\w])") if pattern else None

    def mentions(self, text: str) -> Iterator[tuple[int, str]]:
        """(position, full benchmark name) for unambiguous mentions in ``text``."""
        if self.regex is None:
            return
        for m in self.regex.finditer(text):
            found = self.aliases.get(m.group(0), set())
            if len(found) == 1:
                yield m.start(), next(iter(found))

    def params(self, text: str) -> Iterator[tuple[int, str, str]]:
        for m in _PARAM.finditer(text):
            if m.group("k") in self.param_names:
                yield m.start(), m.group("k"), m.group("v")


# ------------------------------------------------------------------------------- text


def _delta_quotes(text: str, line: int, offset: int = 0) -> list[tuple[int, Quote]]:
    out = []
    for m in _PERCENT.finditer(text):
        if m.group("pre"):
            continue
        after = text[m.end() :]
        before = text[: m.start()]
        if _NOT_EFFECT_AFTER.match(after) or _NOT_EFFECT_BEFORE.search(before):
            continue
        raw = m.group("v")
        value, decimals = to_number(raw)
        signed = raw[0] in "+-−"
        window = after[:40].lower()
        word = next(
            (
                kind
                for kind, words in DIRECTION_WORDS.items()
                if any(re.match(rf"\s*(?:\)\s*)?{re.escape(w)}\b", window) for w in words)
            ),
            None,
        )
        out.append(
            (
                offset + m.start(),
                Quote(
                    "delta", value, decimals, m.group(0), line, signed=signed, direction_word=word
                ),
            )
        )
    return out


def _score_quotes(
    text: str, line: int, default_unit: str | None = None, offset: int = 0
) -> list[tuple[int, Quote]]:
    out = []
    for m in _SCORE.finditer(text):
        out.append((offset + m.start(), _score(m, line, m.group("u"))))
    if not out and default_unit:
        m = _BARE_SCORE.match(text)
        if m:
            out.append((offset + m.start(), _score(m, line, default_unit)))
    return out


def _score(m: re.Match[str], line: int, unit_text: str) -> Quote:
    value, decimals = to_number(m.group("v"))
    unit, factor = _unit(unit_text)
    q = Quote("score", value, decimals, m.group(0).strip(), line, unit=unit, factor=factor)
    q.metric = BYTES_METRIC if unit == "B/op" else PRIMARY_METRIC
    if m.group("e"):
        q.error, q.error_decimals = to_number(m.group("e"))
    return q


def _assign_text_sides(text: str, quotes: list[tuple[int, Quote]]) -> None:
    """``from A to B`` / ``A → B``: A is the baseline, B the feature; side words win."""
    scores = [(p, q) for p, q in quotes if q.kind == "score"]
    for i, (pos, q) in enumerate(scores):
        start = scores[i - 1][0] if i else max(0, pos - 60)
        window = text[start:pos]
        # the nearest side word before the number, within its clause
        clause = re.split(r"[;.]\s|,\s(?=\D)", window)[-1]
        # "24.6 ops/us after": a side word right behind the number wins
        following = re.split(r"[,;(]", text[pos + len(q.text) : pos + len(q.text) + 16])[0]
        side = side_of(following) or _last_side_word(clause)
        if side:
            q.side = side
    for (p1, q1), (p2, q2) in itertools.pairwise(scores):
        between = text[p1 + len(q1.text) : p2]
        if q1.metric == q2.metric and _ARROW.search(between) and len(between) < 40:
            q1.side = q1.side or BASE
            q2.side = q2.side or HEAD


def _last_side_word(text: str) -> str | None:
    lowered = text.lower()
    best: tuple[int, str] | None = None
    for side, words in SIDE_WORDS.items():
        for w in words:
            for m in re.finditer(rf"(?<![\w-]){re.escape(w)}(?![\w-])", lowered):
                if best is None or m.start() > best[0]:
                    best = (m.start(), side)
    return best[1] if best else None


def _attribute(
    text: str,
    quotes: list[tuple[int, Quote]],
    names: Names,
    bench: str | None,
    params: dict[str, str],
) -> None:
    """Give each quote the benchmark and params named last before it (or right after it)."""
    events = [(p, "bench", b, "") for p, b in names.mentions(text)]
    events += [(p, "param", k, v) for p, k, v in names.params(text)]
    events.sort()
    for pos, q in quotes:
        b, ps = bench, dict(params)
        for e_pos, kind, name, value in events:
            if e_pos >= pos:
                break
            if kind == "bench":
                if name != b:
                    ps = {}
                b = name
            else:
                ps[name] = value
        later = [e for e in events if e[0] > pos]
        if b is None:
            first = next((e for e in later if e[1] == "bench"), None)
            if first is not None:
                b = first[2]
                later = [e for e in later if e[0] > first[0]]
        if not ps:
            for _, kind, name, value in later:
                if kind == "bench":
                    break
                ps[name] = value
        q.benchmark, q.params = b, ps


# ------------------------------------------------------------------------------- tables


@dataclass
class _Column:
    name: str
    role: str  # bench, param, score, error, delta, bytes, unit, other
    side: str | None = None
    unit: str | None = None
    param: str | None = None


def _columns(header: list[str], names: Names) -> list[_Column]:
    cols = []
    for i, raw in enumerate(header):
        h = raw.strip().strip("`*").strip()
        low = h.lower()
        stripped = low.strip("()")
        unit_m = re.search(UNIT, h)
        unit = unit_m.group(0) if unit_m else None
        side = side_of(low)
        if stripped in names.param_names:
            cols.append(_Column(h, "param", param=stripped))
        elif "benchmark" in low or (i == 0 and not side and "Δ" not in h and "%" not in h):
            cols.append(_Column(h, "bench"))
        elif low in ("unit", "units"):
            cols.append(_Column(h, "unit"))
        elif "error" in low or low in ("±", "+/-"):
            cols.append(_Column(h, "error", side))
        elif (
            "Δ" in h
            or "delta" in low
            or "change" in low
            or "diff" in low
            or "%" in low
            or "speedup" in low
        ):
            cols.append(
                _Column(h, "delta", side, "B/op" if unit == "B/op" or "alloc" in low else None)
            )
        elif "b/op" in low or "alloc" in low or "bytes" in low:
            cols.append(_Column(h, "bytes", side, "B/op"))
        elif side or "score" in low or unit:
            cols.append(_Column(h, "score", side, unit))
        else:
            cols.append(_Column(h, "other"))
    return cols


def split_row(line: str) -> list[str]:
    text = line.strip()
    if text.startswith("|"):
        text = text[1:]
    if text.endswith("|") and not text.endswith("\\|"):
        text = text[:-1]
    return [c.strip() for c in re.split(r"(?<!\\)\|", text)]


def _table_row(
    cells: list[str],
    cols: list[_Column],
    line: int,
    names: Names,
    side_hint: str | None,
    group: int,
) -> list[Quote]:
    bench: str | None = None
    params: dict[str, str] = {}
    row_unit: str | None = None
    metric_hint: str | None = None
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
    row_side = side_hint
    for cell, col in zip(cells, cols, strict=False):
        if col.role == "other":
            s = side_of(cell)
            row_side = s or row_side
    quotes: list[Quote] = []
    for cell, col in zip(cells, cols, strict=False):
        clean = cell.replace("`", "").replace("**", "")
        found: list[tuple[int, Quote]] = []
        if col.role in ("score", "bytes"):
            found = _score_quotes(clean, line, col.unit or row_unit)
            for _, q in found:
                q.side = q.side or col.side or row_side
            _assign_text_sides(clean, found)
            found += _delta_quotes(clean, line)
        elif col.role == "delta":
            found = _delta_quotes(clean, line)
            if not found:
                m = _BARE_SCORE.match(clean)
                if m:
                    v, d = to_number(m.group("v"))
                    found = [(0, Quote("delta", v, d, clean, line, signed=clean[:1] in "+-−"))]
            for _, q in found:
                if col.unit == "B/op":
                    q.metric = BYTES_METRIC
        elif col.role == "error":
            m = _BARE_SCORE.match(clean)
            if m and quotes:
                target = next((q for q in reversed(quotes) if q.kind == "score"), None)
                if target is not None and target.error is None:
                    target.error, target.error_decimals = to_number(m.group("v"))
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


# ------------------------------------------------------------------------- JMH console


_JMH_HEADER = re.compile(r"^\s*Benchmark\s+(?P<rest>.*\bMode\b.*\bScore\b.*)$")


def _jmh_console_row(
    text: str, params: list[str], line: int, names: Names, side: str | None, group: int
) -> list[Quote]:
    tokens = text.split()
    if len(tokens) < 4 + len(params):
        return []
    name = tokens[0]
    metric = BYTES_METRIC if "alloc.rate.norm" in name else PRIMARY_METRIC
    if ":" in name and metric != BYTES_METRIC:
        return []
    found = list(names.mentions(name.split(":")[0]))
    if not found:
        return []
    values = dict(zip(params, tokens[1 : 1 + len(params)], strict=True))
    values = {k: v for k, v in values.items() if v != "N/A"}
    rest = " ".join(tokens[1 + len(params) :])
    quotes = [q for _, q in _score_quotes(rest, line)]
    for q in quotes:
        q.benchmark, q.params, q.side, q.group = found[0][1], values, side, group
        q.metric = metric
    return quotes


# ------------------------------------------------------------------------------- document


def parse(text: str, names: Names) -> Parsed:
    """All quotes and overlap claims of a Markdown document, line numbers 1-based."""
    lines = text.splitlines()
    quotes: list[Quote] = []
    claims: list[Claim] = []
    heading_bench: str | None = None
    heading_params: dict[str, str] = {}
    side_hint: str | None = None
    in_code = False
    jmh_params: list[str] | None = None
    group = 0
    i = 0
    while i < len(lines):
        raw = lines[i]
        number = i + 1
        stripped = raw.strip()
        if stripped.startswith("```") or stripped.startswith("~~~"):
            in_code = not in_code
            jmh_params = None
            i += 1
            continue
        if in_code:
            header = _JMH_HEADER.match(raw)
            if header:
                jmh_params = re.findall(r"\((\w+)\)", header.group("rest"))
            elif jmh_params is not None:
                group += 1
                quotes += _jmh_console_row(raw, jmh_params, number, names, side_hint, group)
            i += 1
            continue
        if stripped.startswith("|") and i + 1 < len(lines) and _SEPARATOR.match(lines[i + 1]):
            cols = _columns(split_row(raw), names)
            i += 2
            while i < len(lines) and lines[i].strip().startswith("|"):
                group += 1
                row_quotes = _table_row(split_row(lines[i]), cols, i + 1, names, side_hint, group)
                for q in row_quotes:
                    q.benchmark = q.benchmark or heading_bench
                    q.params = {**heading_params, **q.params}
                quotes += row_quotes
                if _OVERLAP_CLAIM.search(lines[i]):
                    b = row_quotes[0].benchmark if row_quotes else heading_bench
                    p = row_quotes[0].params if row_quotes else heading_params
                    claims.append(Claim(i + 1, lines[i].strip(), b, p))
                i += 1
            continue
        if stripped.startswith("#"):
            mentions = list(names.mentions(stripped))
            heading_bench = mentions[0][1] if mentions else None
            heading_params = {k: v for _, k, v in names.params(stripped)}
            side_hint = side_of(stripped)
            i += 1
            continue
        if _is_caption(stripped) or (stripped and not re.search(r"\d", stripped)):
            # "**Baseline, round 01**", "After:" or a short line naming one side
            hint = side_of(stripped)
            if hint and len(stripped) < 100:
                side_hint = hint
        group += 1
        found = _score_quotes(raw, number) + _delta_quotes(raw, number)
        _assign_text_sides(raw, found)
        _attribute(raw, found, names, heading_bench, heading_params)
        for _, q in found:
            q.group = group
            if q.kind == "delta":
                q.metric = _delta_metric(raw, q, found)
        quotes += [q for _, q in sorted(found, key=lambda x: x[0])]
        if _OVERLAP_CLAIM.search(raw):
            mentions = list(names.mentions(raw))
            claims.append(
                Claim(
                    number,
                    stripped,
                    mentions[0][1] if mentions else heading_bench,
                    {**heading_params, **{k: v for _, k, v in names.params(raw)}},
                )
            )
        i += 1
    return Parsed(quotes, claims)


def _is_caption(text: str) -> bool:
    """A short bold or colon-ended line such as ``**Baseline, round 01**`` or ``After:``."""
    return len(text) < 100 and (text.startswith("**") or text.endswith(":"))


def _delta_metric(text: str, q: Quote, found: list[tuple[int, Quote]]) -> str:
    """A Δ% belongs to the metric of the last score before it, or to time by default."""
    pos = next(p for p, x in found if x is q)
    before = [(p, x) for p, x in found if x.kind == "score" and p < pos]
    if before:
        return before[-1][1].metric or PRIMARY_METRIC
    # only this clause: in "A -94%; bytes/op B 2,048 → 0" the -94% is A's time, not bytes
    window = re.split(r";|\.\s", text[pos : pos + 60])[0].lower()
    if "alloc" in window or "b/op" in window or "bytes" in window:
        return BYTES_METRIC
    return PRIMARY_METRIC
