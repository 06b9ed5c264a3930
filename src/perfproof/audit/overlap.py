"""Claims that two intervals "do not overlap", checked against the intervals they name.

A claim names its benchmark (and @Param values) like any quote. When the same line quotes
both sides' score ± error, those intervals are checked first; otherwise the run's own
intervals are: JMH's 99.9% ones when the claim speaks of JMH or its error, perfproof's
fork-level ones otherwise.
"""

from __future__ import annotations

import re
from collections import defaultdict

from perfproof.audit.quotes import BASE, BYTES_METRIC, HEAD, Claim, Quote
from perfproof.audit.truth import Mismatch, Truth
from perfproof.model import SIDE_WORDS
from perfproof.units import choose_scale, decimals_for, number


def _fmt(value: float, decimals: int) -> str:
    return number(value, min(max(decimals, 0), 17))


def _overlaps(a: tuple[float, float], b: tuple[float, float]) -> bool:
    return a[0] <= b[1] and b[0] <= a[1]


def check_claims(
    parsed_claims: list[Claim],
    quotes: list[Quote],
    all_truths: list[Truth],
    out: list[Mismatch],
) -> None:
    mentioned = {q.benchmark for q in quotes if q.benchmark}
    by_line: dict[int, list[Quote]] = defaultdict(list)
    for q in quotes:
        by_line[q.line].append(q)
    for claim in parsed_claims:
        if claim.benchmark:
            cands = [
                t
                for t in all_truths
                if t.benchmark == claim.benchmark
                and all(t.params.get(k) == v for k, v in claim.params.items())
            ]
        else:
            cands = [t for t in all_truths if t.benchmark in mentioned]
        jmh = bool(re.search(r"\bJMH\b|scoreError|\berror", claim.text, re.I))
        line_quotes = [
            q
            for q in by_line.get(claim.line, [])
            if q.kind == "score" and q.error is not None and q.metric != BYTES_METRIC
        ]
        qb = next((q for q in line_quotes if q.side == BASE), None)
        qh = next((q for q in line_quotes if q.side == HEAD), None)
        if qb is not None and qh is not None and qb.error is not None and qh.error is not None:
            ib = (qb.value - qb.error, qb.value + qb.error)
            ih = (qh.value - qh.error, qh.value + qh.error)
            if _overlaps(ib, ih):
                out.append(
                    Mismatch(
                        claim.line,
                        "overlap",
                        claim.text,
                        "the quoted intervals overlap",
                        f"claims no overlap, but the quoted intervals {qb.text} and "
                        f"{qh.text} overlap",
                    )
                )
                continue
        for t in cands:
            ivs = t.jmh_interval if jmh else t.ci
            if BASE not in ivs or HEAD not in ivs:
                continue
            if _overlaps(ivs[BASE], ivs[HEAD]):
                scale = choose_scale(t.unit, t.refs[("primary", BASE)][0].score)
                d = max(
                    decimals_for((ivs[s][1] - ivs[s][0]) / 2 / scale.factor, 1.0, sig=3)
                    for s in (BASE, HEAD)
                )
                shown = " and ".join(
                    f"{SIDE_WORDS[s]} [{_fmt(ivs[s][0] / scale.factor, d)}, "
                    f"{_fmt(ivs[s][1] / scale.factor, d)}] {scale.unit}"
                    for s in (BASE, HEAD)
                )
                kind = "JMH's 99.9% intervals" if jmh else "the fork-level intervals"
                out.append(
                    Mismatch(
                        claim.line,
                        "overlap",
                        claim.text,
                        f"{kind} overlap: {shown}",
                        f"claims no overlap for {t.label}, but {kind} overlap: {shown}",
                    )
                )
                break
