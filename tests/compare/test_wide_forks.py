"""Forks so far apart that the interval's log bound leaves the float range.

Two forks left on a side (the third not warmed up) with fork means ten decades apart give a
Welch interval on log fork means of thousands in log space at the sequential look's level:
``math.exp`` of it raised ``OverflowError`` and ``ab``/``prove`` died at their first look (and
``--resume`` again at the same look). The bound is unbounded, and every output says so.
"""

from __future__ import annotations

import json
import math
import shutil
from pathlib import Path

import numpy as np
import pytest

from perfproof.model.bounds import bound_exp
from perfproof.stats.ratio import bound_exp_rows, log_ratio
from perfproof.units.percentages import delta_with_interval


def _strict(text: str) -> object:
    def refuse(name: str) -> object:
        raise AssertionError(f"non-strict JSON constant {name}")

    return json.loads(text, parse_constant=refuse)


def _flat(level: float) -> list[float]:
    return [level * (1 + 0.003 * ((i * 7) % 3 - 1)) for i in range(10)]


@pytest.fixture
def wide_rounds(tmp_path: Path, make_jmh_entry) -> Path:
    """Three rounds, one fork per side each; base's first fork has not settled (its first
    three iterations are left out of its mean), its other two sit at 1e-100 and 1e100 ns/op;
    head is steady at 100 ns/op."""
    unsettled = [5000.0, 5000.0, 5000.0, *_flat(100.0)[:7]]
    rounds = {
        1: (unsettled, _flat(100.0)),
        2: (_flat(1e-100), _flat(101.0)),
        3: (_flat(1e100), _flat(100.5)),
    }
    folder = tmp_path / "rounds"
    folder.mkdir()
    for r, (base, head) in rounds.items():
        for side, fork in (("base", base), ("head", head)):
            entry = make_jmh_entry("fx.W.wide", [fork], params={"n": "1"})
            (folder / f"{r}-{side}.json").write_text(json.dumps([entry]))
    return folder


def test_bound_exp_is_unbounded_past_the_float_range() -> None:
    assert bound_exp(800.0) == math.inf
    assert bound_exp(-800.0) == 0.0
    assert bound_exp(math.log(2.0)) == pytest.approx(2.0)
    assert math.isnan(bound_exp(math.nan))
    rows = bound_exp_rows(np.array([0.0, 800.0, -800.0]))
    assert rows.tolist() == [1.0, math.inf, 0.0]


def test_log_ratio_of_forks_decades_apart_is_unbounded_not_an_error() -> None:
    base = np.array([1e-300, 1e300])
    head = np.array([1.0, 1.0001])
    r = log_ratio(base, head, 0.9999)
    assert r.hi == math.inf and r.lo >= 0.0


def test_an_unbounded_interval_prints_in_words_at_the_ratio_it_is() -> None:
    """An interval the data leave unbounded is past any factor: the ratio, and why."""
    assert delta_with_interval(905.0, (-100.0, math.inf), (2, 2)) == (
        "×10.1 (interval too wide: 2 forks a side)"
    )
    assert delta_with_interval(50.0, (-100.0, math.inf)) == "×1.50 (interval too wide to bound it)"
    assert delta_with_interval(5.0, (math.nan, 1.0)) == "+5.0%"


@pytest.mark.parametrize("fmt", ["table", "md", "json"])
def test_sequential_replay_of_wide_forks_completes(run_cli, wide_rounds: Path, fmt: str) -> None:
    r = run_cli(
        "compare", "--sequential", f"{wide_rounds}/*-base.json", f"{wide_rounds}/*-head.json",
        "--format", fmt,
    )  # fmt: skip
    assert r.code == 0, r.err
    assert "Traceback" not in r.err and "overflow" not in r.err.lower()
    if fmt == "json":
        doc = _strict(r.out)
        assert isinstance(doc, dict)
        primary = next(c for c in doc["comparisons"] if c["metric"] == "primary")
        assert primary["verdict"] == "inconclusive"
        assert primary["ratio_ci"][1] is None  # unbounded: null, never Infinity
        assert primary["delta_ci_pct"][1] is None
    else:
        assert "interval too wide" in r.out and ">+999" not in r.out and "∞]" not in r.out


def test_every_renderer_and_export_of_a_wide_fork_run(
    run_cli, wide_rounds: Path, tmp_path: Path
) -> None:
    run = tmp_path / "run"
    (run / "jmh").mkdir(parents=True)
    for f in wide_rounds.glob("*.json"):
        r, side = f.stem.split("-")
        shutil.copy(f, run / "jmh" / f"{int(r):02d}-{side}.json")
    seq = run_cli(
        "compare", "--sequential", f"{wide_rounds}/*-base.json", f"{wide_rounds}/*-head.json",
        "--format", "json",
    )  # fmt: skip
    assert seq.code == 0, seq.err
    (run / "results.json").write_text(seq.out)
    for fmt in ("md", "html", "json"):
        out = tmp_path / f"report.{fmt}"
        r = run_cli("report", str(run), "--format", fmt, "--out", str(out))
        assert r.code == 0, r.err
        if fmt == "json":
            _strict(out.read_text())
    for target in ("bencher", "github-action-benchmark", "benchstat", "otava"):
        out = tmp_path / f"export-{target}"
        r = run_cli("export", str(run), "--to", target, "--out", str(out))
        assert r.code == 0, (target, r.err)
        for written in [out] if out.is_file() else sorted(out.rglob("*.json")):
            if written.suffix == ".json":
                _strict(written.read_text())
