"""Verify the numbers a hand-written PR body quotes against a run's data.

Hand-written evidence goes wrong in small ways: a score copied from the wrong row, an error
from another run, a Δ% rounded the wrong way or with the wrong sign, "the intervals do not
overlap" when they do. Each quote found by :mod:`perfproof.audit.quoted` is matched to the
run's comparisons by the benchmark and @Param values named with it, and checked at the
precision it was written at: a score or error agrees when the measured value rounds to it
(perfproof's fork-level estimate and interval, or JMH's own score and error, pooled or per
round file); a Δ% agrees when it equals feature/baseline − 1 computed from the quoted numbers
or from the measured ones.
"""

from __future__ import annotations

import math
import re
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from perfproof.audit.quoted import BASE, BYTES_METRIC, HEAD, Claim, Names, Quote, parse
from perfproof.errors import InputError
from perfproof.jmh.names import normalise_metric
from perfproof.jmh.units import canonical
from perfproof.model import ALLOC_NORM, PRIMARY
from perfproof.report.context import entry_key, metric_of, params_label, short_name
from perfproof.report.rundir import RunFolder, load_run
from perfproof.report.units import choose_scale, decimals_for, number, signed

SCHEMA = "perfproof.check/1"
SIDE_WORDS = {BASE: "baseline", HEAD: "feature"}


@dataclass
class Reference:
    """A score and the errors that may be quoted with it, from one source."""

    score: float
    errors: list[float]
    source: str
    unit: str = ""


@dataclass
class Truth:
    """What the run measured for one benchmark entry (all values in canonical units)."""

    benchmark: str
    mode: str
    params: dict[str, str]
    unit: str
    direction: str
    refs: dict[tuple[str, str], list[Reference]] = field(default_factory=dict)
    delta: dict[str, float] = field(default_factory=dict)
    ci: dict[str, tuple[float, float]] = field(default_factory=dict)
    jmh_interval: dict[str, tuple[float, float]] = field(default_factory=dict)
    compared: bool = True

    @property
    def label(self) -> str:
        text = short_name(self.benchmark)
        return f"{text} ({params_label(self.params)})" if self.params else text


@dataclass
class Mismatch:
    """One quoted number that the run does not support, with the value it should have."""

    line: int
    kind: str
    quoted: str
    expected: str
    message: str


@dataclass
class CheckResult:
    file: str
    run_dir: str
    checked: int
    unattributed: int
    mismatches: list[Mismatch]

    @property
    def ok(self) -> bool:
        return not self.mismatches

    def document(self) -> dict[str, Any]:
        return {
            "schema": SCHEMA,
            "file": self.file,
            "run_dir": self.run_dir,
            "ok": self.ok,
            "checked": self.checked,
            "unattributed": self.unattributed,
            "mismatches": [asdict(m) for m in self.mismatches],
        }


# ------------------------------------------------------------------------------- truth


def _f(value: Any) -> float:
    try:
        return float(value)
    except (TypeError, ValueError):
        return math.nan


def _side_refs(c: dict[str, Any], side: str) -> list[Reference]:
    s = c.get(side) or {}
    est = _f(s.get("estimate"))
    ci = s.get("ci") or [None, None]
    lo, hi = _f(ci[0]), _f(ci[1])
    errors = [e for e in (hi - est, est - lo, (hi - lo) / 2) if math.isfinite(e)]
    refs = [Reference(est, errors, "perfproof")]
    j = c.get("jmh") or {}
    if j.get(f"{side}_score") is not None:
        refs.append(Reference(_f(j[f"{side}_score"]), [_f(j.get(f"{side}_error"))], "JMH"))
    return refs


def _raw_refs(run: RunFolder) -> dict[tuple[Any, ...], list[Reference]]:
    """JMH's score ± error of every raw file, keyed by (entry, metric, side)."""
    out: dict[tuple[Any, ...], list[Reference]] = {}
    for raw in run.raw:
        for e in raw.entries:
            if not isinstance(e, dict):
                continue
            key = (
                str(e.get("benchmark")),
                str(e.get("mode")),
                tuple(sorted((str(k), str(v)) for k, v in (e.get("params") or {}).items())),
            )
            metrics = [(PRIMARY, e.get("primaryMetric") or {})]
            metrics += [
                (ALLOC_NORM, m)
                for n, m in (e.get("secondaryMetrics") or {}).items()
                if normalise_metric(n) == ALLOC_NORM
            ]
            for metric, m in metrics:
                unit, factor = canonical(str(m.get("scoreUnit", "")))
                ref = Reference(
                    _f(m.get("score")) * factor,
                    [_f(m.get("scoreError")) * factor],
                    f"JMH {raw.path.name}",
                    unit,
                )
                out.setdefault((*key, metric, raw.side), []).append(ref)
    return out


