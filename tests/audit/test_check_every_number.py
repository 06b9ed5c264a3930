"""``perfproof check`` accounts for every number of a report perfproof wrote.

Each test writes a real report with perfproof's own writers (``ab``'s report.md, the
``report`` verb's other shapes, ``prove``'s PR body from a recorded demo bundle), checks that
it passes, then changes each of its numbers in turn, one digit at a time (every run of
digits a regular expression finds, commit ids, versions and raw JMH tables included), and
checks that every change is caught on its own line, naming the written number.
"""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from perfproof.audit.check import check_text, load_evidence
from perfproof.model.documents.prove import BundleView, ProveResults, read_prove
from perfproof.pipeline.prove.report import write_bundle_reports
from perfproof.report import embedded_run, render_pr_markdown, results_section, write_reports

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"

Changes = Callable[[str], Iterator[tuple[int, str, str, str]]]


def _sweep(changes: Changes, text: str, folder: Path) -> int:
    """Check the clean text, then every perturbation of it; the number of perturbations."""
    evidence = load_evidence(folder)
    clean = check_text(text, evidence)
    assert clean.ok, [m.message for m in clean.mismatches]
    assert clean.compared_with is not None
    missed: list[Any] = []
    count = 0
    for line, old, new, changed in changes(text):
        count += 1
        result = check_text(changed, evidence)
        if not any(m.line == line and new in m.quoted for m in result.mismatches):
            found = [(m.line, m.kind, m.quoted) for m in result.mismatches]
            missed.append((line, old, new, text.splitlines()[line - 1][:90], found[:3]))
    assert not missed, f"{len(missed)} of {count} changed numbers passed: {missed[:10]}"
    return count


def _cli_catches(
    run_cli: Callable[..., Any],
    changes: Changes,
    text: str,
    folder: Path,
    tmp_path: Path,
    every: int,
) -> None:
    """The verb itself: exit 0 on the clean report, exit 1 naming each sampled change."""
    path = tmp_path / "written.md"
    path.write_text(text)
    clean = run_cli("check", path, folder)
    assert clean.code == 0, clean.out
    for k, (line, _old, new, changed) in enumerate(changes(text)):
        if k % every:
            continue
        path.write_text(changed)
        res = run_cli("check", path, folder)
        assert res.code == 1, (line, new, res.out)
        assert any(
            out.startswith(f"{path}:{line}: ") and new in out for out in res.out.splitlines()
        ), (line, new, res.out)


@pytest.fixture(scope="module")
def ab_run(make_run_folder: Callable[[str], Path]) -> Path:
    run = make_run_folder("ab")
    write_reports(run, ("md",))
    return run


def test_every_number_of_an_ab_report_is_tied_to_the_run(
    ab_run: Path, run_cli: Callable[..., Any], tmp_path: Path, number_changes: Changes
) -> None:
    text = (ab_run / "report.md").read_text()
    assert _sweep(number_changes, text, ab_run) > 500  # JMH's console tables stay in the folder
    _cli_catches(run_cli, number_changes, text, ab_run, tmp_path, every=97)


def test_the_summary_range_edited_by_hand_is_caught(
    ab_run: Path, run_cli: Callable[..., Any], tmp_path: Path
) -> None:
    text = (ab_run / "report.md").read_text()
    assert "1 regressed (+12%)" in text
    path = tmp_path / "edited.md"
    path.write_text(text.replace("1 regressed (+12%)", "1 regressed (+21%)"))
    res = run_cli("check", path, ab_run)
    assert res.code == 1
    said = "number: Summary: quoted +21%, perfproof's report.md of this run has +12%"
    assert f"{path}:3: {said}" in res.out
    doc = json.loads(run_cli("check", path, ab_run, "--format", "json").out)
    assert doc["compared_with"] == "report.md" and not doc["ok"]
    assert [(m["line"], m["kind"], m["quoted"], m["expected"]) for m in doc["mismatches"]] == [
        (3, "number", "+21%", "+12%")
    ]


