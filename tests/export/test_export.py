"""Exports of a run folder, checked against the raw JMH data (and Go's format with benchstat)."""

from __future__ import annotations

import csv
import io
import json
import math
import re
import subprocess
from pathlib import Path

import numpy as np
import pytest
from tests.export.conftest import go_tool

from perfproof.jmh.reader import read_results
from perfproof.stats.welch import mean_interval


def _head(run: Path):
    return read_results(sorted((run / "jmh").glob("*-head.json")))


def _entry_means(samples, benchmark: str, n: str, metric: str = "primary"):
    (s,) = [
        v
        for k, v in samples.items()
        if k.benchmark == benchmark and k.params_dict.get("n") == n and k.metric == metric
    ]
    return s.fork_means()


@pytest.fixture
def ab_run(make_run_folder, tmp_path) -> Path:
    import shutil

    copy = tmp_path / "run"
    shutil.copytree(make_run_folder("ab"), copy)
    return copy


def test_bencher_keeps_params_bytes_and_fork_interval(ab_run, run_cli, tmp_path):
    out = tmp_path / "bmf.json"
    result = run_cli("export", ab_run, "--to", "bencher", "--out", out)
    assert result.code == 0, result.err
    doc = json.loads(out.read_text())
    head = _head(ab_run)
    for n in ("16", "128"):
        entry = doc[f"fx.Codes.sum(n={n})"]
        means = _entry_means(head, "fx.Codes.sum", n)
        logs = mean_interval(np.log(means), 0.99)
        factor = math.exp(logs.hi - logs.mean)  # the log-scale interval, around the mean
        assert entry["latency"]["value"] == pytest.approx(means.mean())
        assert entry["latency"]["lower_value"] == pytest.approx(means.mean() / factor)
        assert entry["latency"]["upper_value"] == pytest.approx(means.mean() * factor)
        alloc = _entry_means(head, "fx.Codes.sum", n, "gc.alloc.rate.norm")
        assert entry["bytes-per-op"]["value"] == pytest.approx(alloc.mean())
    assert "throughput" in doc["fx.Thr.concat"]


def test_github_action_benchmark_one_file_per_direction(ab_run, run_cli, tmp_path):
    result = run_cli("export", ab_run, "--to", "github-action-benchmark", "--out", tmp_path / "gab")
    assert result.code == 0, result.err
    smaller = json.loads((tmp_path / "gab" / "customSmallerIsBetter.json").read_text())
    bigger = json.loads((tmp_path / "gab" / "customBiggerIsBetter.json").read_text())
    assert {e["unit"] for e in smaller} <= {"ns/op", "B/op", "GCs/op"}
    assert {e["unit"] for e in bigger} == {"ops/s"}
    names = [e["name"] for e in smaller + bigger]
    assert len(names) == len(set(names))  # @Param variants and metrics never collide
    assert "fx.Codes.sum(n=16).gc.alloc.rate.norm" in names
    assert all("9a8b7c6d5e4f" in e["extra"] for e in smaller)


def test_bounds_of_two_noisy_forks_never_go_negative(run_cli, make_run_folder, tmp_path) -> None:
    """Two forks 1 and 40 ns/op apart: a linear t-interval (t = 63.7 at 99%) reached -1,200."""
    from perfproof.export.source import side_bounds

    lo, hi = side_bounds(np.array([1.0, 40.0]), 0.99)
    assert lo is not None and hi is not None
    assert 0 < lo < 20.5 < hi
    assert side_bounds(np.array([0.0, 0.0, 16.0]), 0.99)[0] == 0.0  # bytes: cut at zero
    assert side_bounds(np.array([5.0]), 0.99) == (None, None)


def test_github_action_benchmark_range_is_a_plus_minus(ab_run, run_cli, tmp_path):
    out = tmp_path / "gab"
    assert run_cli("export", ab_run, "--to", "github-action-benchmark", "--out", out).code == 0
    entries = json.loads((out / "customSmallerIsBetter.json").read_text())
    ranged = [e for e in entries if "range" in e]
    assert ranged
    for e in ranged:
        assert re.fullmatch(r"± [0-9.e+-]+", e["range"]), e["range"]
        assert float(e["range"][2:]) >= 0
        assert "CI" in e["extra"]


def test_github_action_benchmark_with_one_direction_still_writes_a_folder(
    ab_run, run_cli, tmp_path
):
    """A suite with only time metrics has one direction: ``--out gab/`` stays a folder."""
    out = tmp_path / "gab"
    result = run_cli(
        "export", ab_run, "--to", "github-action-benchmark", "--out", out,
        "--metric", "gc.alloc.rate.norm",
    )  # fmt: skip
    assert result.code == 0, result.err
    assert out.is_dir()
    assert [p.name for p in out.iterdir()] == ["customSmallerIsBetter.json"]
    again = run_cli(
        "export", ab_run, "--to", "github-action-benchmark", "--out", out,
        "--metric", "gc.alloc.rate.norm",
    )  # fmt: skip
    assert again.code == 0, again.err
    assert [p.name for p in out.iterdir()] == ["customSmallerIsBetter.json"]


