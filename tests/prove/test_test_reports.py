"""JUnit XML reports read into per-test outcomes, counts and base/head differences."""

from __future__ import annotations

from pathlib import Path

import pytest

from perfproof.errors import ExternalError
from perfproof.model.documents.project_tests import TestRun
from perfproof.workspace.tests import (
    ERROR,
    FAILED,
    PASSED,
    SKIPPED,
    compare_runs,
    parse_junit_xml,
    report_files,
    runner_argv,
)

SUREFIRE = """<?xml version="1.0" encoding="UTF-8"?>
<testsuite name="perfdemo.ErrorReporterTest" tests="4" failures="1" errors="1" skipped="1">
  <properties><property name="java.version" value="17"/></properties>
  <testcase name="reportsKnownCodes" classname="perfdemo.ErrorReporterTest" time="0.01"/>
  <testcase name="countsCodes" classname="perfdemo.ErrorReporterTest" time="0.01">
    <failure message="expected: &lt;2&gt; but was: &lt;1&gt;" type="AssertionFailedError">
      trace</failure>
  </testcase>
  <testcase name="unknown" classname="perfdemo.ErrorReporterTest">
    <error message="boom" type="java.lang.IllegalStateException"/>
  </testcase>
  <testcase name="later" classname="perfdemo.ErrorReporterTest"><skipped/></testcase>
</testsuite>
"""


def test_surefire_report_statuses_and_messages() -> None:
    cases = parse_junit_xml(SUREFIRE)
    assert [(c.name.split("#")[1], c.status) for c in cases] == [
        ("reportsKnownCodes", PASSED),
        ("countsCodes", FAILED),
        ("unknown", ERROR),
        ("later", SKIPPED),
    ]
    assert cases[1].message == "expected: <2> but was: <1>"
    run = TestRun(side="base", sha="0" * 40, command=["mvn"], cases=cases, duration_s=1.23456)
    assert run.counts == {PASSED: 1, FAILED: 1, ERROR: 1, SKIPPED: 1}
    written = run.model_dump(mode="json")
    assert written["counts"] == run.counts and written["duration_s"] == 1.235
    assert TestRun.model_validate(written).cases == cases


def test_testsuites_wrapper_and_bad_xml() -> None:
    wrapped = f"<testsuites>{SUREFIRE.split('?>', 1)[1]}</testsuites>"
    assert len(parse_junit_xml(wrapped)) == 4
    with pytest.raises(ExternalError, match="not a JUnit XML report"):
        parse_junit_xml("<testsuite", "r.xml")


def test_regressions_come_first() -> None:
    base = TestRun(side="base", sha="a", command=[], cases=parse_junit_xml(SUREFIRE))
    head_cases = [
        c
        if not c.name.endswith("#reportsKnownCodes")
        else c.model_copy(update={"status": FAILED, "message": "x"})
        for c in parse_junit_xml(SUREFIRE)
        if not c.name.endswith("#unknown")
    ]
    head = TestRun(side="head", sha="b", command=[], cases=head_cases)
    changes = compare_runs(base, head)
    assert changes[0].name.endswith("#reportsKnownCodes") and changes[0].regression
    gone = next(c for c in changes if c.name.endswith("#unknown"))
    assert (gone.base, gone.head, gone.regression) == (ERROR, None, False)
    # failing on both sides is no change at all
    assert not any(c.name.endswith("#countsCodes") for c in changes)


def test_commands_select_by_class(tmp_path: Path) -> None:
    mvn = runner_argv("maven", ["FooTest", "BarTest"], ["-Pfast"])
    assert "-Dtest=FooTest,BarTest" in mvn and "-Dsurefire.failIfNoSpecifiedTests=false" in mvn
    assert mvn.index("-Pfast") < mvn.index("test")
    gradle = runner_argv("gradle", ["FooTest", "p.BarTest"])
    assert gradle[-4:] == ["--tests", "*.FooTest", "--tests", "p.BarTest"]
    report = tmp_path / "core" / "target" / "surefire-reports" / "TEST-x.xml"
    report.parent.mkdir(parents=True)
    report.write_text(SUREFIRE)
    assert report_files(tmp_path, "maven") == [report]


def test_a_test_run_makes_the_next_build_in_its_worktree_start_clean(tmp_path: Path) -> None:
    from perfproof.workspace.tests import run_tests
    from perfproof.workspace.worktree import last_build_record

    worktree = tmp_path / "wt"
    (worktree / "target").mkdir(parents=True)
    record = last_build_record(worktree)
    record.write_text("key-of-the-benchmark-build\n")
    runner = tmp_path / "mvn"  # stand-in: the tests compile into target/ and leave a report
    runner.write_text(
        "#!/bin/sh\nmkdir -p target/surefire-reports\n"
        f"cat > target/surefire-reports/TEST-x.xml <<'X'\n{SUREFIRE}X\n"
    )
    runner.chmod(0o755)
    done = run_tests(worktree, "maven", ["ErrorReporterTest"], side="base", sha="a" * 40,
                     log_path=tmp_path / "t.log", program=str(runner))  # fmt: skip
    assert len(done.cases) == 4 and done.command[0] == str(runner)
    assert not record.exists()