def truths(run: RunFolder) -> list[Truth]:
    comparisons = [c for c in run.compare.get("comparisons") or [] if isinstance(c, dict)]
    raw = _raw_refs(run)
    out: dict[tuple[Any, ...], Truth] = {}
    for c in comparisons:
        bench, mode, params = entry_key(c)
        t = out.get((bench, mode, params))
        if t is None and metric_of(c) == PRIMARY:
            t = Truth(bench, mode, dict(params), str(c.get("unit")), str(c.get("direction")))
            out[(bench, mode, params)] = t
        if t is None:
            continue
        metric = PRIMARY if metric_of(c) == PRIMARY else BYTES_METRIC
        if metric_of(c) not in (PRIMARY, ALLOC_NORM):
            continue
        t.delta[metric] = _f(c.get("delta_pct"))
        for side in (BASE, HEAD):
            refs = _side_refs(c, side) + raw.get((bench, mode, params, metric_of(c), side), [])
            t.refs[(metric, side)] = refs
            if metric == PRIMARY:
                ci = (c.get(side) or {}).get("ci") or [None, None]
                t.ci[side] = (_f(ci[0]), _f(ci[1]))
                j = c.get("jmh") or {}
                s, e = _f(j.get(f"{side}_score")), _f(j.get(f"{side}_error"))
                t.jmh_interval[side] = (s - e, s + e)
    _add_uncompared(out, raw)
    return list(out.values())


def _add_uncompared(
    out: dict[tuple[Any, ...], Truth], raw: dict[tuple[Any, ...], list[Reference]]
) -> None:
    """Entries with raw JMH numbers but no comparison (one side only): JMH's numbers still count."""
    for (bench, mode, params, metric, side), refs in raw.items():
        t = out.get((bench, mode, params))
        if t is None:
            t = Truth(bench, mode, dict(params), "", "", compared=False)
            out[(bench, mode, params)] = t
        if t.compared:
            continue
        if metric == PRIMARY:
            t.unit = refs[0].unit
        key = (PRIMARY if metric == PRIMARY else BYTES_METRIC, side)
        t.refs.setdefault(key, []).extend(refs)


# ------------------------------------------------------------------------------- matching


def agrees(quoted: float, decimals: int, measured: float) -> bool:
    """Whether ``measured`` rounds to ``quoted`` at the ``decimals`` it was written with."""
    if not math.isfinite(measured):
        return False
    half = 0.5 * 10.0 ** (-decimals)
    return abs(quoted - measured) <= half * (1 + 1e-9) + 1e-12 * abs(measured)


def _candidates(q: Quote, all_truths: list[Truth]) -> list[Truth]:
    return [
        t
        for t in all_truths
        if t.benchmark == q.benchmark and all(t.params.get(k) == v for k, v in q.params.items())
    ]


