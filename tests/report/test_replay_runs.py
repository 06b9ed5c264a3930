"""Real run folders replayed through every output: no traceback, no exit 4, no warning.

``tests/fixtures/runs/`` holds run folders of real measurements whose shapes stressed the
outputs (see its README.md): cut by a budget, wide forks, 43 keys with two forks a side and
intervals past ±999%, a key on one side only, bimodal forks, shards and their merge, a prove
bundle. Each is rendered in every ``report`` format, checked, exported in every format, recorded
in a history database and compared again from its raw JMH files (plain and ``--sequential``);
shards are merged. The suite runs with Python warnings as errors, so a numpy overflow or a
matplotlib complaint on the way fails here too.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from perfproof.export import FORMATS as EXPORT_FORMATS
from perfproof.report import FORMATS as REPORT_FORMATS

RUNS = Path(__file__).resolve().parents[1] / "fixtures" / "runs"
FOLDERS = sorted(
    p.name
    for p in RUNS.iterdir()
    if any((p / f).exists() for f in ("manifest.json", "prove.json", "jmh"))
)
"""An ``ab`` run folder, a prove bundle (its A/B in ``ab/``), or a folder of raw JMH files
(``jmh/N-base.json``, ``jmh/N-head.json``: what ``report`` and ``compare`` take as well)."""

COMMIT = "0123456789abcdef0123456789abcdef01234567"


def _copy(name: str, tmp_path: Path) -> Path:
    dest = tmp_path / name
    shutil.copytree(RUNS / name, dest)
    return dest


def _run_dir(folder: Path) -> Path:
    """The A/B run folder: the folder itself, or a prove bundle's ``ab/``."""
    return folder / "ab" if (folder / "prove.json").is_file() else folder


def _clean(result: Any, *codes: int) -> None:
    assert result.code in (codes or (0,)), (result.code, result.err)
    assert "Traceback" not in result.err and "internal error" not in result.err, result.err
    assert "Warning" not in result.err, result.err


def _raw(run: Path, side: str) -> str:
    files = sorted((run / "jmh").glob(f"*{side}.json"))
    assert files, f"no {side} JMH files in {run}"
    return str(run / "jmh" / f"*{side}.json")


def test_shards_merge_into_one_run(tmp_path: Path, run_cli: Callable[..., Any]) -> None:
    shards = [
        _copy(n, tmp_path)
        for n in FOLDERS
        if (RUNS / n / "manifest.json").is_file()
        and json.loads((RUNS / n / "manifest.json").read_text()).get("shard")
    ]
    assert len(shards) >= 2, "the fixtures hold the shards of one run"
    merged = tmp_path / "merged-again"
    _clean(run_cli("merge", *shards, "--out", merged, "--format", "json"))
    for fmt in REPORT_FORMATS:
        _clean(run_cli("report", merged, "--format", fmt, "--out", tmp_path / f"m.{fmt}"))


def test_the_wide_43_key_run_is_what_it_stands_for() -> None:
    """The crash's shape: 43 keys, two forks a side, intervals past ±999%."""
    doc = json.loads((RUNS / "wild-43-keys-2-forks-past-999" / "results.json").read_text())
    rows = doc["comparisons"]
    primary = [c for c in rows if c["metric"] == "primary"]
    assert len(primary) == 43
    assert all(c["base"]["forks"] == 2 and c["head"]["forks"] == 2 for c in rows)
    wide = [c for c in primary if c["delta_ci_pct"][1] is None or c["delta_ci_pct"][1] > 999]
    assert len(wide) >= 40


def test_at_least_eight_real_shapes() -> None:
    assert len(FOLDERS) >= 8, FOLDERS


@pytest.mark.parametrize("name", FOLDERS)
def test_every_report_format_and_check(
    name: str, tmp_path: Path, run_cli: Callable[..., Any]
) -> None:
    run = _run_dir(_copy(name, tmp_path))
    for fmt in REPORT_FORMATS:
        out = tmp_path / f"report.{fmt}"
        _clean(run_cli("report", run, "--format", fmt, "--out", out))
        assert out.stat().st_size > 0
    if (run / "results.json").is_file():
        doc = json.loads((tmp_path / "report.json").read_text())
        assert doc["schema"].startswith("perfproof.report/")
    _clean(run_cli("check", tmp_path / "report.md", run))


@pytest.mark.parametrize(
    "name", [n for n in FOLDERS if (RUNS / n / "prove.json").is_file()] or ["(none)"]
)
def test_a_prove_bundle_renders_its_pages(name: str, tmp_path: Path) -> None:
    """The bundle's own report stage, as ``prove`` (and ``prove --resume``) runs it."""
    from perfproof.model.documents.prove import BundleView, ProveResults, read_prove
    from perfproof.pipeline.prove.report import write_bundle_reports
    from perfproof.report import embedded_run, missing_reports, write_reports

    assert name != "(none)", "the fixtures hold a prove bundle"
    bundle = _copy(name, tmp_path)
    missing = missing_reports(bundle / "ab")
    assert write_reports(bundle / "ab", missing) == [bundle / "ab" / f"report.{f}" for f in missing]
    view = ProveResults.of(BundleView(bundle, read_prove(bundle / "prove.json")))
    ab = embedded_run(bundle / "ab") if (bundle / "ab" / "results.json").is_file() else None
    write_bundle_reports(view, ab)
    assert (bundle / "report.md").stat().st_size and (bundle / "report.html").stat().st_size


@pytest.mark.parametrize("name", FOLDERS)
def test_every_export_and_history_record(
    name: str, tmp_path: Path, run_cli: Callable[..., Any]
) -> None:
    run = _run_dir(_copy(name, tmp_path))
    for fmt in EXPORT_FORMATS:
        _clean(run_cli("export", run, "--to", fmt, "--out", tmp_path / "export" / fmt))
    db = tmp_path / "history.sqlite"
    if (run / "manifest.json").is_file():
        _clean(run_cli("history", "record", run, "--db", db))
    else:  # plain JMH files: the commit they measured is given
        files = sorted((run / "jmh").glob("*head.json"))
        _clean(run_cli("history", "record", *files, "--commit", COMMIT, "--db", db))
    for fmt in ("table", "json", "html"):
        _clean(run_cli("history", "show", "--db", db, "--format", fmt, "--out", tmp_path / fmt))
    _clean(run_cli("history", "changes", "--db", db))


@pytest.mark.parametrize("name", FOLDERS)
def test_compare_again_from_the_raw_files(
    name: str, tmp_path: Path, run_cli: Callable[..., Any]
) -> None:
    run = _run_dir(_copy(name, tmp_path))
    base, head = _raw(run, "base"), _raw(run, "head")
    rounds = len(list((run / "jmh").glob("*base.json")))
    for fmt in ("table", "json"):
        _clean(run_cli("compare", base, head, "--format", fmt))
        replay = run_cli("compare", base, head, "--sequential", "--format", fmt)
        if replay.code == 2:  # too few rounds for a first look: one line says so
            assert rounds < 3 and replay.err.count("\n") == 1, replay.err
            assert "nothing to replay" in replay.err
        _clean(replay, 0, 2)


def test_a_run_of_unbounded_intervals_plots_them_with_arrows(tmp_path: Path) -> None:
    """One fork a side leaves every interval unbounded: the forest still renders, with an
    arrow at each end, and its caption says so."""
    from perfproof.report import render

    page = render(RUNS / "kryo-budget-cut-1-round", "html")
    assert "Every interval reaches past the chart on a side" in page
    assert page.count("off-chart-") >= 2 * 24
