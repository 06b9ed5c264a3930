"""``perfproof prove`` on the embedded demo project, with tiny JMH settings."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from perfproof.audit.check import check_text, load_evidence
from perfproof.demo.project import write_demo_repo
from perfproof.model.documents.prove import read_prove

from .conftest import commit
from .test_hypothesis import BENCH, PUBLISH, REPORT, write_hunt

pytestmark = [pytest.mark.jvm, pytest.mark.slow, pytest.mark.timeout(420)]

TINY = "-f 1 -wi 1 -i 2 -w 100ms -r 100ms"


@pytest.fixture
def demo(tmp_path: Path, prove_cache: Path) -> Path:
    if shutil.which("mvn") is None or shutil.which("java") is None:
        pytest.skip("needs Maven and a JDK")
    return write_demo_repo(tmp_path / "project").path


def test_prove_finds_the_chain_without_bench_and_check_passes(
    demo: Path, tmp_path: Path, run_cli, number_changes
) -> None:
    out = tmp_path / "bundle"
    hunt = write_hunt(tmp_path / "hunt", REPORT, PUBLISH)  # as `hunt` on the baseline names them
    res = run_cli(
        "prove", "--repo", demo, "--base", "baseline", "--head", "feature",
        "--jmh-args", TINY, "--max-rounds", "3", "--out", out,
        "--hypothesis", "ErrorReporter.report", "--from", hunt,
    )  # fmt: skip
    assert res.code == 0, res.err
    doc = read_prove(out / "prove.json").dump()
    stages = doc["stages"]
    changed = {m["method"] for m in stages["changes"]["result"]["methods"]}
    assert {"ErrorReporter.report(short)", "EventBus.publish(String)"} <= changed
    callers = {e["method"]: e["callers"] for e in stages["callers"]["result"]["methods"]}
    assert callers["ErrorReporter.report(short)"]["benchmark"] == 1
    reached = {r["benchmark"]: r["path"] for r in stages["benchmarks"]["result"]["reached"]}
    assert reached == {
        "perfdemo.bench.ErrorReporterBench.report": [
            "ErrorReporterBench.report(Blackhole)",
            "ErrorReporter.report(short)",
        ],
        "perfdemo.bench.EventBusBench.publishNoListeners": [
            "EventBusBench.publishNoListeners(Blackhole)",
            "EventBus.publish(String)",
        ],
    }
    assert stages["guard"]["status"] == "skipped"
    assert stages["ab"]["status"] == "done"
    assert not list((out / "ab").glob("jfr/**/*.jfr"))  # no timing fork ran the recorder
    profiled = out / "profile" / "forks" / "jfr"
    design = stages["profile"]["result"]["design"]
    # the two forks a side each recorded key needs, in one step a side
    assert design["forks"] == 2 and not list(profiled.glob("r2-*"))
    for side in ("base", "head"):
        assert len(list(profiled.glob(f"r1-{side}/*.jfr"))) == 2 * len(design["recorded"])
    assert stages["profile"]["result"]["forks_run"] == str(profiled.parent)
    tests = stages["tests"]["result"]
    assert tests["selected"] == ["ErrorReporterTest", "EventBusTest"]
    for side in ("base", "head"):
        assert tests[side]["counts"] == {"passed": 5, "failed": 0, "error": 0, "skipped": 0}
    assert tests["regressions"] == []
    amdahl = {a["method"]: a for a in stages["profile"]["result"]["amdahl"]}
    assert amdahl["ErrorReporter.report(short)"]["cpu_share"] > 0
    reach = {k["benchmark"]: k for k in stages["ab"]["result"]["reach"]}
    assert set(reach) == set(reached) and all(k["reached"] for k in reach.values())
    shares = {k["benchmark"]: k for k in stages["profile"]["result"]["keys"]}
    assert set(shares) == set(reached)  # each from its own recorded forks
    assert shares["perfdemo.bench.ErrorReporterBench.report"]["cpu_share"] > 0.5
    assert not any(k["beyond"] for k in shares.values())
    profile = stages["profile"]["result"]
    assert profile["focus"][0] == "perfdemo.ErrorReporter"
    # the tables in the report are the rows the stage kept, as profile diff renders them
    from perfproof.model.documents.profile_diff import ProfileDiffDoc
    from perfproof.profile.render import diff_table, read_diff

    report = (out / "report.md").read_text()
    assert profile["tables"]["rows"] and all(e["tables"] for e in profile["per_op"])
    for kept in (profile["tables"], *(e["tables"] for e in profile["per_op"])):
        d = read_diff(ProfileDiffDoc.model_validate(kept))
        for kind in d.kinds:
            rows = [r for r in d.rows if r.kind == kind]
            assert "\n".join(diff_table(d, kind, rows, md=True)) in report, kind
    focus = profile["hypothesis"]
    assert focus["id"] == REPORT.id and focus["touched"] is True
    # tiny forks hold too few samples for the hunt's own benchmark: the share is of all of them
    assert focus["cpu_share"] > 0.1 and focus["benchmark"] == BENCH
    # the per-call gain is the hypothesis benchmark's own time verdict (none while it is undecided,
    # as tiny forks on a busy machine may leave it)
    time_verdict = next(
        c["verdict"] for c in stages["ab"]["result"]["comparisons"]
        if c["benchmark"] == BENCH and c["metric"] == "primary"
    )  # fmt: skip
    if time_verdict == "improved":
        assert focus["per_call_gain"] > 0 and focus["ceiling_speedup"] > 0
    else:
        assert focus["per_call_gain"] is None, (time_verdict, focus)
    assert doc["command"][-4:] == ["--hypothesis", "ErrorReporter.report", "--from", str(hunt)]
    per_op = {e["benchmark"]: e["diff"] for e in profile["per_op"]}
    assert set(per_op) == {f"{b} [avgt]" for b in reached} or set(per_op) == {
        f"{b} [thrpt]" for b in reached
    }, set(per_op)
    for diff in per_op.values():  # each benchmark's own allocation sites lead, in B/op
        assert diff["unit"]["alloc"] == "bytes/op"
        top = diff["rows"][0]
        assert (top["focus_frame"] or "").startswith("perfdemo."), top
        assert top["before_mean"] > top["after_mean"]
    report = (out / "report.md").read_text()
    assert "Bytes per operation of `perfdemo.bench.ErrorReporterBench.report" in report
    assert f"Hypothesis `{REPORT.id}` of the hunt" in report
    assert "| baseline | 5 | 0 | 0 | 0 |" in report
    assert "no timing above was measured with JFR on" in report
    check = run_cli("check", out / "report.md", out, "--format", "json")
    assert check.code == 0, check.out
    assert json.loads(check.out)["checked"] > 300
    evidence = load_evidence(out)
    missed = [
        (line, new)
        for line, _old, new, changed in number_changes(report)
        if not any(
            m.line == line and new in m.quoted for m in check_text(changed, evidence).mismatches
        )
    ]
    assert not missed, missed[:10]


def test_a_broken_test_exits_1_and_a_failed_build_resumes(
    demo: Path, tmp_path: Path, run_cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    source = demo / "src/main/java/perfdemo/ErrorReporter.java"
    broken = source.read_text().replace(": counts[index];", ": 0;")
    assert broken != source.read_text()
    head = commit(demo, {"src/main/java/perfdemo/ErrorReporter.java": broken}, "count nothing")
    # a build tool that fails before writing any report: the stage fails with exit 3
    fake = tmp_path / "bin"
    fake.mkdir()
    (fake / "mvn").write_text("#!/bin/sh\necho 'no network today' >&2\nexit 1\n")
    (fake / "mvn").chmod(0o755)
    path = os.environ["PATH"]
    monkeypatch.setenv("PATH", f"{fake}{os.pathsep}{path}")
    out = tmp_path / "bundle"
    argv = ["prove", "--repo", demo, "--base", "feature", "--head", head, "--out", out]
    res = run_cli(*argv, "--skip", "ab")
    assert res.code == 3, res.err
    assert "stage tests" in res.err and "--resume" in res.err and "base.log" in res.err
    assert read_prove(out / "prove.json").dump()["stages"]["tests"]["status"] == "failed"
    # fixed: the chain continues from the failed stage and flags the broken test
    monkeypatch.setenv("PATH", path)
    res = run_cli("prove", "--resume", out)
    assert res.code == 1, res.err
    assert "ErrorReporterTest#countsEachReport" in res.err
    tests = read_prove(out / "prove.json").dump()["stages"]["tests"]["result"]
    assert tests["regressions"] == ["perfdemo.ErrorReporterTest#countsEachReport"]
    assert tests["head"]["counts"]["failed"] == 1 and tests["base"]["counts"]["failed"] == 0
    report = (out / "report.md").read_text()
    assert report.index("[!CAUTION]") < report.index("**Summary:**")
