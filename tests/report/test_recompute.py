"""Every number in the Markdown report's summary and results is recomputed from results.json.

The report is parsed back here with its own small parser (not perfproof's), and each number
must equal the corresponding results.json value at the precision it is printed with; every
numeric token of the results tables must be accounted for, so no number can slip in that does
not trace to the data.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from scipy import stats

from perfproof.report import render

FACTORS = {
    "ns/op": 1.0,
    "µs/op": 1e3,
    "ms/op": 1e6,
    "s/op": 1e9,
    "ops/s": 1.0,
    "k ops/s": 1e3,
    "M ops/s": 1e6,
    "G ops/s": 1e9,
    "B/op": 1.0,
}
NUM = r"[-+]?[\d,]+(?:\.\d+)?"


RATIO_NUM = rf"{NUM}(?:e[-+]\d+)?"
"""A ratio's bound may be far from 1: ``2.39e-05``."""


def _num(text: str) -> tuple[float, float]:
    """Value and half a unit in its last printed place."""
    clean = text.replace(",", "").replace("+", "")
    mantissa, _, exponent = clean.partition("e")
    decimals = len(mantissa.split(".")[1]) if "." in mantissa else 0
    decimals -= int(exponent or 0)
    return float(clean), 0.5 * 10.0**-decimals


def _close(text: str, truth: float, factor: float = 1.0) -> bool:
    value, half = _num(text)
    return abs(value * factor - truth) <= half * factor * (1 + 1e-9)


def _tables(md: str) -> list[tuple[str, list[str], list[list[str]]]]:
    out = []
    lines = md.splitlines()
    for i, line in enumerate(lines):
        m = re.match(r"^#### `([^`]+)`", line)
        if not m:
            continue
        header = [c.strip() for c in lines[i + 2].strip("|").split("|")]
        rows = []
        j = i + 4
        while j < len(lines) and lines[j].startswith("|"):
            rows.append([c.strip() for c in lines[j].strip().strip("|").split("|")])
            j += 1
        out.append((m.group(1), header, rows))
    return out


def _find(doc: dict[str, Any], bench: str, params: dict[str, str], metric: str) -> dict[str, Any]:
    found = [
        c
        for c in doc["comparisons"]
        if c["benchmark"] == bench and c["params"] == params and c["metric"] == metric
    ]
    assert len(found) == 1, (bench, params, metric)
    return found[0]


def _check_spread(text: str, estimate: float, half: float) -> None:
    """``± 4.1%`` is the half-width relative to the estimate."""
    assert _close(text, half / abs(estimate) * 100), (text, estimate, half)


def _at_row_level(side: dict[str, Any], confidence: float, level: float) -> tuple[float, float]:
    """The side's interval (Student's t on its fork means at ``confidence``) at the row's level:
    the half-widths scaled by the ratio of the two critical values, n − 1 degrees of freedom."""
    lo, hi = side["ci"]
    df = side["forks"] - 1
    factor = stats.t.ppf(0.5 + level / 2, df) / stats.t.ppf(0.5 + confidence / 2, df)
    est = side["estimate"]
    return est - (est - lo) * factor, est + (hi - est) * factor


def _check_side(cell: str, side: dict[str, Any], confidence: float, level: float) -> int:
    """``412 ns/op ± 4.1%``, or a wide interval as its ends: ``12.8 µs/op [5.21, 88.4]``; the
    interval is at the row's level, not the run's nominal one."""
    lo, hi = _at_row_level(side, confidence, level)
    ends = re.fullmatch(rf"({NUM}) ((?:[kMG] )?\S+) \[({NUM}), ({NUM})\]", cell)
    if ends:
        factor = FACTORS[ends.group(2)]
        assert _close(ends.group(1), side["estimate"], factor), (cell, side)
        # an interval reaching below zero is shown cut at 0 (no time or rate is negative)
        cut = ends.group(3) == "0" and lo < 0
        assert cut or _close(ends.group(3), lo, factor), cell
        assert _close(ends.group(4), hi, factor), cell
        return 3
    m = re.fullmatch(rf"({NUM}) ((?:[kMG] )?\S+) ± ({NUM})%", cell)
    assert m, cell
    factor = FACTORS[m.group(2)]
    assert _close(m.group(1), side["estimate"], factor), (cell, side)
    _check_spread(m.group(3), side["estimate"], (hi - lo) / 2)
    return 2


