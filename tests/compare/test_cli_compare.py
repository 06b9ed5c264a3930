"""``perfproof compare`` end to end: every option, every input error, the exit codes."""

from __future__ import annotations

import json

import pytest


def test_help_has_examples(run_cli) -> None:
    r = run_cli("compare", "--help")
    assert r.code == 0
    assert "Examples:" in r.out and "perfproof compare base.json head.json" in r.out
    for flag in ("--confidence", "--threshold", "--metric", "--family", "--format"):
        assert flag in r.out
    assert "--fail-on-regression" in r.out


def test_table_output(run_cli, stream_vs_loop) -> None:
    base, head = stream_vs_loop
    r = run_cli("compare", base, head)
    assert r.code == 0, r.err
    for text in ("benchmark", "params", "base ± ci", "Δ% [99% CI]", "verdict", "notes"):
        assert text in r.out
    assert "empty" in r.out and "n=16" in r.out and "improved" in r.out
    assert "alloc B/op" in r.out and "-4,736" in r.out
    assert "JMH's own score ± scoreError" in r.out
    assert "warm-up not reached" in r.out
    assert "bytes/op compared exactly" in r.out


def test_markdown_output(run_cli, stream_vs_loop) -> None:
    base, head = stream_vs_loop
    r = run_cli("compare", base, head, "--format", "md")
    assert r.code == 0
    lines = r.out.splitlines()
    assert lines[0].startswith("**Summary:** 1 of 1 faster (×0.000")  # 3,000x: a ratio
    assert ", 1 allocates less, 0 regressed (α = 1%" in lines[0]
    assert "#### `fx.Codes.empty` (average time)" in lines
    header = next(i for i, line in enumerate(lines) if line.startswith("| n | Baseline"))
    assert lines[header + 1].startswith("|---:|")
    (row,) = [line for line in lines[header + 2 :] if line.startswith("| 16 |")]
    assert "improved" in row and "4,736 → 0 B/op" in row


def test_json_output_and_options(run_cli, stream_vs_loop) -> None:
    base, head = stream_vs_loop
    r = run_cli(
        "compare", base, head, "--format", "json", "--confidence", "95%", "--threshold", "0.02",
        "--family", "none", "--metric", "primary",
    )  # fmt: skip
    assert r.code == 0, r.err
    doc = json.loads(r.out)
    assert doc["schema"] == "perfproof.compare/1"
    assert doc["confidence"] == pytest.approx(0.95) and doc["threshold"] == pytest.approx(0.02)
    assert doc["holm"] is False and doc["metrics"] == ["primary"]
    assert [c["metric"] for c in doc["comparisons"]] == ["primary"]
    c = doc["comparisons"][0]
    assert c["p_adjusted"] == c["p_value"] and c["family"] == "none"


def test_threshold_changes_the_verdict(run_cli, make_jmh_entry, write_jmh) -> None:
    forks_a = [[100.0, 100.1], [100.05, 100.0], [99.95, 100.0], [100.0, 100.02]]
    forks_b = [[v * 1.02 for v in f] for f in forks_a]
    a = write_jmh("a.json", [make_jmh_entry("t", forks_a)])
    b = write_jmh("b.json", [make_jmh_entry("t", forks_b)])
    strict = json.loads(run_cli("compare", a, b, "--format", "json").out)
    loose = json.loads(run_cli("compare", a, b, "--format", "json", "--threshold", "5%").out)
    assert strict["comparisons"][0]["verdict"] == "regressed"
    assert loose["comparisons"][0]["verdict"] == "negligible"


def test_fail_on_regression(run_cli, make_jmh_entry, write_jmh) -> None:
    fast = [[10.0, 10.01], [10.02, 10.0], [9.99, 10.0]]
    slow = [[v * 1.3 for v in f] for f in fast]
    a = write_jmh("a.json", [make_jmh_entry("x.Slow.m", fast)])
    b = write_jmh("b.json", [make_jmh_entry("x.Slow.m", slow)])
    r = run_cli("compare", a, b, "--fail-on-regression")
    assert r.code == 1
    assert "regressed" in r.out
    assert r.err.startswith(
        "perfproof: error: --fail-on-regression: 1 key regressed (1 in time): x.Slow.m"
    )
    assert run_cli("compare", a, b).code == 0  # without the gate a regression is just reported
    assert run_cli("compare", b, a, "--fail-on-regression").code == 0  # improvement passes


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (None, "no such file or folder"),
        ('{"hello": "world"}', "not JMH JSON output"),
        ('[{"benchmark": "a", "mode": "avgt", "primaryMetric": {"rawData": [[1', "truncated JSON"),
        ("[]", "empty JMH result list"),
    ],
)
def test_input_errors_exit_2_with_one_line(run_cli, tmp_path, stream_vs_loop, content, message):
    bad = tmp_path / "bad-side.json"
    if content is not None:
        bad.write_text(content)
    good = stream_vs_loop[0]
    for args in ((bad, good), (good, bad)):
        r = run_cli("compare", *args)
        assert r.code == 2
        lines = r.err.strip().splitlines()
        assert len(lines) == 1, r.err
        assert lines[0].startswith("perfproof: error: ") and str(bad) in lines[0]
        assert message in lines[0] and "Traceback" not in r.err


