"""The regression gate names every key that fails it, by metric, and JUnit XML says the same.

Six keys regress: three in time, three in bytes/op only (64 → 128 B/op at an unchanged
time). The gate message, the Markdown (what a PR comment and the job summary show) and the
JUnit XML must name all six; a long list is cut and says how many more there are.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

FAST = [[10.0, 10.01], [10.02, 10.0], [9.99, 10.0], [10.01, 10.0]]
SLOW = [[v * 1.3 for v in f] for f in FAST]
SAME = [[v * 1.0002 for v in f] for f in FAST]


def _sides(make_jmh_entry, write_jmh, time_regressed: int, alloc_regressed: int, quiet: int = 1):
    base, head = [], []
    for i in range(time_regressed):
        name = f"x.Time.t{i:02d}"
        base.append(make_jmh_entry(name, FAST, alloc=64.0))
        head.append(make_jmh_entry(name, SLOW, alloc=64.0))
    for i in range(alloc_regressed):
        name = f"x.Alloc.a{i:02d}"
        base.append(make_jmh_entry(name, FAST, alloc=64.0))
        head.append(make_jmh_entry(name, SAME, alloc=128.0))
    for i in range(quiet):
        name = f"x.Quiet.q{i:02d}"
        base.append(make_jmh_entry(name, FAST, alloc=64.0))
        head.append(make_jmh_entry(name, SAME, alloc=64.0))
    return write_jmh("base.json", base), write_jmh("head.json", head)


def test_the_gate_names_time_and_allocation_only_regressions(
    run_cli, make_jmh_entry, write_jmh, tmp_path
) -> None:
    base, head = _sides(make_jmh_entry, write_jmh, 3, 3)
    junit = tmp_path / "out" / "junit.xml"
    r = run_cli("compare", base, head, "--fail-on-regression", "--junit", junit)
    assert r.code == 1, r.err
    (line,) = [x for x in r.err.splitlines() if x.startswith("perfproof: error:")]
    assert "6 keys regressed (3 in time, 3 in bytes/op)" in line
    for i in range(3):
        assert f"x.Time.t{i:02d} [avgt] time +30" in line
        assert f"x.Alloc.a{i:02d} [avgt] bytes/op 64 → 128 B/op (+100.0%)" in line
    assert "Quiet" not in line and "more" not in line

    root = ET.parse(junit).getroot()
    suite = root.find("testsuite")
    assert suite is not None
    assert (suite.get("tests"), suite.get("failures")) == ("7", "6")
    cases = {c.get("classname") + "." + c.get("name"): c for c in suite.iter("testcase")}
    assert cases["x.Alloc.a01 [avgt]"].find("failure").get("message") == (
        "regressed: bytes/op 64 → 128 B/op (+100.0%)"
    )
    assert (
        cases["x.Time.t00 [avgt]"].find("failure").get("message").startswith("regressed: time +30")
    )
    assert cases["x.Quiet.q00 [avgt]"].find("failure") is None


def test_markdown_lists_allocation_only_regressions_by_metric(
    run_cli, make_jmh_entry, write_jmh
) -> None:
    base, head = _sides(make_jmh_entry, write_jmh, 1, 2)
    md = run_cli("compare", base, head, "--format", "md").out
    assert "**Regressed:** 3 keys regressed (1 in time, 2 in bytes/op)" in md
    assert "- `x.Alloc.a01 [avgt]` bytes/op: 64 → 128 B/op (+100.0%)" in md


def test_a_long_list_is_cut_and_says_how_many_more(run_cli, make_jmh_entry, write_jmh) -> None:
    base, head = _sides(make_jmh_entry, write_jmh, 8, 10)
    r = run_cli("compare", base, head, "--fail-on-regression")
    assert r.code == 1
    assert "18 keys regressed (8 in time, 10 in bytes/op)" in r.err
    assert "and 8 more (all of them in the comparison printed on stdout)" in r.err
    assert r.err.count("x.Time.t") == 8  # time first, then bytes/op, in key order


@pytest.mark.parametrize("flag", ["--junit"])
def test_an_output_that_names_an_input_is_refused(run_cli, make_jmh_entry, write_jmh, flag) -> None:
    base, head = _sides(make_jmh_entry, write_jmh, 1, 0)
    before = base.read_text()
    r = run_cli("compare", base, head, flag, base)
    assert r.code == 2 and "is an input of this command" in r.err
    assert base.read_text() == before