def _bound(text: str, truth: float | None) -> int:
    if text == "∞":
        assert truth is None  # unbounded: null in results.json
        return 1
    assert truth is not None and _close(text, truth), (text, truth)
    return 1


def _check_delta(cell: str, c: dict[str, Any]) -> int:
    wide = re.fullmatch(rf"×({RATIO_NUM}) \(interval too wide: (\d+) forks a side\)", cell)
    if wide:  # past 1,000× the ratio (or unbounded): the ratio and the forks per side
        lo, hi = c["ratio_ci"]
        assert _close(wide.group(1), c["ratio"]), (cell, c["ratio"])
        assert int(wide.group(2)) == c["base"]["forks"] == c["head"]["forks"], cell
        ratio = c["ratio"]
        assert lo is None or hi is None or hi > ratio * 1000 or lo * 1000 < ratio, cell
        return 2
    bound = rf"{NUM}|∞"
    ratio_bound = rf"{RATIO_NUM}|∞"
    ratio = re.fullmatch(rf"×({RATIO_NUM}) \[({ratio_bound}), ({ratio_bound})\]", cell)
    if ratio:  # beyond ten-fold: the ratio and its interval
        lo, hi = c["ratio_ci"]
        assert _close(ratio.group(1), c["ratio"]), (cell, c["ratio"])
        return 1 + _bound(ratio.group(2), lo) + _bound(ratio.group(3), hi)
    m = re.fullmatch(rf"({NUM})% \[({bound}), ({bound})\]", cell)
    assert m, cell
    assert _close(m.group(1), c["delta_pct"]), (cell, c["delta_pct"])
    return 1 + _bound(m.group(2), c["delta_ci_pct"][0]) + _bound(m.group(3), c["delta_ci_pct"][1])


def _check_bytes(cell: str, a: dict[str, Any]) -> int:
    m = re.fullmatch(rf"({NUM}) → ({NUM}) B/op \((.*)\)", cell)
    assert m, cell
    for text, side in ((m.group(1), a["base"]), (m.group(2), a["head"])):
        est = side["estimate"]
        assert _close(text, est) or (text == "0" and abs(est) < 0.5), (cell, est)
    pct = re.fullmatch(rf"({NUM})%", m.group(3))
    if pct:
        assert _close(pct.group(1), a["delta_pct"]), (cell, a["delta_pct"])
        return 3
    assert m.group(3) in ("no allocation", "new allocation")
    return 2


COST_COLUMNS = {
    "direct B/op": "direct.alloc.norm",
    "native B/op": "native.alloc.norm",
    "GC time/op": "gc.time.norm",
    "GCs per 10⁶ ops": "gc.count.norm",
}
"""The cost columns a table may carry (where some row has something to say), by header."""


def _check_cost(cell: str, c: dict[str, Any], metric: str) -> int:
    """``10,240 → 0 B/op (-100.0%)``; ``5.68 → 2.84 (-50.0% [-56.8, -42.2]) improved``:
    collections per million operations, GC time in a time unit, each change as Δ% cells are."""
    if metric.endswith("alloc.norm"):
        return _check_bytes(cell, c)
    m = re.fullmatch(rf"({NUM})( \S+)? → ({NUM})( \S+)? \((.*)\) (\w+)", cell)
    assert m, cell
    per = 1e-6 if metric == "gc.count.norm" else 1.0
    for text, unit, side in (
        (m.group(1), m.group(2), c["base"]),
        (m.group(3), m.group(4), c["head"]),
    ):
        factor = FACTORS[unit.strip()] if unit else per
        assert _close(text, side["estimate"], factor) or text == "0" == str(side["estimate"])[:1]
    assert m.group(6) == c["verdict"]
    return 2 + _check_delta(m.group(5), c)


