"""Benchmarks in a Gradle project's test sources: when they are taken as such, the build
perfproof plans for them and what it takes from it. No Gradle runs here; the real build is in
``tests/workspace/test_gradle_real.py``."""

from __future__ import annotations

from pathlib import Path

import pytest

from perfproof.errors import InputError
from perfproof.workspace import build_gradle, gradle_tests
from perfproof.workspace.artifact import Artifact
from perfproof.workspace.spec import BuildSpec

BENCH = "import org.openjdk.jmh.annotations.Benchmark;\nclass B {\n  @Benchmark\n  void b() {}\n}\n"


def _project(root: Path, where: str = "src/test/java", script: str = "apply plugin: 'java'\n"):
    (root / where / "p").mkdir(parents=True)
    (root / where / "p" / "FooBenchmark.java").write_text(BENCH)
    (root / "build.gradle").write_text(script)
    (root / "gradlew").write_text("#!/bin/sh\n")
    return root


def test_the_plan_builds_the_test_classes_and_writes_their_classpath(tmp_path: Path) -> None:
    root = _project(tmp_path / "p")
    plan = build_gradle.plan(root, BuildSpec(), fresh=True, env={}, cache_dir=tmp_path / "c")
    argv = list(plan.command.argv)
    assert argv[-2:] == ["clean", gradle_tests.TASK]
    script = Path(argv[argv.index("-I") + 1])
    assert script.read_text() == gradle_tests.INIT_SCRIPT and tmp_path / "c" in script.parents
    assert "-Dperfproof.project=:" in argv
    assert "benchmarks in the test sources: 1 classes with @Benchmark in src/test/java" in plan.note


def test_benchmarks_in_the_main_sources_keep_the_jar_task(tmp_path: Path) -> None:
    root = _project(tmp_path, "src/main/java", "plugins { id 'me.champeau.jmh' }\n")
    assert gradle_tests.find(root, None) is None
    plan = build_gradle.plan(root, BuildSpec(), fresh=False, env={}, cache_dir=tmp_path / "c")
    assert plan.command.argv[-1] == "jmhJar" and "-I" not in plan.command.argv


def test_the_outputs_are_the_written_classpath_with_the_test_classes_first(tmp_path: Path) -> None:
    tests, main = tmp_path / "build/classes/java/test", tmp_path / "build/classes/java/main"
    (tests / "META-INF").mkdir(parents=True)
    main.mkdir(parents=True)
    jar = tmp_path / "jmh-core.jar"
    jar.write_bytes(b"")
    listed = [tests, tmp_path / "build/resources/test", main, jar]  # no test resources here
    cp = tmp_path / gradle_tests.CLASSPATH_FILE
    cp.write_text("\n".join(map(str, listed)) + "\n")
    with pytest.raises(InputError, match="testAnnotationProcessor"):
        gradle_tests.outputs(tmp_path)
    (tests / "META-INF" / "BenchmarkList").write_text("x\n")
    out = gradle_tests.outputs(tmp_path)
    assert out.jar is None and out.classpath == [tests, main, jar]
    art = Artifact("s", "gradle", None, out.classpath, [], tmp_path, False, None)
    assert art.layout == "test-classes"
