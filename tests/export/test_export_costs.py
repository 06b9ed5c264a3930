"""The costs `-prof gc` cannot see, in every export: a run whose baseline reserves 10,240
direct bytes per ``FrameBench.frame`` call and whose feature reserves none (the costs project's
real JMH files, ``tests/fixtures/jmh/costs``) carries its direct bytes and GC time per operation
to each consumer in the consumer's own terms."""

from __future__ import annotations

import csv
import json
import shutil
from pathlib import Path

import pytest

FRAME = "costs.FrameBench.frame"


@pytest.fixture
def costs_run(tmp_path: Path) -> Path:
    run = tmp_path / "costs-run"
    (run / "jmh").mkdir(parents=True)
    fixtures = Path(__file__).parents[1] / "fixtures" / "jmh" / "costs"
    for side in ("base", "head"):
        shutil.copy(fixtures / f"{side}.json", run / "jmh" / f"1-{side}.json")
    return run


def test_bencher_gets_direct_bytes_and_gc_time_as_measures_of_their_own(costs_run, run_cli):
    result = run_cli("export", costs_run, "--to", "bencher", "--out", "-")
    assert result.code == 0, result.err
    measures = json.loads(result.out)[FRAME]
    assert measures["direct-bytes-per-op"]["value"] == 0  # the feature's
    assert {"gc-time-per-op", "gcs-per-op", "bytes-per-op"} <= set(measures)


def test_benchstat_gets_a_direct_bytes_unit_per_fork(costs_run, run_cli, tmp_path):
    out = tmp_path / "bench.txt"
    assert run_cli("export", costs_run, "--to", "benchstat", "--out", out).code == 0
    frame = [line for line in out.read_text().splitlines() if line.startswith(f"Benchmark{FRAME}")]
    direct = sorted({line.split(" direct-B/op")[0].rsplit(" ", 1)[1] for line in frame})
    assert direct == ["0", "10240"]  # one value per side, on every fork's line
    assert all(" gc-ns/op" in line for line in frame)


def test_csv_and_otava_carry_the_direct_bytes_comparison(costs_run, run_cli, tmp_path):
    table = tmp_path / "perfproof.csv"
    assert run_cli("export", costs_run, "--to", "csv", "--out", table).code == 0
    with table.open(newline="") as f:
        rows = {r["benchmark"]: r for r in csv.DictReader(f) if r["metric"] == "direct.alloc.norm"}
    frame = rows.pop(FRAME)
    assert (float(frame["base"]), float(frame["head"]), frame["verdict"]) == (10240, 0, "improved")
    # the keys that reserve nothing off the heap are the same on both sides
    assert {r["verdict"] for r in rows.values()} == {"same"}
    folder = tmp_path / "otava"
    assert run_cli("export", costs_run, "--to", "otava", "--out", folder).code == 0
    header = (folder / "otava.csv").read_text().splitlines()[0].split(",")
    assert f"{FRAME}.direct.alloc.norm [B/op]" in header
    assert f"{FRAME}.gc.time.norm [ns/op]" in header


def test_an_old_runs_csv_says_which_measured_costs_it_has_no_comparisons_of(
    costs_run, run_cli, tmp_path
):
    """kryo-24 was written before perfproof compared GC costs: its JMH files hold GC time,
    so Bencher exports it, while its results.json has no GC comparison for the CSV to write.
    The CSV says so where its files are listed; a run that compared them says nothing."""
    old = tmp_path / "kryo-24"
    shutil.copytree(Path(__file__).parents[1] / "fixtures" / "runs" / "kryo-24-keys-defaults", old)
    bmf = json.loads(run_cli("export", old, "--to", "bencher", "--out", "-").out)
    assert any("gc-time-per-op" in m for m in bmf.values())
    table = tmp_path / "old.csv"
    result = run_cli("export", old, "--to", "csv", "--out", table, "--format", "json")
    assert result.code == 0, result.err
    (file,) = json.loads(result.out)["files"]
    with table.open(newline="") as f:
        metrics = {r["metric"] for r in csv.DictReader(f)}
    assert metrics == {"primary", "gc.alloc.rate.norm"}
    (why,) = file["not_compared"]
    assert "gc.time.norm, gc.count.norm measured but not compared" in why
    text = run_cli("export", old, "--to", "csv", "--out", tmp_path / "again.csv").out
    assert "no rows: report-kryo: gc.time.norm, gc.count.norm" in text
    fresh = run_cli(
        "export", costs_run, "--to", "csv", "--out", tmp_path / "new.csv", "--format", "json"
    )
    assert json.loads(fresh.out)["files"][0]["not_compared"] == []