def _factors(q: Quote, t: Truth) -> list[float]:
    """Factors from the quoted unit to the canonical one (several when no unit was written)."""
    if q.unit is not None:
        unit = "B/op" if q.metric == BYTES_METRIC else t.unit
        return [q.factor] if q.unit == unit else []
    if q.metric == BYTES_METRIC:
        return [1.0]
    refs = t.refs.get((q.metric or PRIMARY, BASE)) or [Reference(1.0, [], "")]
    return sorted({1.0, choose_scale(t.unit, refs[0].score).factor})


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
    text = f"{number(main.score / factor, max(q.decimals, 0))}{unit}"
    if q.error is not None and main.errors:
        text = (
            f"{number(main.score / factor, max(q.decimals, 0))} ± "
            f"{number(main.errors[-1] / factor, max(q.error_decimals, 0))}{unit}"
        )
    jmh = [r for r in refs[1:] if math.isfinite(r.score)]
    if jmh:
        shown = ", ".join(
            number(r.score / factor, max(q.decimals, 0))
            + (
                f" ± {number(r.errors[0] / factor, max(q.error_decimals, 0))}"
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
    what = "bytes/op" if q.metric == BYTES_METRIC else "score"
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
    return number(value, max(decimals, 0))


# ------------------------------------------------------------------------------- deltas


def _quoted_delta(q: Quote, quotes: list[Quote], t: Truth) -> float | None:
    """feature/baseline − 1 from the two scores quoted with this Δ% (same row or clause)."""
    mine = [x for x in quotes if x.group == q.group and x.kind == "score" and x.metric == q.metric]
    base = next((x for x in mine if x.side == BASE), None)
    head = next((x for x in mine if x.side == HEAD), None)
    if base is None or head is None:
        return None
    b, h = base.value * base.factor, head.value * head.factor
    if b == 0 or not math.isfinite(b) or not math.isfinite(h):
        return None
    return (h / b - 1) * 100


def _check_delta(q: Quote, quotes: list[Quote], cands: list[Truth], out: list[Mismatch]) -> None:
    metric = q.metric or "primary"
    expected: list[tuple[float, str]] = []
    for t in cands:
        from_quotes = _quoted_delta(q, quotes, t)
        if from_quotes is not None:
            expected.append((from_quotes, "from the quoted numbers"))
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
    shown = "; ".join(f"{signed(e, max(q.decimals, 1))}% {how}" for e, how in expected)
    label = cands[0].label if len(cands) == 1 else short_name(cands[0].benchmark)
    what = "bytes/op Δ%" if metric == BYTES_METRIC else "Δ%"
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
    higher_better = t.direction == "higher" and q.metric != BYTES_METRIC
    if q.direction_word == "faster":
        return 1 if higher_better else -1
    if q.direction_word == "slower":
        return -1 if higher_better else 1
    return -1 if q.direction_word == "down" else 1


# ------------------------------------------------------------------------------- overlap


def _overlaps(a: tuple[float, float], b: tuple[float, float]) -> bool:
    return a[0] <= b[1] and b[0] <= a[1]


def _check_claims(
    parsed_claims: list[Claim],
    quotes: list[Quote],
    all_truths: list[Truth],
    out: list[Mismatch],
) -> None:
    mentioned = {q.benchmark for q in quotes if q.benchmark}
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
            for q in quotes
            if q.line == claim.line
            and q.kind == "score"
            and q.error is not None
            and q.metric != BYTES_METRIC
        ]
        qb = next((q for q in line_quotes if q.side == BASE), None)
        qh = next((q for q in line_quotes if q.side == HEAD), None)
        if qb is not None and qh is not None:
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


# ------------------------------------------------------------------------------- entry


def check_text(text: str, run: RunFolder, name: str = "PR.md") -> CheckResult:
    all_truths = truths(run)
    names = Names(
        sorted({t.benchmark for t in all_truths}),
        sorted({k for t in all_truths for k in t.params}),
    )
    parsed = parse(text, names)
    mismatches: list[Mismatch] = []
    missing: set[tuple[int, str]] = set()
    checked = unattributed = 0
    for q in parsed.quotes:
        if q.benchmark is None:
            unattributed += 1
            continue
        cands = _candidates(q, all_truths)
        if not cands:
            checked += 1
            wanted = short_name(q.benchmark)
            if q.params:
                wanted += f" ({params_label(q.params)})"
            have = (
                ", ".join(
                    sorted(
                        {params_label(t.params) for t in all_truths if t.benchmark == q.benchmark}
                    )
                )
                or "none"
            )
            if (q.line, wanted) in missing:
                continue
            missing.add((q.line, wanted))
            mismatches.append(
                Mismatch(
                    q.line,
                    "not-in-run",
                    q.text,
                    f"@Param sets in the run: {have}",
                    f"{wanted} was not measured in this run (its @Param sets: {have})",
                )
            )
            continue
        checked += 1
        if q.kind == "score":
            _check_score(q, cands, all_truths, mismatches)
        else:
            _check_delta(q, parsed.quotes, cands, mismatches)
    _check_claims(parsed.claims, parsed.quotes, all_truths, mismatches)
    checked += len(parsed.claims)
    mismatches.sort(key=lambda m: m.line)
    return CheckResult(name, "", checked, unattributed, mismatches)


def check_file(pr_path: str | Path, run_dir: str | Path) -> CheckResult:
    """Check a PR body file against a run folder (InputError if either is unreadable)."""
    path = Path(pr_path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError as exc:
        raise InputError(f"{path}: no such file") from exc
    except UnicodeDecodeError as exc:
        raise InputError(f"{path}: not UTF-8 text") from exc
    except OSError as exc:
        raise InputError(f"{path}: cannot read: {exc.strerror or exc}") from exc
    run = load_run(run_dir)
    result = check_text(text, run, str(path))
    result.run_dir = str(run_dir)
    return result


def render_table(result: CheckResult) -> str:
    lines = [f"{result.file}:{m.line}: {m.kind}: {m.message}" for m in result.mismatches]
    verdict = "all match" if result.ok else f"{len(result.mismatches)} mismatch(es)"
    tail = f"{result.checked} numbers and claims checked against {result.run_dir}: {verdict}"
    if result.unattributed:
        tail += f" ({result.unattributed} numbers not tied to a benchmark of the run were skipped)"
    return "\n".join([*lines, tail]) + "\n"
