"""``report`` never overwrites its inputs, names the file and field of a bad results.json,
refuses pathological JSON, and ``ab --format md`` prints exactly the results in report.md."""

from __future__ import annotations

import hashlib
import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from perfproof.model.enums import Format


@pytest.fixture
def run(tmp_path: Path, make_run_folder: Callable[[str], Path]) -> Path:
    return Path(shutil.copytree(make_run_folder("ab"), tmp_path / "run"))


def _digest(folder: Path) -> dict[str, str]:
    return {
        str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


@pytest.mark.parametrize("target", ["results.json", "manifest.json", "jmh/01-base.json"])
def test_out_never_replaces_an_input(run_cli: Callable[..., Any], run: Path, target: str) -> None:
    before = _digest(run)
    res = run_cli("report", run, "--out", run / target)
    assert res.code == 2
    (line,) = res.err.splitlines()
    assert f"--out {run / target}: is an input" in line
    assert _digest(run) == before
    # through another spelling of the same path, too
    res = run_cli("report", run, "--out", run / "jmh" / ".." / target)
    assert res.code == 2 and _digest(run) == before


def test_out_next_to_the_inputs_is_fine(run_cli: Callable[..., Any], run: Path) -> None:
    res = run_cli("report", run, "--out", run / "review.md")
    assert res.code == 0, res.err
    assert (run / "review.md").read_text().startswith("## Performance")


EDITS: list[tuple[Callable[[dict], Any], str, str]] = [
    (
        lambda d: d["comparisons"][1]["base"].update(estimate="fast"),
        "[1].base.estimate",
        "a number",
    ),
    (lambda d: d["comparisons"][0].update(verdict="better"), "[0].verdict", "one of"),
    (lambda d: d["comparisons"][2].update(ratio_ci=[1.0]), "[2].ratio_ci", "a list of two"),
    (lambda d: d["comparisons"][0].update(params=7), "[0].params", "an object"),
    (lambda d: d.update(confidence="99%"), "confidence", "a number"),
    (lambda d: d["comparisons"][0]["head"].update(forks=-1), "[0].head.forks", "a whole number"),
]


@pytest.mark.parametrize(("edit", "field", "expected"), EDITS)  # fmt: skip
def test_wrong_value_types_name_the_file_and_field(
    run_cli: Callable[..., Any], run: Path, edit: Callable[[dict], None], field: str, expected: str
) -> None:
    doc = json.loads((run / "results.json").read_text())
    edit(doc)
    (run / "results.json").write_text(json.dumps(doc))
    for fmt in ("md", "json"):
        res = run_cli("report", run, "--format", fmt)
        assert res.code == 2, res.err
        (line,) = res.err.splitlines()
        where = field if field == "confidence" else f"comparisons{field}"
        assert f"{run / 'results.json'}: {where}: expected {expected}" in line
        assert "AttributeError" not in line and "Traceback" not in res.err


def test_deeply_nested_results_are_refused(run_cli: Callable[..., Any], run: Path) -> None:
    (run / "results.json").write_text('{"comparisons": ' + "[" * 200_000 + "]" * 200_000 + "}")
    res = run_cli("report", run)
    assert res.code == 2
    (line,) = res.err.splitlines()
    assert str(run / "results.json") in line and "nested deeper" in line


def test_a_future_schema_is_named(run_cli: Callable[..., Any], run: Path) -> None:
    doc = json.loads((run / "results.json").read_text())
    doc["schema"] = "perfproof.compare/2"
    (run / "results.json").write_text(json.dumps(doc))
    res = run_cli("report", run)
    assert res.code == 2 and "perfproof.compare/2 is a newer schema" in res.err


def test_ab_markdown_is_the_results_section_of_report_md(
    run: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from perfproof.cli.ab import render_outcome
    from perfproof.pipeline.ab.run import AbOutcome
    from perfproof.report import write_reports
    from perfproof.report.rundir import load_run

    (report,) = write_reports(run, ("md",))
    doc = load_run(run).document
    outcome = AbOutcome(run, None, {}, report)  # type: ignore[arg-type]
    outcome.result = type("R", (), {"comparisons": doc.comparisons})()  # type: ignore[assignment]
    render_outcome(outcome, Format.MD)
    printed = capsys.readouterr().out
    section = printed[: printed.index("\nrun folder:")]
    assert section.startswith("**Summary:**") and "### Results" in section
    assert section.strip() in report.read_text()
    assert section.count("#### `") == report.read_text().count("#### `")


def test_parameters_with_pipes_and_newlines_keep_report_rows(
    run_cli: Callable[..., Any], run: Path
) -> None:
    from markdown_it import MarkdownIt

    doc = json.loads((run / "results.json").read_text())
    for c in doc["comparisons"]:
        if c["params"] == {"n": "16"}:
            c["params"] = {"n": "a|b\nc"}
    (run / "results.json").write_text(json.dumps(doc))
    res = run_cli("report", run)
    assert res.code == 0, res.err
    tokens = MarkdownIt("commonmark").enable("table").parse(res.out)
    cells = [t.content for t in tokens if t.type == "inline"]
    assert cells.count("a|b<br>c") == 3  # the n=16 rows of loopEmpty, streamEmpty and sum
    rows = [line for line in res.out.splitlines() if line.startswith("| a\\|b<br>c |")]
    assert len(rows) == cells.count("a|b<br>c")
    # six cells, and a seventh in the one table whose GC collections per operation changed
    assert sorted(line.count(" | ") for line in rows) == [5, 5, 6]
