"""Match each quote of a PR body to what the run measured, at the precision it was written.

A quote is tied to the run's entries by the benchmark and @Param values named with it. A
score or error agrees when a measured value rounds to it (perfproof's fork-level estimate and
interval, or JMH's own score and error, pooled or per round file); a Δ% agrees when it equals
feature/baseline − 1 computed from the quoted numbers of its row or clause, or from the
measured ones; "the intervals do not overlap" must be true of the intervals it names. Each
quote is checked against indexes built once (entries by benchmark, quotes by row and by
line), so a body with many numbers costs time in proportion to its size.
"""

from __future__ import annotations

import math
from collections import defaultdict

from perfproof.audit.overlap import check_claims
from perfproof.audit.quotes import (
    BASE,
    BYTE_METRICS,
    BYTES_METRIC,
    GC_COUNT_METRIC,
    HEAD,
    METRIC_UNITS,
    PRIMARY_METRIC,
    Parsed,
    Quote,
)
from perfproof.audit.truth import Mismatch, Reference, Truth
from perfproof.model import SIDE_WORDS
from perfproof.render.results import params_label, short_name
from perfproof.units import choose_scale, number, signed

# ------------------------------------------------------------------------------- matching


def agrees(quoted: float, decimals: int, measured: float) -> bool:
    """Whether ``measured`` rounds to ``quoted`` at the ``decimals`` it was written with."""
    if not (math.isfinite(measured) and math.isfinite(quoted)):
        return False  # "1e400 ns/op" reads as infinity: it matches nothing
    half = 0.5 * 10.0 ** min(max(-decimals, -320), 300)  # "1e999" has 999 digits "before" 0
    return abs(quoted - measured) <= half * (1 + 1e-9) + 1e-12 * abs(measured)


def _dec(decimals: int) -> int:
    """Decimals to print an expected value with: as quoted, within what a float holds."""
    return min(max(decimals, 0), 17)


def _what(metric: str | None) -> str:
    """What a mismatch calls the number: ``score``, ``bytes/op`` or the cost's name."""
    if metric in (None, PRIMARY_METRIC):
        return "score"
    return "bytes/op" if metric == BYTES_METRIC else f"{metric} per op"


def _candidates(q: Quote, by_bench: dict[str, list[Truth]]) -> list[Truth]:
    return [
        t
        for t in by_bench.get(q.benchmark or "", [])
        if all(t.params.get(k) == v for k, v in q.params.items())
    ]


def _factors(q: Quote, t: Truth) -> list[float]:
    """Factors from the quoted unit to the canonical one (several when no unit was written)."""
    if q.unit is not None:
        return [q.factor] if q.unit == _unit(q, t) else []
    if q.metric in BYTE_METRICS or q.metric == GC_COUNT_METRIC:
        return [1.0]
    refs = t.refs.get((q.metric or PRIMARY_METRIC, BASE)) or [Reference(1.0, [], "")]
    return sorted({1.0, choose_scale(_unit(q, t), refs[0].score).factor})


def _unit(q: Quote, t: Truth) -> str:
    """The canonical unit of what ``q`` quotes: B/op for bytes, a cost's own, else the run's."""
    if q.metric in BYTE_METRICS:
        return "B/op"
    return METRIC_UNITS.get(q.metric or PRIMARY_METRIC, t.unit)


def _score_matches(q: Quote, t: Truth, side: str) -> list[tuple[Reference, float]]:
    """References of ``t`` whose score rounds to the quote, with the factor that made it so."""
    out = []
    for factor in _factors(q, t):
        for ref in t.refs.get((q.metric or "primary", side), []):
            if agrees(q.value, q.decimals, ref.score / factor):
                out.append((ref, factor))
    return out


def _sides(q: Quote) -> tuple[str, ...]:
    return (q.side,) if q.side else (BASE, HEAD)