def test_benchstat_reads_the_go_format_and_reproduces_the_means(make_run_folder, run_cli, tmp_path):
    benchstat = go_tool("benchstat")
    run = make_run_folder("compare")  # two forks per side: benchstat's median is their mean
    text = tmp_path / "bench.txt"
    r = run_cli("export", run, "--to", "benchstat", "--samples", "forks", "--out", text)
    assert r.code == 0, r.err
    assert "commit:" in text.read_text() and "jdk:" in text.read_text()
    proc = subprocess.run(
        [benchstat, "-format", "csv", "-col", "side", "-ignore", "commit", str(text)],
        capture_output=True, text=True, check=True, timeout=60,
    )  # fmt: skip
    centers: dict[tuple[str, str], float] = {}
    unit = None
    for row in csv.reader(io.StringIO(proc.stdout)):
        if len(row) > 3 and row[0] == "" and row[1] != "base":
            unit = row[1]
        elif len(row) > 3 and row[0].startswith("fx.") and unit == "sec/op" and row[3]:
            centers[(row[0], "head")] = float(row[3])
    results = json.loads((run / "results.json").read_text())
    checked = 0
    for c in results["comparisons"]:
        if c["metric"] != "primary" or c["unit"] != "ns/op":
            continue
        name = c["benchmark"] + "".join(f"/{k}={v}" for k, v in sorted(c["params"].items()))
        assert centers[(name, "head")] * 1e9 == pytest.approx(c["head"]["estimate"], rel=1e-5)
        checked += 1
    assert checked >= 2


def test_benchstat_tests_what_it_is_given_by_default(make_run_folder, run_cli, tmp_path):
    """Four forks a side: one sample per fork left benchstat at "± ∞ need >= 6 samples"."""
    benchstat = go_tool("benchstat")
    run = make_run_folder("ab")
    text = tmp_path / "bench.txt"
    assert run_cli("export", run, "--to", "benchstat", "--out", text).code == 0
    assert text.read_text().startswith("samples: iterations")
    proc = subprocess.run(
        [benchstat, "-col", "side", "-ignore", "commit,samples", str(text)],
        capture_output=True, text=True, check=True, timeout=60,
    )  # fmt: skip
    assert "need >= 6 samples" not in proc.stdout, proc.stdout
    assert "p=" in proc.stdout  # benchstat ran its test on every row
    forks = tmp_path / "forks.txt"
    assert (
        run_cli("export", run, "--to", "benchstat", "--samples", "forks", "--out", forks).code == 0
    )
    assert forks.read_text().startswith("samples: forks")
    assert run_cli("export", run, "--to", "bencher", "--samples", "forks").code == 2


def test_otava_csv_one_row_per_run(ab_run, make_run_folder, run_cli, tmp_path):
    out = tmp_path / "otava"
    assert run_cli("export", ab_run, make_run_folder("ab"), "--to", "otava", "--out", out).code == 0
    assert sorted(p.name for p in out.iterdir()) == ["otava.csv", "otava.yaml"]
    rows = list(csv.DictReader((out / "otava.csv").read_text().splitlines()))
    assert len(rows) == 2 and rows[0]["commit"].startswith("9a8b7c6d")
    means = _entry_means(_head(ab_run), "fx.Codes.sum", "16")
    assert float(rows[0]["fx.Codes.sum(n=16) [ns/op]"]) == pytest.approx(np.mean(means), rel=1e-5)
    config = (out / "otava.yaml").read_text()
    sum16, concat = '"fx.Codes.sum(n=16) [ns/op]":', '"fx.Thr.concat [ops/s]":'
    assert config.split(sum16)[1].split("direction: ")[1].startswith("-1\n")
    assert config.split(concat)[1].split("direction: ")[1].startswith("1\n")


def test_default_goes_to_export_folder_and_inputs_are_never_overwritten(ab_run, run_cli):
    before = {p: p.read_bytes() for p in ab_run.rglob("*") if p.is_file()}
    assert run_cli("export", ab_run, "--to", "otava").code == 0
    assert (ab_run / "export" / "otava.csv").is_file()
    for victim in (
        ab_run / "results.json",
        ab_run / "jmh" / "01-base.json",
        ab_run / "manifest.json",
    ):
        result = run_cli("export", ab_run, "--to", "bencher", "--out", victim)
        assert result.code == 2 and str(victim) in result.err
    assert all(p.read_bytes() == data for p, data in before.items())


def test_unknown_format_exits_2_with_one_line(ab_run, run_cli):
    result = run_cli("export", ab_run, "--to", "xml")
    assert result.code == 2
    assert result.err.strip().splitlines() == [
        "perfproof: error: --to xml: unknown export format "
        "(one of: bencher, github-action-benchmark, benchstat, otava, csv)"
    ]
