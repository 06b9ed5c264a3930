"""Scan on the planted corpus: every planted instance found, every near miss left alone."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

RULE_IDS = [
    "boxed-key-lookup",
    "stream-on-empty",
    "enummap-per-call",
    "direct-buffer-per-call",
    "format-in-hot-path",
    "boxing-in-loop",
]


def _scan(run_cli, corpus, *args):
    result = run_cli("scan", "--repo", corpus, "--format", "json", *args)
    assert result.code == 0, result.err
    return json.loads(result.out)


def test_findings_are_exactly_the_planted_instances(run_cli, corpus, expected_findings):
    doc = _scan(run_cli, corpus)
    got = {(f["rule"], f["file"], f["line"]) for f in doc["findings"]}
    assert got == expected_findings
    assert len(doc["findings"]) == len(expected_findings) == 18


def test_every_rule_has_planted_instances(expected_findings):
    assert {rule for rule, _f, _l in expected_findings} == set(RULE_IDS)


@pytest.mark.parametrize("rule", RULE_IDS)
def test_rule_filter(run_cli, corpus, expected_findings, rule):
    doc = _scan(run_cli, corpus, "--rule", rule)
    got = {(f["rule"], f["file"], f["line"]) for f in doc["findings"]}
    assert got == {e for e in expected_findings if e[0] == rule}
    assert set(doc["rules"]) == {rule}
    assert doc["rules"][rule]["explanation"] and doc["rules"][rule]["rewrite"]


def test_test_files_are_not_scanned(run_cli, corpus):
    doc = _scan(run_cli, corpus)
    assert not [f for f in doc["findings"] if "/src/test/" in f["file"]]  # CodecTest formats


def test_ranked_by_production_callers_without_profile(run_cli, corpus):
    doc = _scan(run_cli, corpus)
    assert doc["ranked_by"] == "production callers"
    first = doc["findings"][0]
    assert (first["method"], first["callers"], first["rule"]) == (
        "Errors.forCode",
        5,
        "boxed-key-lookup",
    )
    callers = [f["callers"] for f in doc["findings"]]
    assert callers == sorted(callers, reverse=True)
    by_method = {f["method"]: f["callers"] for f in doc["findings"]}
    assert by_method["Formats.key"] == 1  # called from describe()
    assert by_method["DirectBuffers.Pool.allocateDirect"] == 1  # from pooled()
    assert all(f["share"] is None for f in doc["findings"])


def test_ranked_by_collapsed_profile(run_cli, corpus, tmp_path: Path):
    profile = tmp_path / "cpu.collapsed"
    profile.write_text(
        "java.lang.Thread.run;org.acme.scan.Boxing.tally;java.util.HashMap.merge 60\n"
        "java.lang.Thread.run;org.acme.scan.Formats.key;java.lang.String.format 30\n"
        "java.lang.Thread.run;org.acme.scan.Formats.lambda$describe$0;x.Y.z 10\n"
    )
    doc = _scan(run_cli, corpus, "--profile", profile)
    assert doc["ranked_by"] == "profile share"
    top = [(f["method"], f["share"]) for f in doc["findings"][:2]]
    assert top == [("Boxing.tally", pytest.approx(0.6)), ("Formats.key", pytest.approx(0.3))]
    assert doc["findings"][2]["share"] == 0.0
    assert doc["findings"][2]["method"] == "Errors.forCode"  # ties fall back to callers


def test_alloc_and_cpu_shares_are_averaged(run_cli, corpus, tmp_path: Path):
    cpu = tmp_path / "cpu.collapsed"
    cpu.write_text("a.Main.main;org.acme.scan.EnumMaps.snapshot 10\na.Main.main;b.C.d 30\n")
    alloc = tmp_path / "alloc.collapsed"
    # a leaf marked `_[a]` is the allocated class: these are allocation stacks (bytes)
    alloc.write_text("a.Main.main;org.acme.scan.EnumMaps.snapshot;java.util.EnumMap_[a] 300\n")
    doc = _scan(run_cli, corpus, "--profile", cpu, "--profile", alloc)
    first = doc["findings"][0]
    assert first["method"] == "EnumMaps.snapshot"
    assert first["shares"] == {"cpu": pytest.approx(0.25), "alloc": pytest.approx(1.0)}
    assert first["share"] == pytest.approx(0.625)


def test_table_and_markdown(run_cli, corpus):
    table = run_cli("scan", "--repo", corpus)
    assert table.code == 0
    assert table.out.startswith("18 findings, ranked by production callers")
    assert "core/src/main/java/org/acme/protocol/Errors.java:29" in table.out
    md = run_cli("scan", "--repo", corpus, "--format", "md", "--rule", "boxing-in-loop")
    assert "**boxing-in-loop**" in md.out and "Rewrite:" in md.out
    assert "| `core/src/main/java/org/acme/scan/Boxing.java:14` | `Boxing.sum` |" in md.out


def test_bad_input(run_cli, corpus, tmp_path: Path):
    unknown = run_cli("scan", "--repo", corpus, "--rule", "no-such-rule")
    assert unknown.code == 2 and "--rule no-such-rule: unknown rule" in unknown.err
    missing = run_cli("scan", "--repo", corpus, "--profile", tmp_path / "nope.jfr")
    assert missing.code == 2 and "nope.jfr" in missing.err
    garbage = tmp_path / "garbage.collapsed"
    garbage.write_text("not a stack line\n")
    bad = run_cli("scan", "--repo", corpus, "--profile", garbage)
    assert bad.code == 2 and "garbage.collapsed" in bad.err
    assert len(bad.err.strip().splitlines()) == 1


def test_profile_from_other_code_warns(run_cli, corpus, tmp_path: Path):
    profile = tmp_path / "elsewhere.collapsed"
    profile.write_text("java.lang.Thread.run;com.other.App.work 100\n")
    doc = _scan(run_cli, corpus, "--profile", profile)
    assert len(doc["warnings"]) == 1 and "appears in the profile" in doc["warnings"][0]
    assert doc["findings"][0]["method"] == "Errors.forCode"  # callers still order equals
    table = run_cli("scan", "--repo", corpus, "--profile", profile)
    assert "warning: no finding's method appears in the profile" in table.out


def test_one_finding_is_singular(run_cli, tmp_path: Path):
    src = tmp_path / "core/src/main/java/a/Buffers.java"
    src.parent.mkdir(parents=True)
    src.write_text(
        "package a;\nimport java.nio.ByteBuffer;\n"
        "class Buffers { ByteBuffer get(int n) { return ByteBuffer.allocateDirect(n); } }\n"
    )
    table = run_cli("scan", "--repo", tmp_path, "--no-cache")
    assert table.out.startswith("1 finding, ranked by production callers"), table.out
    md = run_cli("scan", "--repo", tmp_path, "--no-cache", "--format", "md")
    assert "### Hot-path patterns (1 finding, ranked by" in md.out