@pytest.mark.parametrize(
    ("flag", "value", "message"),
    [
        ("--threshold", "5", "ambiguous"),
        ("--threshold", "abc", "not a number"),
        ("--confidence", "99", "ambiguous"),
        ("--confidence", "0", "must be in [0.5, 1)"),
        ("--metric", "gc.nope", "no result has this metric"),
    ],
)
def test_bad_flags_exit_2(run_cli, stream_vs_loop, flag, value, message) -> None:
    r = run_cli("compare", *stream_vs_loop, flag, value)
    assert r.code == 2
    assert r.err.startswith(f"perfproof: error: {flag} {value}") and message in r.err


def test_bad_format_and_missing_argument_exit_2(run_cli, stream_vs_loop) -> None:
    assert run_cli("compare", *stream_vs_loop, "--format", "csv").code == 2
    assert run_cli("compare", stream_vs_loop[0]).code == 2


def test_glob_and_folder_sides(run_cli, stream_vs_loop, tmp_path, rerun) -> None:
    base, head = stream_vs_loop
    folder = tmp_path / "rounds"
    folder.mkdir()
    for r in (1, 2):
        (folder / f"{r}-head.json").write_text(rerun(head.read_text(), 1 + r / 1000))
    doc = json.loads(run_cli("compare", base, str(folder / "*-head.json"), "--format", "json").out)
    assert doc["comparisons"][0]["head"]["forks"] == 8
    doc = json.loads(run_cli("compare", base, folder, "--format", "json").out)
    assert doc["comparisons"][0]["head"]["forks"] == 8


def test_unmatched_listed(run_cli, fixtures_dir) -> None:
    r = run_cli(
        "compare",
        fixtures_dir / "jmh" / "jmh-1.21-avgt-gc.json",
        fixtures_dir / "jmh" / "jmh-1.37-allmodes-gc.json",
    )
    assert r.code == 0
    assert "Unmatched (not compared)" in r.out
    assert "fx.Thr.concat [thrpt] (head): no result for this entry in base" in r.out


def test_reader_notes_are_shown(run_cli, make_jmh_entry, write_jmh) -> None:
    forks = [[10.0, "NaN", 10.1], [10.2, 10.0, 10.1], [9.9, 10.0, 10.0]]
    a = write_jmh("a.json", [make_jmh_entry("n", [[10.0, 10.1, 10.0], [10.1, 10.0, 10.2]])])
    entry = make_jmh_entry("n", [[0.0]])
    entry["primaryMetric"]["rawData"] = forks
    b = write_jmh("b.json", [entry])
    r = run_cli("compare", a, b, "--format", "md")
    assert r.code == 0
    assert "**Input notes**" in r.out and "1 non-finite value(s) dropped" in r.out
    doc = json.loads(run_cli("compare", a, b, "--format", "json").out)
    assert any("non-finite" in n for n in doc["notes"])


def test_nothing_in_common_is_an_input_error(run_cli, make_jmh_entry, write_jmh) -> None:
    a = write_jmh("a.json", [make_jmh_entry("x.A.one", [[1.0, 1.0], [1.0, 1.0]])])
    b = write_jmh("b.json", [make_jmh_entry("x.B.two", [[1.0, 1.0], [1.0, 1.0]])])
    r = run_cli("compare", a, b, "--fail-on-regression")
    assert r.code == 2
    assert "nothing to compare" in r.err and "(1 in base, 1 in head)" in r.err
    assert str(a) in r.err and len(r.err.strip().splitlines()) == 1


@pytest.mark.parametrize(
    ("flags", "family"),
    [((), "bh"), (("--family", "holm"), "holm"), (("--family", "none"), "none")],
)  # fmt: skip
def test_family_option(run_cli, stream_vs_loop, flags, family: str) -> None:
    base, head = stream_vs_loop
    doc = json.loads(run_cli("compare", base, head, "--format", "json", *flags).out)
    assert doc["family"] == family
    for c in doc["comparisons"]:
        if c["method"] != "exact":
            assert c["family"] == family
            assert (c["p_holm"] is not None) == (family == "holm")
    md = run_cli("compare", base, head, "--format", "md", *flags).out
    words = {"bh": "Benjamini–Hochberg at 1%", "holm": "Holm at 1%", "none": "no adjustment"}
    assert "Multiplicity: " + words[family] in md


def test_unknown_family_is_a_usage_error(run_cli, stream_vs_loop) -> None:
    base, head = stream_vs_loop
    r = run_cli("compare", base, head, "--family", "bonferroni")
    assert r.code == 2 and "--family" in r.err


def test_the_methods_and_their_words_are_the_registry_s(run_cli) -> None:
    from perfproof.stats.methods import DEFAULT, FORK_METHODS

    r = run_cli("compare", "--help")
    shown = " ".join(r.out.split())
    assert f"--method [{'|'.join(FORK_METHODS)}]" in shown
    for name, method in FORK_METHODS.items():
        assert f"{name} ({method.summary})" in shown
    assert f"[default: {DEFAULT.name}]" in shown


def test_an_unknown_method_is_refused_in_one_line_naming_it_and_the_methods(
    run_cli, stream_vs_loop
) -> None:
    from perfproof.stats.methods import FORK_METHODS

    base, head = stream_vs_loop
    r = run_cli("compare", base, head, "--method", "fork-median")
    assert r.code == 2 and r.out == ""
    (line,) = r.err.splitlines()
    assert line.startswith("perfproof: error: ") and "'--method'" in line
    assert f"'fork-median' is not one of {', '.join(FORK_METHODS)}" in line
    ranked = run_cli("compare", base, head, "--method", "fork-ranks", "--format", "json")
    assert ranked.code == 0, ranked.err