@pytest.mark.parametrize("shape", ["summary", "fitted", "results", "compare"])
def test_every_number_of_each_shape_of_the_report_is_tied(
    shape: str, make_run_folder: Callable[[str], Path], number_changes: Changes
) -> None:
    """``report --summary``, ``report --max-chars`` (raw tables left out), ``ab --format md``
    (summary and results only) and the report of a folder made from ``compare`` data."""
    run = make_run_folder("compare" if shape == "compare" else "ab")
    text = {
        "summary": lambda: render_pr_markdown(run, None, summary=True),
        "fitted": lambda: render_pr_markdown(run, 12_000),
        "results": lambda: results_section(run),
        "compare": lambda: write_reports(run, ("md",))[0].read_text(),
    }[shape]()
    if shape == "fitted":
        assert "left out to fit this page" in text
    assert _sweep(number_changes, text, run) > 10


@pytest.fixture
def prove_bundle(tmp_path: Path) -> Path:
    """The recorded demo bundle with its PR body written by prove's own report stage."""
    bundle = tmp_path / "bundle"
    shutil.copytree(FIXTURES / "prove" / "demo-bundle", bundle)
    view = ProveResults.of(BundleView(bundle, read_prove(bundle / "prove.json")))
    write_bundle_reports(view, embedded_run(bundle / "ab"))
    return bundle


def test_every_number_of_a_prove_report_is_tied_to_the_bundle(
    prove_bundle: Path, run_cli: Callable[..., Any], tmp_path: Path, number_changes: Changes
) -> None:
    text = (prove_bundle / "report.md").read_text()
    for part in ("### Profile diff", "### Amdahl", "### Callers", "**Summary:**"):
        assert part in text
    assert _sweep(number_changes, text, prove_bundle) > 400
    _cli_catches(run_cli, number_changes, text, prove_bundle, tmp_path, every=61)


def test_a_prove_summary_range_edited_by_hand_is_caught(prove_bundle: Path) -> None:
    text = (prove_bundle / "report.md").read_text()
    m = re.search(r"faster \((×[\d.]+) to (×[\d.]+)\)", text)  # thousands-fold: ratios
    assert m is not None
    edited = text.replace(m.group(0), f"faster (×0.0123 to {m.group(2)})")
    result = check_text(edited, load_evidence(prove_bundle))
    assert [(x.kind, x.quoted, x.expected) for x in result.mismatches] == [
        ("number", "×0.0123", m.group(1))
    ]


def test_a_line_added_by_hand_is_tied_excused_or_reported(ab_run: Path) -> None:
    text = (ab_run / "report.md").read_text()
    evidence = load_evidence(ab_run)
    tied = (
        "`Codes.sum` n=128 got 12.0% slower: 48.0 ns/op → 53.7 ns/op.\n\n"
        "Seen again on 2026-11-20 with JDK 17 on x86_64, see #123:\n\n"
        "```sh\njava -Xmx2g -jar target/benchmarks.jar -f 3\n```\n\n"
    )
    ok = check_text(text.replace("### Methodology\n", tied + "### Methodology\n"), evidence)
    assert ok.ok, [m.message for m in ok.mismatches]
    assert ok.excused >= 6  # the date, the version, the name, the link, the command
    wrong = tied.replace("12.0% slower", "15.0% slower") + "It ran on 3 machines.\n\n"
    bad = check_text(text.replace("### Methodology\n", wrong + "### Methodology\n"), evidence)
    assert [(m.kind, m.quoted) for m in bad.mismatches] == [("delta", "15.0%"), ("untied", "3")]
    assert "tied to nothing in the run" in bad.mismatches[1].message


