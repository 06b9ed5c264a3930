"""``perfproof ab`` on a real Gradle JMH project, built by the Gradle on PATH.

The project is what a Gradle user without the JMH plugin writes (the plugin lives on the
Gradle plugin portal, which this machine cannot reach): JMH from Maven Central, the annotation
processor from ``compileOnly`` (Gradle 4 runs processors found on the compile classpath), and a
hand-written ``jmhJar`` task making an uber jar. It covers: the wrapper as projects ship it (a
``gradlew`` that starts the Gradle it pins: here the one on PATH), ``--gradle gradle`` for a
checkout with no wrapper, ``jmhJar`` found in the build script, the uber jar in build/libs,
the head's build running ``--offline`` (the base's identical build files resolved online just
before), a head that changes only a README served by the base's build, and benchmarks moved to
the test sources (no jar task) built to their test classes and listed by JMH from them.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

TINY = "-f 1 -wi 1 -w 100ms -i 2 -r 100ms"
pytestmark = [
    pytest.mark.jvm,
    pytest.mark.slow,
    pytest.mark.timeout(900),
    # CI installs it (.ci/install-gradle): there a missing Gradle fails the test, never skips it
    pytest.mark.skipif(
        shutil.which("gradle") is None and not os.environ.get("CI"),
        reason="needs Gradle on PATH (.ci/install-gradle)",
    ),
]

BUILD = """apply plugin: 'java'
sourceCompatibility = '1.8'
targetCompatibility = '1.8'
repositories { mavenCentral() }
dependencies {
    compile 'org.openjdk.jmh:jmh-core:1.37'
    compileOnly 'org.openjdk.jmh:jmh-generator-annprocess:1.37'
}
task jmhJar(type: Jar, dependsOn: classes) {
    classifier = 'jmh'
    manifest { attributes 'Main-Class': 'org.openjdk.jmh.Main' }
    from sourceSets.main.output
    from { configurations.runtime.collect { it.isDirectory() ? it : zipTree(it) } }
    exclude 'META-INF/*.SF', 'META-INF/*.DSA', 'META-INF/*.RSA'
}
"""

TEST_SOURCES_BUILD = """apply plugin: 'java'
sourceCompatibility = '1.8'
targetCompatibility = '1.8'
repositories { mavenCentral() }
dependencies {
    testCompile 'org.openjdk.jmh:jmh-core:1.37'
    testCompile 'org.openjdk.jmh:jmh-generator-annprocess:1.37'
}
"""

BENCH = """package g;

import org.openjdk.jmh.annotations.*;

@State(Scope.Thread)
public class Sum {
    int[] data = new int[256];

    @Benchmark
    public long sum() {
        long total = 0;
        for (int i = 0; i < data.length; i++) {
            total += %s;
        }
        return total;
    }
}
"""

GIT_ENV = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@x",
           "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@x"}  # fmt: skip
GRADLEW = '#!/bin/sh\n# the Gradle this project pins is the one on PATH here\nexec gradle "$@"\n'


def test_ab_builds_and_measures_a_real_gradle_project(
    write_git_repo, run_cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    common = {"settings.gradle": "rootProject.name = 'g'\n", "build.gradle": BUILD,
              ".gitignore": "build/\n.gradle/\n", "gradlew": GRADLEW}  # fmt: skip
    repo = tmp_path / "g"
    for tag, files in (
        (
            "base",
            {**common, "src/main/java/g/Sum.java": BENCH % "Integer.valueOf(data[i]).hashCode()"},
        ),
        ("head", {"src/main/java/g/Sum.java": BENCH % "data[i]"}),
        ("docs", {"README.md": "# g\n"}),
    ):
        write_git_repo(repo, [])  # (re)init is harmless; files and commits below
        for rel, text in files.items():
            (repo / rel).parent.mkdir(parents=True, exist_ok=True)
            (repo / rel).write_text(text)
        (repo / "gradlew").chmod(0o755)  # committed executable, as projects ship it
        for args in (["add", "--all"], ["commit", "-q", "-m", tag], ["tag", tag]):
            subprocess.run(["git", *args], cwd=repo, env=GIT_ENV, check=True)
    out = tmp_path / "run"
    res = run_cli("ab", "--repo", repo, "--base", "base", "--head", "head", "--rounds", "2",
                  "--jmh-args", TINY, "--out", out, "--format", "json")  # fmt: skip
    assert res.code == 0, res.err
    manifest = json.loads((out / "manifest.json").read_text())
    builds = [b for b in manifest["builds"] if b["status"] == "done"]
    assert {b["side"] for b in builds} == {"base", "head"}
    side = {b["side"]: b for b in builds}
    assert side["base"]["command"][:2] == ["./gradlew", "--no-daemon"]
    # the head's build files are the base's, which just resolved online: Gradle runs offline
    assert side["head"]["command"][:3] == ["./gradlew", "--offline", "--no-daemon"]
    head_log = (out / side["head"]["log"]).read_text()
    assert "# perfproof: offline (--offline): this build resolved online here before" in head_log
    assert all(b["command"][-1] == "jmhJar" and b["layout"] == "uber" for b in builds)
    results = json.loads((out / "results.json").read_text())
    keys = {c["benchmark"] for c in results["comparisons"]}
    assert keys == {"g.Sum.sum"}

    # a head that changes only a README outside src/: the base's build serves it
    out2 = tmp_path / "run2"
    res = run_cli("ab", "--repo", repo, "--base", "head", "--head", "docs", "--rounds", "1",
                  "--jmh-args", TINY, "--out", out2, "--format", "json")  # fmt: skip
    assert res.code == 0, res.err
    builds = json.loads((out2 / "manifest.json").read_text())["builds"]
    head = next(b for b in builds if b["side"] == "head")
    assert (
        head["reused"].startswith("base ") and "Gradle build of the root project" in head["reused"]
    )
    assert head["key"] == next(b for b in builds if b["side"] == "base")["key"]

    # the benchmark moved to the test sources, no jmhJar task, no wrapper: --gradle gradle
    # builds the test classes with the Gradle on PATH and JMH runs from them
    from perfproof.workspace.build import build
    from perfproof.workspace.git import resolve_ref
    from perfproof.workspace.spec import BuildSpec
    from perfproof.workspace.worktree import ensure_worktree

    (repo / "src/test/java/g").mkdir(parents=True)
    (repo / "src/main/java/g/Sum.java").rename(repo / "src/test/java/g/Sum.java")
    (repo / "build.gradle").write_text(TEST_SOURCES_BUILD)
    for args in (["add", "--all"], ["commit", "-q", "-m", "tests"], ["tag", "tests"]):
        subprocess.run(["git", *args], cwd=repo, env=GIT_ENV, check=True)
    wt = ensure_worktree(repo, resolve_ref(repo, "tests"), tmp_path / "c2")
    (wt / "gradlew").unlink()
    art = build(wt, BuildSpec(gradle="gradle"), cache_dir=tmp_path / "c2",
                log_path=tmp_path / "g.log", timeout=600)  # fmt: skip
    assert art.build_command[0] == "gradle" and art.jar is None
    assert art.layout == "test-classes" and art.build_command[-1] == "perfproofTestClasspath"
    listed = subprocess.run([*art.jmh_argv(), "-l"], capture_output=True, text=True, check=True)
    assert "g.Sum.sum" in listed.stdout.split()