def _expected_score(q: Quote, t: Truth, side: str) -> str:
    factors = _factors(q, t) or [1.0]
    factor = factors[-1]
    unit = _unit_text(q, factor)
    refs = t.refs.get((q.metric or "primary", side), [])
    if not refs:
        return "not measured"
    main = refs[0]
    text = f"{number(main.score / factor, _dec(q.decimals))}{unit}"
    if q.error is not None and main.errors:
        text = (
            f"{number(main.score / factor, _dec(q.decimals))} ± "
            f"{number(main.errors[-1] / factor, _dec(q.error_decimals))}{unit}"
        )
    jmh = [r for r in refs[1:] if math.isfinite(r.score)]
    if jmh:
        shown = ", ".join(
            number(r.score / factor, _dec(q.decimals))
            + (
                f" ± {number(r.errors[0] / factor, _dec(q.error_decimals))}"
                if q.error is not None and r.errors and math.isfinite(r.errors[0])
                else ""
            )
            for r in jmh
        )
        text += f" (JMH: {shown})"
    return text


def _unit_text(q: Quote, factor: float) -> str:
    return " " + _unit_name(q.unit, factor) if q.unit is not None else ""


def _unit_name(unit: str, factor: float) -> str:
    if unit == "ns/op":
        return {1.0: "ns/op", 1e3: "µs/op", 1e6: "ms/op", 1e9: "s/op"}.get(factor, unit)
    if unit == "ops/s":
        return {1.0: "ops/s", 1e3: "ops/ms", 1e6: "ops/us", 1e9: "ops/ns"}.get(factor, unit)
    return unit


def _check_score(
    q: Quote, cands: list[Truth], all_truths: list[Truth], out: list[Mismatch]
) -> None:
    matched: list[tuple[Reference, float]] = []
    for t in cands:
        for side in _sides(q):
            matched += _score_matches(q, t, side)
    what = _what(q.metric)
    if matched:
        if q.error is None:
            return
        for ref, factor in matched:
            if any(agrees(q.error, q.error_decimals, e / factor) for e in ref.errors):
                return
        t = cands[0]
        side = q.side or BASE
        out.append(
            Mismatch(
                q.line,
                "error",
                q.text,
                _expected_score(q, t, side),
                f"error of {t.label} {SIDE_WORDS.get(side, '')}: quoted "
                f"± {_fmt(q.error, q.error_decimals)} does not match the run; "
                f"measured {_expected_score(q, t, side)}",
            )
        )
        return
    t = cands[0]
    sides = _sides(q)
    expected = "; ".join(f"{SIDE_WORDS[s]} {_expected_score(q, t, s)}" for s in sides)
    who = (
        f"{t.label}"
        if len(cands) == 1
        else f"{short_name(t.benchmark)} (any of {len(cands)} @Param sets)"
    )
    elsewhere = _found_elsewhere(q, cands, all_truths)
    if elsewhere:
        out.append(
            Mismatch(
                q.line,
                "misattributed",
                q.text,
                expected,
                f"{what} quoted for {who} is the run's value for {elsewhere}; "
                f"{who} measured {expected}",
            )
        )
        return
    out.append(
        Mismatch(
            q.line,
            what if what == "score" else "bytes",
            q.text,
            expected,
            f"{what} of {who}: quoted {q.text}, measured {expected}",
        )
    )


def _found_elsewhere(q: Quote, cands: list[Truth], all_truths: list[Truth]) -> str | None:
    for t in all_truths:
        if t in cands:
            continue
        for side in _sides(q):
            if _score_matches(q, t, side):
                return f"{t.label} {SIDE_WORDS[side]}"
    return None


def _fmt(value: float, decimals: int) -> str:
    return number(value, _dec(decimals))


# ------------------------------------------------------------------------------- deltas


def quoted_pairs(quotes: list[Quote]) -> dict[tuple[int, str | None], float]:
    """feature/baseline − 1 (in %) from the first baseline and feature scores quoted in each
    row or clause, per metric: what a Δ% of that row may have been computed from."""
    first: dict[tuple[int, str | None, str], Quote] = {}
    for q in quotes:
        if q.kind == "score" and q.side in (BASE, HEAD):
            first.setdefault((q.group, q.metric, q.side), q)
    out: dict[tuple[int, str | None], float] = {}
    for (group, metric, side), base in first.items():
        head = first.get((group, metric, HEAD))
        if side != BASE or head is None:
            continue
        b, h = base.value * base.factor, head.value * head.factor
        if b != 0 and math.isfinite(b) and math.isfinite(h):
            out[(group, metric)] = (h / b - 1) * 100
    return out