def test_a_verdict_word_put_in_another_ones_place_is_caught(ab_run: Path) -> None:
    """Not a number, but the same lie: a row or the summary saying what the run does not."""
    text = (ab_run / "report.md").read_text()
    evidence = load_evidence(ab_run)
    row = "| +12.0% [+3.4, +21.3] | regressed |"
    for old, new, where in [
        (row, row.replace("regressed", "improved"), "column Verdict, row 128"),
        ("1 regressed (+12%)", "1 improved (+12%)", "Summary"),
    ]:
        assert old in text
        result = check_text(text.replace(old, new), evidence)
        assert [(m.kind, m.quoted, m.expected) for m in result.mismatches] == [
            ("word", "improved", "regressed")
        ]
        assert where in result.mismatches[0].message
    added = text.replace(row, row.replace("regressed", "regressed, as expected"))
    assert check_text(added, evidence).ok  # words added to a row are the author's


def test_a_commit_id_or_a_title_edited_by_hand(ab_run: Path) -> None:
    """A commit id is not a number, but another commit: named. A title rewritten by hand
    leaves the page perfproof's (most of its lines are), so its numbers stay held."""
    text = (ab_run / "report.md").read_text()
    evidence = load_evidence(ab_run)
    other = check_text(text.replace("(9a8b7c6d5e4f)", "(9a8b7c6d5e4e)", 1), evidence)
    assert [(m.line, m.kind, m.quoted) for m in other.mismatches] == [(1, "commit", "9a8b7c6d5e4e")]
    retitled = text.replace("## Performance: faster-codes", "## Codes got faster:", 1)
    assert check_text(retitled, evidence).ok
    bad = check_text(retitled.replace("(+12%)", "(+13%)"), evidence)
    assert [(m.kind, m.quoted) for m in bad.mismatches] == [("number", "+13%")]


def test_a_header_above_the_report_leaves_it_perfproofs(ab_run: Path) -> None:
    """A bot's comment header above the title: the report is still held to every number."""
    text = (ab_run / "report.md").read_text()
    header = "<!-- perfproof-bot -->\nResults for PR #12 (see https://ci.example/run/4711):\n\n"
    evidence = load_evidence(ab_run)
    assert check_text(header + text, evidence).ok
    bad = check_text(header + text.replace("(+12%)", "(+11%)"), evidence)
    assert [(m.line, m.quoted) for m in bad.mismatches] == [(6, "+11%")]


def test_a_report_trimmed_by_hand_still_pairs_its_other_lines(ab_run: Path) -> None:
    """A row left out: the rows after it keep their own rendered lines (no shift)."""
    text = (ab_run / "report.md").read_text()
    row = next(line for line in text.splitlines() if line.startswith("| 16 | 11.4"))
    result = check_text(text.replace(row + "\n", ""), load_evidence(ab_run))
    assert result.ok, [m.message for m in result.mismatches]


def test_raw_tables_are_checked_only_while_the_raw_files_are_there(
    make_run_folder: Callable[[str], Path], tmp_path: Path
) -> None:
    run = make_run_folder("ab")
    text = write_reports(run, ("md",))[0].read_text()
    raw_at = text.splitlines().index("### Raw JMH results") + 1
    # the raw files the section names (JMH's console tables stay in the run folder)
    assert text.count("`02-head.json`") == 1
    edited = text.replace("`02-head.json`", "`03-head.json`")
    caught = check_text(edited, load_evidence(run))
    assert [m.line > raw_at for m in caught.mismatches] == [True]
    copy = tmp_path / "copy"
    shutil.copytree(run, copy)
    shutil.rmtree(copy / "jmh")
    gone = check_text(edited, load_evidence(copy))
    assert all(m.line < raw_at for m in gone.mismatches)  # only what the raw files supplied
    assert gone.excused > 4


def test_a_hand_written_body_keeps_its_quotes_check(ab_run: Path) -> None:
    """A body that does not open as perfproof's report is not held to every number."""
    body = "## Faster codes\n\nMeasured on a 2-core machine; Codes.sum n=128: 48.0 ns/op.\n"
    result = check_text(body, load_evidence(ab_run))
    assert result.ok and result.compared_with is None and result.checked == 1
