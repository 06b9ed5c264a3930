"""Exports never pass a bound the data cannot support.

A run with two forks a side gives Student's t one degree of freedom (t = 63.7 at 99%); one
noisy key (forks 1× and 40× apart) then has a log-scale interval reaching 10⁵⁰ ns. Bencher's
``lower_value``/``upper_value`` and github-action-benchmark's ``range`` are optional: such an
interval is left out, the JSON report says which and why, and every other key keeps its own.
"""

from __future__ import annotations

import csv
import json
import re
import shutil
from pathlib import Path

import pytest
from jsonschema import Draft7Validator
from tests.export.test_consumer_schemas import BMF, GAB, RANGE

from perfproof.units.bounds import MAX_BOUND_FACTOR

NOISY = ("fx.Codes.sum", "16")


@pytest.fixture
def two_forks(make_run_folder, tmp_path: Path) -> Path:
    """The recorded run cut to its first round (2 forks a side), one key's head forks 40× apart."""
    run = tmp_path / "run"
    shutil.copytree(make_run_folder("ab"), run)
    for f in (run / "jmh").glob("02-*.json"):
        f.unlink()
    (run / "results.json").unlink()  # recomputed from the raw files that are left
    head = run / "jmh" / "01-head.json"
    entries = json.loads(head.read_text())
    for e in entries:
        if (e["benchmark"], (e.get("params") or {}).get("n")) == NOISY:
            raw = e["primaryMetric"]["rawData"]
            assert len(raw) == 2
            raw[1] = [v * 40 for v in raw[1]]
    head.write_text(json.dumps(entries))
    return run


def _within(value: float, lo: float, hi: float) -> bool:
    return value / MAX_BOUND_FACTOR <= lo <= value <= hi <= value * MAX_BOUND_FACTOR


def test_bencher_leaves_out_the_unsupported_interval_and_says_why(two_forks, run_cli, tmp_path):
    out = tmp_path / "bmf.json"
    r = run_cli("export", two_forks, "--to", "bencher", "--out", out, "--format", "json")
    assert r.code == 0, r.err
    doc = json.loads(out.read_text())
    assert not list(Draft7Validator(BMF).iter_errors(doc))
    noisy = doc["fx.Codes.sum(n=16)"]["latency"]
    assert set(noisy) == {"value"}
    bounded = [m for measures in doc.values() for m in measures.values() if "upper_value" in m]
    assert bounded, "the other keys keep their intervals"
    for m in bounded:
        assert _within(m["value"], m["lower_value"], m["upper_value"]), m
    (written,) = json.loads(r.out)["files"]
    reasons = written["omitted_intervals"]
    assert any(r.startswith("fx.Codes.sum(n=16) latency: its interval") for r in reasons)
    for reason in reasons:  # even the recorded forks alone reach 10²¹ with 2 of them
        assert "beyond 1,000× the value" in reason and "(2 forks)" in reason
    left_out = [n for n, ms in doc.items() for m in ms.values() if "upper_value" not in m]
    assert len(reasons) == len(left_out)


def test_github_action_benchmark_leaves_out_the_range(two_forks, run_cli, tmp_path):
    out = tmp_path / "gab"
    r = run_cli("export", two_forks, "--to", "github-action-benchmark", "--out", out)
    assert r.code == 0, r.err
    assert "interval(s) left out" in r.out
    entries = json.loads((out / "customSmallerIsBetter.json").read_text())
    assert not list(Draft7Validator(GAB).iter_errors(entries))
    by_name = {e["name"]: e for e in entries}
    noisy = by_name["fx.Codes.sum(n=16)"]
    assert "range" not in noisy and "left out" in noisy["extra"]
    for e in entries:
        if "range" in e:
            assert RANGE.match(e["range"])
            assert float(e["range"][2:]) <= e["value"] * MAX_BOUND_FACTOR
        numbers = (
            [float(x) for x in re.findall(r"CI ([0-9.e+-]+) to ([0-9.e+-]+)", e["extra"])[0]]
            if "CI" in e["extra"]
            else []
        )
        if numbers:
            assert _within(e["value"], *numbers)


def test_benchstat_gets_the_forks_and_computes_its_own_interval(two_forks, run_cli, tmp_path):
    """benchstat reads samples, never a bound: its input is the fork means, unchanged."""
    out = tmp_path / "bench.txt"
    assert run_cli("export", two_forks, "--to", "benchstat", "--out", out).code == 0
    assert "e+2" not in out.read_text()  # no astronomical number anywhere


def test_csv_has_a_row_per_comparison_and_no_bound_the_data_cannot_support(
    two_forks, run_cli, tmp_path
):
    out = tmp_path / "perfproof.csv"
    r = run_cli("export", two_forks, "--to", "csv", "--out", out, "--format", "json")
    assert r.code == 0, r.err
    rows = list(csv.DictReader(out.read_text().splitlines()))
    assert rows and {row["metric"] for row in rows} == {
        "primary",
        "gc.alloc.rate.norm",
        "gc.time.norm",
        "gc.count.norm",
    }
    for row in rows:
        for side in ("base", "head"):
            if row[f"{side}_hi"]:
                value = float(row[side])
                lo, hi = float(row[f"{side}_lo"]), float(row[f"{side}_hi"])
                assert hi <= value * MAX_BOUND_FACTOR and lo * MAX_BOUND_FACTOR >= value
        if row["ratio_hi"]:
            assert float(row["ratio_hi"]) <= float(row["ratio"]) * MAX_BOUND_FACTOR
        assert row["verdict"] in {"improved", "regressed", "same", "negligible", "inconclusive"}
    noisy = next(r for r in rows if r["benchmark"] == "fx.Codes.sum" and r["params"] == "n=16"
                 and r["metric"] == "primary")  # fmt: skip
    assert noisy["head_hi"] == "" and noisy["ratio_hi"] == ""  # 40x apart on 2 forks
    (written,) = json.loads(r.out)["files"]
    assert written["rows"] == len(rows) and written["omitted_intervals"]
