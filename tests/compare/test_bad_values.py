"""Inputs no statistic can use are refused with one line naming the file and the benchmark,
and odd but valid inputs (huge scores, parameters with `|` or newlines) stay readable."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

GOOD = [[10.0, 10.1, 10.0], [10.2, 10.1, 10.3], [9.9, 10.0, 10.1]]


def _one_error_line(r, *fragments: str) -> str:
    assert r.code == 2, (r.out, r.err)
    (line,) = r.err.strip().splitlines()
    assert "Traceback" not in r.err
    for fragment in fragments:
        assert fragment in line, line
    return line


@pytest.mark.parametrize(
    "scores",
    [
        [[0.0, 0.0, 0.0]] * 3,
        [[-5.0, -5.1, -4.9], [-5.2, -5.0, -4.8]],
        [[10.0, 0.0, 10.0], *GOOD[1:]],
    ],
)
@pytest.mark.parametrize("unit", ["ns/op", "ops/s"])
def test_time_or_throughput_at_or_below_zero_is_refused(
    run_cli, make_jmh_entry, write_jmh, scores, unit
) -> None:
    base = write_jmh("base.json", [make_jmh_entry("x.B.run", GOOD, unit=unit)])
    head = write_jmh("head.json", [make_jmh_entry("x.B.run", scores, unit=unit)])
    line = _one_error_line(run_cli("compare", base, head), str(head), "x.B.run", "<= 0")
    assert "must be > 0" in line


def test_zero_bytes_per_op_is_a_measurement_not_an_error(
    run_cli, make_jmh_entry, write_jmh
) -> None:
    base = write_jmh("base.json", [make_jmh_entry("x.B.run", GOOD, alloc=24.0)])
    head = write_jmh("head.json", [make_jmh_entry("x.B.run", GOOD, alloc=0.0)])
    r = run_cli("compare", base, head, "--format", "json")
    assert r.code == 0, r.err
    (alloc,) = [c for c in json.loads(r.out)["comparisons"] if c["metric"] != "primary"]
    assert alloc["verdict"] == "improved"


def test_an_entry_listed_twice_in_one_file_is_refused(run_cli, make_jmh_entry, write_jmh) -> None:
    entry = make_jmh_entry("x.B.run", GOOD)
    base = write_jmh("base.json", [entry])
    head = write_jmh("head.json", [entry, entry])
    _one_error_line(run_cli("compare", base, head), str(head), "x.B.run", "more than once")
    # the same forks in two files of one side are one round copied, not two rounds
    rounds = write_jmh("rounds/2.json", [entry])
    first = write_jmh("rounds/1.json", [entry])
    line = _one_error_line(run_cli("compare", base, rounds.parent), str(rounds), "x.B.run")
    assert f"also in {first}" in line


def test_a_round_file_copied_or_linked_is_refused(
    run_cli, make_jmh_entry, write_jmh, tmp_path
) -> None:
    """Four copies of one round turned an inconclusive key into a verdict: refused instead."""
    base = write_jmh("base.json", [make_jmh_entry("x.B.run", GOOD)])
    spread = [[10.0, 10.4, 10.2], [10.9, 11.1, 11.0], [10.3, 10.6, 10.4]]
    one = write_jmh("head/1.json", [make_jmh_entry("x.B.run", spread)])
    for n in (2, 3, 4):
        (tmp_path / "head" / f"{n}.json").write_text(one.read_text())
    _one_error_line(run_cli("compare", base, one.parent), "x.B.run", "given twice")
    for n in (2, 3, 4):
        (tmp_path / "head" / f"{n}.json").unlink()
    (tmp_path / "head" / "link.json").symlink_to(one)
    _one_error_line(run_cli("compare", base, one.parent), "x.B.run", "given twice")
    # a fork repeated inside one entry's rawData is the same slip
    twice = make_jmh_entry("x.B.run", [spread[0], spread[0], spread[1]])
    head = write_jmh("twice.json", [twice])
    _one_error_line(run_cli("compare", base, head), str(head), "twice in it")


def test_true_as_an_iteration_and_negative_bytes_are_not_measurements(
    run_cli, make_jmh_entry, write_jmh
) -> None:
    base = write_jmh("base.json", [make_jmh_entry("x.B.run", GOOD, alloc=24.0)])
    entry = make_jmh_entry("x.B.run", GOOD)
    entry["primaryMetric"]["rawData"] = [[True, True, True], *GOOD[1:]]
    head = write_jmh("bool.json", [entry])
    _one_error_line(run_cli("compare", base, head), str(head), "x.B.run", "True")
    head = write_jmh("neg.json", [make_jmh_entry("x.B.run", GOOD, alloc=-24.0)])
    line = _one_error_line(run_cli("compare", base, head), str(head), "x.B.run", "-24")
    assert "negative" in line


@pytest.mark.parametrize(
    ("raw", "why"),
    [
        ([["NaN", "NaN"], ["Infinity", "NaN"]], "no finite values"),
        ([], "no forks"),
        ([[], []], "no forks"),
    ],
)
def test_a_side_without_usable_forks_is_named(run_cli, make_jmh_entry, write_jmh, raw, why) -> None:
    base = write_jmh("base.json", [make_jmh_entry("x.B.run", GOOD)])
    entry = make_jmh_entry("x.B.run", GOOD)
    entry["primaryMetric"]["rawData"] = raw
    head = write_jmh("head.json", [entry])
    line = _one_error_line(run_cli("compare", base, head), str(head), "x.B.run", why)
    assert "no entry" not in line


def test_huge_scores_compare_without_numpy_warnings(make_jmh_entry, write_jmh) -> None:
    base = write_jmh("base.json", [make_jmh_entry("x.B.run", [[1e306, 1.1e306]] * 3)])
    spread = [[1.2e306, 1.3e306], [1.25e306, 1.35e306], [1.1e306, 1.5e306]]
    head = write_jmh("head.json", [make_jmh_entry("x.B.run", spread)])
    for fmt in ("table", "md", "json"):
        done = subprocess.run(
            [sys.executable, "-W", "error", "-m", "perfproof", "compare", str(base), str(head),
             "--format", fmt],
            capture_output=True, text=True, check=False,
        )  # fmt: skip
        assert done.returncode == 0, done.stderr
        assert "Warning" not in done.stderr and "overflow" not in done.stderr
        if fmt == "md":
            assert "| 1.05e+297 s/op ± " in done.stdout  # 1.05e306 ns/op, in JMH's largest unit
    doc = json.loads(done.stdout)  # strict: the document has no Infinity or NaN
    assert doc["comparisons"][0]["verdict"] in ("regressed", "inconclusive")


def test_scores_whose_mean_overflows_are_refused(run_cli, make_jmh_entry, write_jmh) -> None:
    base = write_jmh("base.json", [make_jmh_entry("x.B.run", [[1.7e308, 1.6e308]] * 2)])
    head = write_jmh("head.json", [make_jmh_entry("x.B.run", GOOD)])
    line = _one_error_line(run_cli("compare", base, head), str(base), "x.B.run", "overflows")
    assert "∞" not in line


def test_deeply_nested_json_is_refused(run_cli, tmp_path, make_jmh_entry, write_jmh) -> None:
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 200_000 + "]" * 200_000)
    good = write_jmh("good.json", [make_jmh_entry("x.B.run", GOOD)])
    _one_error_line(run_cli("compare", good, deep), str(deep), "nested")


def test_parameters_with_pipes_and_newlines_keep_markdown_rows(
    run_cli, make_jmh_entry, write_jmh
) -> None:
    params = {"sep": "a|b", "text": "line1\nline2"}
    base = write_jmh("base.json", [make_jmh_entry("x.B.run", GOOD, params=params)])
    head = write_jmh("head.json", [make_jmh_entry("x.B.run", GOOD, params=params)])
    r = run_cli("compare", base, head, "--format", "md")
    assert r.code == 0, r.err
    from markdown_it import MarkdownIt

    tokens = MarkdownIt("commonmark").enable("table").parse(r.out)
    rows = [t for t in tokens if t.type == "tr_open"]
    cells = [t.content for t in tokens if t.type == "inline"]
    assert "a|b" in cells and "line1<br>line2" in cells
    header = next(i for i, line in enumerate(r.out.splitlines()) if line.startswith("| sep"))
    row = r.out.splitlines()[header + 2]
    assert row.startswith("| a\\|b | line1<br>line2 |")
    assert len(rows) >= 2


@pytest.mark.parametrize("raw", [[["NaN", "NaN", "NaN"]] * 2, []])
def test_a_broken_head_beside_good_keys_fails_loudly(
    run_cli, make_jmh_entry, write_jmh, raw
) -> None:
    """One key measured nothing on head while the others compared: never a silent pass."""
    good = make_jmh_entry("x.B.ok", GOOD)
    base = write_jmh("base.json", [good, make_jmh_entry("x.B.run", GOOD)])
    broken = make_jmh_entry("x.B.run", GOOD)
    broken["primaryMetric"]["rawData"] = raw
    head = write_jmh("head.json", [good, broken])
    r = run_cli("compare", base, head, "--fail-on-regression")
    _one_error_line(r, str(head), "x.B.run", "in head")
