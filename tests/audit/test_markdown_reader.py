"""The PR-body reader on Markdown a hand-rolled scanner gets wrong: GFM tables without a
leading ``|``, fences of any kind, escaped pipes, European decimals, SI-prefixed units."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from perfproof.audit.check import check_file, check_text
from perfproof.audit.quotes import Names, parse
from perfproof.report.rundir import load_run

NAMES = Names(["fx.Codes.sum", "fx.Thr.concat"], ["n"])


def _quotes(text: str) -> list[Any]:
    return parse(text, NAMES).quotes


def test_table_without_leading_pipe_is_read() -> None:
    text = (
        "Benchmark | n | Before | After\n--- | --- | --- | ---\n"
        "Codes.sum | 16 | 11.44 ns/op | 12.00 ns/op\n"
    )
    qs = _quotes(text)
    assert [(q.value, q.side, q.benchmark, q.params, q.line) for q in qs] == [
        (11.44, "base", "fx.Codes.sum", {"n": "16"}, 3),
        (12.0, "head", "fx.Codes.sum", {"n": "16"}, 3),
    ]


@pytest.mark.parametrize(
    "fence",
    [("```", "```"), ("~~~", "~~~"), ("````text", "````"), ("~~~~ console", "~~~~")],
)
def test_console_table_in_any_fence(fence: tuple[str, str]) -> None:
    opening, closing = fence
    text = (
        f"**Baseline**\n\n{opening}\n"
        "Benchmark      (n)  Mode  Cnt   Score   Error  Units\n"
        "Codes.sum       16  avgt    6  11.415 ± 0.496  ns/op\n"
        f"{closing}\n\nOutside the fence 48.0 ns/op for Codes.sum n=128.\n"
    )
    qs = _quotes(text)
    assert [(q.value, q.error, q.side, q.line) for q in qs] == [
        (11.415, 0.496, "base", 5),
        (48.0, None, None, 8),
    ]
    assert qs[1].params == {"n": "128"}


def test_indented_console_block_is_code_not_prose() -> None:
    text = (
        "Results:\n\n"
        "    Benchmark   (n)  Mode  Cnt   Score   Error  Units\n"
        "    Codes.sum    16  avgt    6  11.415 ± 0.496  ns/op\n"
    )
    qs = _quotes(text)
    assert [(q.value, q.params, q.line) for q in qs] == [(11.415, {"n": "16"}, 4)]


def test_numbers_inside_other_fences_are_not_quotes() -> None:
    text = "```java\nint x = 12; // 48.0 ns/op in Codes.sum\n```\n"
    assert _quotes(text) == []


@pytest.mark.parametrize(
    "text", ["Codes.sum: 1.234,5 ns/op", "Codes.sum 1.234,5% faster", "Codes.sum 12,5 ns/op"]
)
def test_european_decimals_are_not_quoted_in_pieces(text: str) -> None:
    assert [q.text for q in _quotes(text)] == []


def test_si_prefixed_throughput_is_scaled() -> None:
    (q,) = _quotes("Codes.sum: 24.6 ± 2.8 M ops/s")
    assert (q.value, q.error, q.unit, q.factor) == (24.6, 2.8, "ops/s", 1e6)


def test_escaped_pipe_and_line_break_in_a_cell_are_one_value() -> None:
    names = Names(["fx.Codes.sum"], ["mode"])
    text = (
        "| Benchmark | mode | Before |\n|---|---|---|\n| Codes.sum | a\\|b<br>c | 11.44 ns/op |\n"
    )
    (q,) = parse(text, names).quotes
    assert q.params == {"mode": "a|b\nc"}


def test_line_numbers_follow_the_source_through_lists_and_quotes() -> None:
    text = (
        "# Codes.sum n=16\n\n- first 11.44 ns/op\n- then\n  12.00 ns/op\n\n> quoted 13.00 ns/op\n"
    )
    assert [(q.value, q.line) for q in _quotes(text)] == [(11.44, 3), (12.0, 5), (13.0, 7)]


def _run_with_param(src: Path, dest: Path, value: str) -> Path:
    """The fixture run with the @Param value ``16`` renamed to ``value`` everywhere."""
    from perfproof.compare import CompareOptions, compare_document, compare_sides
    from perfproof.jmh.reader import read_results

    shutil.copytree(src, dest)
    for f in (dest / "jmh").glob("*.json"):
        entries = json.loads(f.read_text())
        for e in entries:
            if (e.get("params") or {}).get("n") == "16":
                e["params"]["n"] = value
        f.write_text(json.dumps(entries))
    files = sorted((dest / "jmh").glob("*.json"))
    base = read_results([f for f in files if f.stem.endswith("-base")])
    head = read_results([f for f in files if f.stem.endswith("-head")])
    doc = compare_document(compare_sides(base, head, CompareOptions()))
    (dest / "results.json").write_text(json.dumps({**doc, "run_dir": str(dest)}))
    for stale in ("report.md", "report.html"):
        (dest / stale).unlink(missing_ok=True)
    return dest


AWKWARD = ["a|b", "x \\| y", "two\nlines"]


@pytest.mark.parametrize("value", AWKWARD)
def test_check_reads_the_one_table_writer_and_prose(
    make_run_folder: Callable[[str], Path], tmp_path: Path, value: str
) -> None:
    """Cells written by render.markdown.markdown_table (``|`` escaped, breaks as ``<br>``) and
    the value named in one-line prose are read back as the run's @Param value."""
    from perfproof.render.markdown import markdown_table, md_text

    run = _run_with_param(make_run_folder("ab"), tmp_path / "run", value)
    doc = json.loads((run / "results.json").read_text())
    c = next(
        c
        for c in doc["comparisons"]
        if c["benchmark"] == "fx.Codes.sum"
        and c["params"] == {"n": value}
        and c["metric"] == "primary"
    )
    b, h = f"{c['base']['estimate']:.2f} ns/op", f"{c['head']['estimate']:.2f} ns/op"
    table = markdown_table(["Benchmark", "n", "Baseline", "Feature"], [["Codes.sum", value, b, h]])
    prose = md_text(f"Codes.sum n={value}: {b} → {h}.")
    text = "\n".join([*table, "", prose]) + "\n"
    result = check_text(text, load_run(run))
    assert result.mismatches == [], [m.message for m in result.mismatches]
    assert result.checked == 4 and result.unattributed == 0
    wrong = text.replace(b, f"{c['base']['estimate'] + 1:.2f} ns/op", 1)
    assert [m.kind for m in check_text(wrong, load_run(run)).mismatches] == ["score"]


