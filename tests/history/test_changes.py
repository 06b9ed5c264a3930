"""Change points on seeded synthetic histories recorded through the real CLI, on both backends."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from tests.history.conftest import jmh_entry, noisy_forks, write_jmh

from perfproof.history.edivisive import change_points, split_statistics

RUNS = 30
STEP_RUN = 18  # 1-based: runs 18..30 are 8% slower
FLAT_KEYS = 100


def _commit(run: int) -> str:
    return f"{run:07x}" + "0" * 33


def _write_history(folder: Path) -> list[Path]:
    """30 JMH files: one key with a planted 8% step at run 18, and 100 flat keys."""
    rng = np.random.default_rng(20261124)
    levels = rng.uniform(10.0, 1000.0, size=FLAT_KEYS)
    files = []
    for run in range(1, RUNS + 1):
        step = 1.08 if run >= STEP_RUN else 1.0
        entries = [jmh_entry("demo.Step.run", noisy_forks(rng, 250.0 * step))]
        entries += [
            jmh_entry("demo.Flat.run", noisy_forks(rng, level), {"k": f"{k:03d}"})
            for k, level in enumerate(levels)
        ]
        files.append(write_jmh(folder / f"run{run:02d}.json", entries))
    return files


@pytest.fixture(scope="module")
def history_files(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    return _write_history(tmp_path_factory.mktemp("synthetic"))


def _record_all(run_cli, files: list[Path], db: str) -> None:
    for run, path in enumerate(files, start=1):
        result = run_cli(
            "history", "record", path, "--commit", _commit(run), "--branch", "main",
            "--time", f"2026-03-{run:02d}T02:00:00Z", "--db", db,
        )  # fmt: skip
        assert result.code == 0, result.err


@pytest.mark.slow
def test_planted_step_found_flat_keys_quiet_same_on_sqlite_and_postgresql(
    history_files, run_cli, tmp_path, pg_url
):
    answers = {}
    for name, db in (("sqlite", str(tmp_path / "h.sqlite")), ("postgresql", pg_url)):
        _record_all(run_cli, history_files, db)
        result = run_cli("history", "changes", "--branch", "main", "--format", "json", "--db", db)
        assert result.code == 0, result.err
        answers[name] = json.loads(result.out)
    assert answers["sqlite"] == answers["postgresql"]

    doc = answers["sqlite"]
    assert doc["keys"] == FLAT_KEYS + 1
    step = [c for c in doc["changes"] if c["benchmark"] == "demo.Step.run"]
    assert len(step) == 1
    (change,) = step
    assert change["commit"] == _commit(STEP_RUN)
    assert change["kind"] == "regressed"  # time went up: lower is better
    lo, hi = change["delta_ci_pct"]
    assert lo < 8.0 < hi and lo > 2.0
    flat_hits = {c["params"]["k"] for c in doc["changes"] if c["benchmark"] == "demo.Flat.run"}
    assert len(flat_hits) <= 0.05 * FLAT_KEYS

    gate = run_cli("history", "changes", "--bench", "Step", "--fail-on-change", "--db", pg_url)
    assert gate.code == 1 and "demo.Step.run" in gate.err
    quiet = run_cli("history", "changes", "--bench", "Step", "--branch", "feature", "--db", pg_url)
    assert quiet.code == 0 and "no significant shift in 0 key" in quiet.out

    page = run_cli(
        "history", "changes", "--bench", "Step", "--format", "html", "--db", pg_url,
        "--out", tmp_path / "changes.html",
    )  # fmt: skip
    html = (tmp_path / "changes.html").read_text()
    assert page.code == 0 and "regressed" in html
    assert html.count('class="plot"') == 1 and html.count('<svg class="spark"') == 1
    assert "http://" not in html.replace("http://www.w3.org", "")  # nothing fetched


def test_statistic_peaks_at_the_step_and_permutation_is_seeded():
    rng = np.random.default_rng(3)
    x = np.concatenate([rng.normal(0, 1, 20), rng.normal(3, 1, 15)])
    stats = split_statistics(x)
    assert int(np.nanargmax(stats)) == 20
    first = change_points(x, seed=11)
    assert [s.index for s in first] == [20]
    assert change_points(x, seed=11) == first


def test_flat_series_rarely_split():
    """A/A: pure noise is split in at most ~the nominal 1% of series (here ≤ 4 of 200)."""
    rng = np.random.default_rng(5)
    hits = sum(bool(change_points(rng.normal(0, 1, 30), seed=i)) for i in range(200))
    assert hits <= 4
