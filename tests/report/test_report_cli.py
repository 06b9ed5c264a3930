"""``perfproof report`` and ``write_reports``: formats, files, run folders with parts missing."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

from perfproof.report import write_reports


def test_write_reports_writes_md_and_html_into_the_run(
    make_run_folder: Callable[[str], Path],
) -> None:
    run = make_run_folder("ab")
    written = write_reports(run)
    assert written == [run / "report.md", run / "report.html"]
    assert (run / "report.md").read_text().startswith("## Performance: faster-codes")
    assert (run / "report.html").read_text().startswith("<!DOCTYPE html>")
    assert not list(run.glob(".*.tmp"))


def test_formats_and_out(
    make_run_folder: Callable[[str], Path], run_cli: Callable[..., Any], tmp_path: Path
) -> None:
    run = make_run_folder("ab")
    md = run_cli("report", run)
    assert md.code == 0 and "### Methodology" in md.out
    js = run_cli("report", run, "--format", "json")
    doc = json.loads(js.out)
    assert doc["schema"] == "perfproof.report/1"
    assert doc["summary"] in md.out
    rows = [r for t in doc["results"] for r in t["rows"]]
    assert len(rows) == 9
    for r in rows:  # the JSON carries the same texts as the Markdown, plus the numbers
        cells = (r["baseline"]["text"], r["feature"]["text"], r["delta"]["text"])
        assert "| " + " | ".join(cells) + " |" in md.out
        assert isinstance(r["baseline"]["estimate"], float)
    assert [s["caption"] for s in doc["reproduce"]["steps"]][-1] == "Redo everything with perfproof"
    assert doc["compare"]["schema"] == "perfproof.compare/1"
    out = tmp_path / "r.html"
    html = run_cli("report", run, "--format", "html", "--out", out)
    assert html.code == 0 and html.out == "" and out.read_text().count("<svg ") == 11


def test_folder_from_compare_data_without_manifest(
    make_run_folder: Callable[[str], Path], run_cli: Callable[..., Any]
) -> None:
    res = run_cli("report", make_run_folder("compare"))
    assert res.code == 0
    assert "no build or JMH command was recorded" in res.out
    assert "perfproof compare" in res.out
    assert "Different JMH versions: baseline 1.21, feature 1.37." in res.out


def test_missing_results_json_is_recomputed_from_raw_files(
    make_run_folder: Callable[[str], Path], run_cli: Callable[..., Any]
) -> None:
    run = make_run_folder("ab")
    with_results = run_cli("report", run).out
    (run / "results.json").unlink()
    assert run_cli("report", run).out == with_results


def test_bad_run_folders_exit_2(
    tmp_path: Path, run_cli: Callable[..., Any], make_run_folder: Callable[[str], Path]
) -> None:
    missing = run_cli("report", tmp_path / "nope")
    assert missing.code == 2 and "nope" in missing.err
    empty = tmp_path / "empty"
    empty.mkdir()
    res = run_cli("report", empty)
    assert res.code == 2 and "no results.json" in res.err
    broken = tmp_path / "broken"
    shutil.copytree(make_run_folder("compare"), broken)
    (broken / "results.json").write_text("{not json")
    res = run_cli("report", broken)
    assert res.code == 2 and "results.json: not valid JSON" in res.err
    assert "Traceback" not in res.err


def test_statistics_sentences_follow_the_methods_used(make_run_folder) -> None:
    from dataclasses import replace

    from perfproof.model import ComparisonMethod
    from perfproof.report.context import fallback_sentence, method_sentences
    from perfproof.report.rundir import load_run

    doc = load_run(make_run_folder("ab")).document
    text = method_sentences(doc.model_copy(update={"threshold": 0.02}))
    assert "Welch's t on the logarithms of the fork means" in text
    assert "beyond the 2% threshold" in text
    assert "Benjamini–Hochberg at 1% across the 9 statistical comparisons" in text
    assert "(the 9 Δ% intervals of the tables)" in text and "selected 1" in text
    assert "9 bytes/op comparisons were exact" in text
    assert "no adjustment across the 9" in method_sentences(
        doc.model_copy(update={"family": "none"})
    )
    assert "Holm at 1%" in method_sentences(doc.model_copy(update={"family": "holm"}))
    fork, exact = doc.comparisons[0], doc.comparisons[1]
    assert {fork.method, exact.method} == {ComparisonMethod.FORK_LEVEL, ComparisonMethod.EXACT}
    assert fallback_sentence([fork, exact]) == ""
    one = fallback_sentence([replace(fork, method=ComparisonMethod.ITERATION_LEVEL), fork])
    assert "1 comparison had a single fork on a side" in one