def _check_delta(
    q: Quote, from_quotes: float | None, cands: list[Truth], out: list[Mismatch]
) -> None:
    metric = q.metric or "primary"
    expected: list[tuple[float, str]] = []
    if from_quotes is not None:
        expected.append((from_quotes, "from the quoted numbers"))
    for t in cands:
        measured = t.delta.get(metric)
        if measured is not None and math.isfinite(measured):
            expected.append((measured, "measured"))
    if not expected:
        return
    value = q.value
    sign = _direction_sign(q, cands[0])
    if sign is not None:
        value = sign * abs(q.value)
    if not q.signed and sign is None:
        if any(agrees(abs(value), q.decimals, abs(e)) for e, _ in expected):
            return
    elif any(agrees(value, q.decimals, e) for e, _ in expected):
        return
    shown = "; ".join(f"{signed(e, min(max(q.decimals, 1), 17))}% {how}" for e, how in expected)
    label = cands[0].label if len(cands) == 1 else short_name(cands[0].benchmark)
    what = "Δ%" if metric in (None, PRIMARY_METRIC) else f"{_what(metric)} Δ%"
    if any(agrees(-value, q.decimals, e) for e, _ in expected) and value != 0:
        out.append(
            Mismatch(
                q.line,
                "sign",
                q.text,
                shown,
                f"{what} of {label} has the wrong sign: quoted {q.text}, "
                f"feature/baseline − 1 = {shown}",
            )
        )
        return
    out.append(
        Mismatch(
            q.line,
            "delta",
            q.text,
            shown,
            f"{what} of {label}: quoted {q.text}, feature/baseline − 1 = {shown}",
        )
    )


def _direction_sign(q: Quote, t: Truth) -> int | None:
    """The sign an unsigned "12% faster" or "3% less" has as feature/baseline − 1."""
    if q.signed or not q.direction_word:
        return None
    higher_better = t.direction == "higher" and q.metric in (None, PRIMARY_METRIC)
    if q.direction_word == "faster":
        return 1 if higher_better else -1
    if q.direction_word == "slower":
        return -1 if higher_better else 1
    return -1 if q.direction_word == "down" else 1


def match_quotes(parsed: Parsed, all_truths: list[Truth]) -> tuple[int, int, list[Mismatch]]:
    """(numbers and claims checked, numbers tied to no benchmark, mismatches by line)."""
    by_bench: dict[str, list[Truth]] = defaultdict(list)
    for t in all_truths:
        by_bench[t.benchmark].append(t)
    pairs = quoted_pairs(parsed.quotes)
    mismatches: list[Mismatch] = []
    missing: set[tuple[int, str]] = set()
    checked = unattributed = 0
    for q in parsed.quotes:
        if q.benchmark is None:
            unattributed += 1
            continue
        checked += 1
        cands = _candidates(q, by_bench)
        if not cands:
            _not_in_run(q, by_bench, missing, mismatches)
        elif q.kind == "score":
            _check_score(q, cands, all_truths, mismatches)
        else:
            _check_delta(q, pairs.get((q.group, q.metric)), cands, mismatches)
    check_claims(parsed.claims, parsed.quotes, all_truths, mismatches)
    checked += len(parsed.claims)
    mismatches.sort(key=lambda m: m.line)
    return checked, unattributed, mismatches


def _not_in_run(
    q: Quote,
    by_bench: dict[str, list[Truth]],
    missing: set[tuple[int, str]],
    out: list[Mismatch],
) -> None:
    """One mismatch per line and entry for a benchmark or @Param set the run did not measure."""
    wanted = short_name(q.benchmark or "")
    if q.params:
        wanted += f" ({params_label(q.params)})"
    if (q.line, wanted) in missing:
        return
    missing.add((q.line, wanted))
    have = ", ".join(sorted({params_label(t.params) for t in by_bench.get(q.benchmark or "", [])}))
    have = have or "none"
    out.append(
        Mismatch(
            q.line,
            "not-in-run",
            q.text,
            f"@Param sets in the run: {have}",
            f"{wanted} was not measured in this run (its @Param sets: {have})",
        )
    )