@pytest.mark.parametrize("kind", ["ab", "compare"])
def test_every_results_number_traces_to_results_json(
    kind: str, make_run_folder: Callable[[str], Path]
) -> None:
    run = make_run_folder(kind)
    doc = json.loads((run / "results.json").read_text())
    md = render(run, "md")
    tables = _tables(md)
    primaries = [c for c in doc["comparisons"] if c["metric"] == "primary"]
    assert sum(len(rows) for _, _, rows in tables) == len(primaries)
    for bench, header, rows in tables:
        params_cols = header[: header.index("Baseline")]
        for row in rows:
            params = dict(zip(params_cols, row, strict=False))
            cells = dict(zip(header, row, strict=True))
            c = _find(doc, bench, params, "primary")
            a = _find(doc, bench, params, "gc.alloc.rate.norm")
            conf, level_of_row = doc["confidence"], c["interval_confidence"]
            verified = _check_side(cells["Baseline"], c["base"], conf, level_of_row)
            verified += _check_side(cells["Feature"], c["head"], conf, level_of_row)
            (delta_header,) = [h for h in header if h.startswith("Δ% [")]
            level = re.fullmatch(rf"Δ% \[({NUM})% CI\]", delta_header)
            assert level and _close(level.group(1), c["interval_confidence"] * 100)
            verified += _check_delta(cells[delta_header], c)
            verified += _check_bytes(cells["B/op baseline → feature (Δ%)"], a)
            assert cells["Verdict"] == c["verdict"]
            for name, metric in COST_COLUMNS.items():
                shown = [h for h in header if h.startswith(name)]
                if shown:
                    cost = _find(doc, bench, params, metric)
                    verified += _check_cost(cells[shown[0]], cost, metric)
            numbers = [
                t
                for cell in row[len(params_cols) :]
                for t in re.findall(rf"(?<![\w.]){RATIO_NUM}", cell)
            ]
            assert verified == len(numbers), (row, numbers)


def test_summary_numbers_trace_to_results_json(make_run_folder: Callable[[str], Path]) -> None:
    """The summary counts rows of the tables: faster, allocating less, regressed, the rest."""
    run = make_run_folder("ab")
    doc = json.loads((run / "results.json").read_text())
    md = render(run, "md")
    summary = next(line for line in md.splitlines() if line.startswith("**Summary:**"))
    primary = [c for c in doc["comparisons"] if c["metric"] == "primary"]
    alloc = [c for c in doc["comparisons"] if c["metric"] == "gc.alloc.rate.norm"]
    improved = [c for c in primary if c["verdict"] == "improved"]
    regressed = [c for c in primary if c["verdict"] == "regressed"]
    less = sum(1 for c in alloc if c["verdict"] == "improved")
    m = re.search(
        r"(\d+) of (\d+) faster, (\d+) allocates? less, (\d+) regressed \(([-+]\d+)%\), "
        r"(\d+) undecided",
        summary,
    )
    assert m, summary
    assert int(m.group(1)) == len(improved) and int(m.group(2)) == len(primary)
    assert int(m.group(3)) == less and int(m.group(4)) == len(regressed) == 1
    assert _close(m.group(5), regressed[0]["delta_pct"])
    assert int(m.group(6)) == len(primary) - len(improved) - len(regressed)
    assert "(α = 1%, Benjamini–Hochberg, 1% threshold)" in summary
    assert not any(c["verdict"] == "same" for c in primary) and "unchanged" not in summary
    assert doc["confidence"] == 0.99 and doc["threshold"] == 0.01
    assert len(summary) < 200  # counts, not a list of every key


def test_jmh_view_traces_to_results_json(make_run_folder: Callable[[str], Path]) -> None:
    run = make_run_folder("ab")
    doc = json.loads((run / "results.json").read_text())
    md = render(run, "md")
    rows = re.findall(r"^\| (Codes\.sum \(n=128\)) \| (.+?) \| (.+?) \| (yes|no) \|$", md, re.M)
    assert len(rows) == 1
    _, base, head, overlap = rows[0]
    j = _find(doc, "fx.Codes.sum", {"n": "128"}, "primary")["jmh"]
    for cell, side in ((base, "base"), (head, "head")):
        m = re.fullmatch(rf"({NUM}) ns/op ± ({NUM})%", cell)
        assert m, cell
        assert _close(m.group(1), j[f"{side}_score"])
        _check_spread(m.group(2), j[f"{side}_score"], j[f"{side}_error"])
    assert overlap == ("yes" if j["overlap"] else "no")
