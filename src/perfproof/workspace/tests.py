"""Run a project's own unit tests on one commit and read what they did from JUnit XML.

A performance change that breaks behaviour is no improvement, so ``prove`` runs the tests
that exercise the changed classes on both commits. The tests are selected by class name,
through the build tool's own filter (Maven surefire ``-Dtest=A,B`` with
``-Dsurefire.failIfNoSpecifiedTests=false`` so a module or commit without them is not an
error; Gradle ``--tests``), and the outcome is read from the JUnit XML reports both tools
write rather than from console text, which differs between versions. The build tool's exit
code alone cannot tell a failing test from a build that did not compile: a run whose tool
failed and left no report is a build failure.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Sequence
from pathlib import Path

from perfproof.errors import ExternalError
from perfproof.model.changes import ERROR, FAILED, PASSED, SKIPPED, TestChange
from perfproof.model.documents.project_tests import TestCase, TestRun
from perfproof.process import Command, Watch, run
from perfproof.workspace.plan import java_env
from perfproof.workspace.worktree import last_build_record

_REPORT_GLOBS = {
    "maven": (
        "target/surefire-reports/TEST-*.xml",
        "*/target/surefire-reports/TEST-*.xml",
        "*/*/target/surefire-reports/TEST-*.xml",
    ),
    "gradle": (
        "build/test-results/test/TEST-*.xml",
        "*/build/test-results/test/TEST-*.xml",
        "*/*/build/test-results/test/TEST-*.xml",
    ),
}


def parse_junit_xml(text: str | bytes, source: str = "report") -> list[TestCase]:
    """Test cases of one JUnit XML report (``<testsuite>`` or ``<testsuites>``)."""
    try:
        root = ET.fromstring(text)
    except ET.ParseError as exc:
        raise ExternalError(f"{source}: not a JUnit XML report ({exc})") from None
    suites = [root] if root.tag == "testsuite" else list(root.iter("testsuite"))
    out: list[TestCase] = []
    for suite in suites:
        for case in suite.iter("testcase"):
            cls = case.get("classname") or suite.get("name") or "?"
            name = f"{cls}#{case.get('name') or '?'}"
            status, message = PASSED, ""
            for child in case:
                tag = child.tag
                if tag in ("failure", "error", "skipped"):
                    status = {"failure": FAILED, "error": ERROR, "skipped": SKIPPED}[tag]
                    message = " ".join((child.get("message") or child.text or "").split())[:300]
                    break
            out.append(TestCase(name=name, status=status, message=message))
    return out


def report_files(worktree: Path, tool: str) -> list[Path]:
    """The JUnit XML reports the build tool left under ``worktree`` (root and two levels of
    modules)."""
    found: list[Path] = []
    for pattern in _REPORT_GLOBS.get(tool, ()):
        found.extend(sorted(worktree.glob(pattern)))
    return found


def runner_argv(tool: str, classes: Sequence[str], build_args: Sequence[str] = ()) -> list[str]:
    """The argv that runs only ``classes`` (simple or qualified names) with the project's tool."""
    if tool == "maven":
        return [
            "mvn",
            "-B",
            "-ntp",
            *build_args,
            "test",
            f"-Dtest={','.join(classes)}",
            "-Dsurefire.failIfNoSpecifiedTests=false",
            "-DfailIfNoTests=false",
            "-Dmaven.test.failure.ignore=true",
        ]
    if tool == "gradle":
        argv = ["./gradlew", "--no-daemon", "--console=plain", *build_args, "test", "--continue"]
        for name in classes:
            argv += ["--tests", name if "." in name else f"*.{name}"]
        return argv
    raise ValueError(f"no test runner for build tool {tool!r}")


def run_tests(
    worktree: Path,
    tool: str,
    classes: Sequence[str],
    *,
    side: str,
    sha: str,
    log_path: Path,
    java_home: str | None = None,
    build_args: Sequence[str] = (),
    program: str | None = None,
) -> TestRun:
    """Run ``classes`` in ``worktree`` and read their reports; a tool failure with no report
    is an :class:`ExternalError` naming the log. ``program`` is the build tool the benchmarks
    were built with (a Maven perfproof fetched, the wrapper), so a plugin that refuses an older
    Maven refuses neither."""
    argv = runner_argv(tool, classes, build_args)
    if program is not None:
        argv[0] = program
    elif tool == "maven" and (worktree / "mvnw").is_file():
        argv[0] = "./mvnw"
    for stale in report_files(worktree, tool):
        stale.unlink(missing_ok=True)
    command = Command(argv, cwd=worktree, env=java_env(java_home))
    # the tests compile into the build's output with their own settings: the next build in
    # this worktree starts clean
    last_build_record(worktree).unlink(missing_ok=True)
    result = run(command, Watch(log=log_path, capture=False))
    cases: list[TestCase] = []
    for path in report_files(worktree, tool):
        cases.extend(parse_junit_xml(path.read_bytes(), str(path)))
    if not result.ok and not cases:
        raise ExternalError(f"the tests of the {side} side did not build or run", log_path)
    return TestRun(
        side=side,
        sha=sha,
        command=argv,
        cases=cases,
        log=str(log_path),
        duration_s=result.duration_s,
    )


def compare_runs(base: TestRun, head: TestRun) -> list[TestChange]:
    """Tests whose status differs, regressions first."""
    names = dict.fromkeys([c.name for c in base.cases] + [c.name for c in head.cases])
    out = [
        TestChange(n, base.status_of(n), head.status_of(n))
        for n in names
        if base.status_of(n) != head.status_of(n)
    ]
    return sorted(out, key=lambda c: (not c.regression, c.name))