@pytest.mark.parametrize("value", AWKWARD)
def test_own_report_with_awkward_param_values_passes_the_check(
    make_run_folder: Callable[[str], Path], tmp_path: Path, value: str
) -> None:
    from perfproof.report import write_reports

    run = _run_with_param(make_run_folder("ab"), tmp_path / "run", value)
    md = next(p for p in write_reports(run, ("md",)))
    result = check_file(md, run)
    assert result.mismatches == [], [m.message for m in result.mismatches]
    assert result.checked > 20


def test_wrong_number_in_a_gfm_table_is_caught(make_run_folder: Callable[[str], Path]) -> None:
    run = make_run_folder("ab")
    doc = json.loads((run / "results.json").read_text())
    c = next(
        c
        for c in doc["comparisons"]
        if c["benchmark"] == "fx.Codes.sum"
        and c["params"] == {"n": "128"}
        and c["metric"] == "primary"
    )
    good = f"{c['base']['estimate']:.1f}"
    bad = f"{c['base']['estimate'] + 3:.1f}"
    text = f"Benchmark | n | Before\n---|--:|--:\n`Codes.sum` | 128 | {good} ns/op\n"
    assert check_text(text, load_run(run)).mismatches == []
    (m,) = check_text(text.replace(good, bad), load_run(run)).mismatches
    assert (m.kind, m.line) == ("score", 3) and good in m.expected
