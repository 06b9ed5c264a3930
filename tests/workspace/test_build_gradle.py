"""The Gradle adapter: task choice, wrapper argv, jar discovery, failure hint, caching.

Gradle itself cannot run here without its distribution (the wrapper downloads it), so one test
drives the adapter through a stand-in ``gradlew`` that behaves like ``jmhJar`` (writes an uber
jar under build/libs) and a real-Gradle test runs wherever a distribution is available.
"""

from __future__ import annotations

import shutil
import stat
from pathlib import Path

import pytest

from perfproof.errors import ExternalError, InputError
from perfproof.process import run
from perfproof.workspace.build import build
from perfproof.workspace.build_gradle import jar_task
from perfproof.workspace.spec import BuildSpec, detect_build
from perfproof.workspace.worktree import ensure_worktree

STAND_IN = """#!/bin/sh
# Stand-in for the Gradle wrapper: records its arguments, then does what jmhJar would.
echo "$@" > build/args.txt
[ -f fail ] && { echo "FAILURE: Build failed with an exception."; exit 1; }
mkdir -p bench/build/libs
cp "$(cat prebuilt.txt)" bench/build/libs/bench-1.0-jmh.jar
cp "$(cat prebuilt.txt)" bench/build/libs/bench-1.0-sources.jar
"""


def _commit_repo(path: Path, files: dict[str, str], executable: tuple[str, ...] = ()) -> str:
    path.mkdir(parents=True)
    for rel, text in files.items():
        (path / rel).parent.mkdir(parents=True, exist_ok=True)
        (path / rel).write_text(text)
    for rel in executable:
        (path / rel).chmod((path / rel).stat().st_mode | stat.S_IXUSR | stat.S_IXGRP)
    env = {
        "GIT_AUTHOR_NAME": "t",
        "GIT_AUTHOR_EMAIL": "t@e",
        "GIT_COMMITTER_NAME": "t",
        "GIT_COMMITTER_EMAIL": "t@e",
    }
    for args in (["init", "-q"], ["add", "-A"], ["commit", "-q", "-m", "c"]):
        run(["git", "-C", str(path), *args], check=True, env=env)
    return run(["git", "-C", str(path), "rev-parse", "HEAD"], check=True).output.strip()


def test_jar_task_is_read_from_the_build_scripts(tmp_path):
    (tmp_path / "bench").mkdir()
    (tmp_path / "bench" / "build.gradle.kts").write_text('plugins { id("me.champeau.jmh") }\n')
    assert jar_task(tmp_path, BuildSpec(kind="gradle", module="bench")) == "jmhJar"
    (tmp_path / "build.gradle").write_text("plugins { id 'com.gradleup.shadow' }\n")
    assert jar_task(tmp_path, BuildSpec(kind="gradle")) == "shadowJar"
    (tmp_path / "build.gradle").write_text("plugins { id 'java' }\n")
    with pytest.raises(InputError, match=r"no JMH .* or Shadow plugin"):
        jar_task(tmp_path, BuildSpec(kind="gradle"))
    with pytest.raises(InputError, match=r"--module: no build\.gradle"):
        jar_task(tmp_path, BuildSpec(kind="gradle", module="nope"))


@pytest.mark.jvm
@pytest.mark.slow
def test_gradle_adapter_with_a_stand_in_wrapper(uber_build, tmp_path):
    repo = tmp_path / "gproject"
    sha = _commit_repo(
        repo,
        {
            "gradlew": STAND_IN,
            "settings.gradle": "include 'bench'\n",
            "bench/build.gradle": "plugins { id 'java'\n id 'me.champeau.jmh' version '0.7.2' }\n",
            "prebuilt.txt": str(uber_build.artifact.jar),
            "build/.keep": "",
        },
        executable=("gradlew",),
    )
    cache = tmp_path / "cache"
    wt = ensure_worktree(repo, sha, cache)
    assert detect_build(wt) == "gradle"
    spec = BuildSpec(module="bench")
    art = build(wt, spec, cache_dir=cache, log_path=tmp_path / "g.log")
    assert art.kind == "gradle" and art.layout == "uber" and art.jar.name == "bench-1.0-jmh.jar"
    assert art.build_command == ["./gradlew", "--no-daemon", "--console=plain", ":bench:jmhJar"]
    assert (wt / "build/args.txt").read_text().split() == art.build_command[1:]
    listed = run([*art.jmh_argv("java"), "-l"], check=True, timeout=120).output
    assert "wsfx.bench.NewBench.describe" in listed
    assert build(wt, spec, cache_dir=cache, log_path=tmp_path / "g2.log").cached
    fresh = build(wt, spec, cache_dir=cache, log_path=tmp_path / "g3.log", fresh=True)
    assert fresh.build_command[-2:] == [":bench:clean", ":bench:jmhJar"]
    (wt / "fail").write_text("")
    with pytest.raises(ExternalError, match="wrapper must be able to download its distribution"):
        build(
            wt,
            BuildSpec(kind="gradle", module="bench"),
            cache_dir=cache,
            log_path=tmp_path / "g4.log",
            extra_key="other",
        )


def test_gradle_without_wrapper_is_an_input_error(tmp_path):
    repo = tmp_path / "nowrapper"
    sha = _commit_repo(repo, {"build.gradle": "plugins { id 'me.champeau.jmh' }\n"})
    wt = ensure_worktree(repo, sha, tmp_path / "cache")
    with pytest.raises(InputError, match=r"needs the wrapper ./gradlew"):
        build(wt, BuildSpec(), cache_dir=tmp_path / "cache", log_path=tmp_path / "x.log")


def _gradle_distribution_reason() -> str | None:
    dists = Path.home() / ".gradle" / "wrapper" / "dists"
    if shutil.which("gradle") or (dists.is_dir() and any(dists.iterdir())):
        return None
    return (
        "no Gradle distribution on this machine (no gradle on PATH, nothing in "
        "~/.gradle/wrapper/dists) and the wrapper's download host is not reachable"
    )


@pytest.mark.jvm
@pytest.mark.slow
@pytest.mark.skipif(
    _gradle_distribution_reason() is not None, reason=_gradle_distribution_reason() or ""
)
def test_real_gradle_jmh_plugin_build(tmp_path):
    bench = """package g;
import org.openjdk.jmh.annotations.*;
public class GBench { @Benchmark public int one() { return 1; } }
"""
    files = {
        "settings.gradle": "rootProject.name = 'g'\n",
        "build.gradle": (
            "plugins { id 'java'\n id 'me.champeau.jmh' version '0.7.2' }\n"
            "repositories { mavenCentral() }\njmh { jmhVersion = '1.37' }\n"
        ),
        "src/jmh/java/g/GBench.java": bench,
    }
    repo = tmp_path / "g"
    repo.mkdir()
    for rel, text in files.items():
        (repo / rel).parent.mkdir(parents=True, exist_ok=True)
        (repo / rel).write_text(text)
    run(["gradle", "wrapper", "--no-daemon"], cwd=repo, check=True, timeout=600)
    shutil.rmtree(repo / ".gradle", ignore_errors=True)
    files = {
        str(p.relative_to(repo)): p.read_text()
        for p in repo.rglob("*")
        if p.is_file() and not p.name.endswith(".jar")
    }
    shutil.rmtree(repo)
    sha = _commit_repo(repo, files, executable=("gradlew",))
    wt = ensure_worktree(repo, sha, tmp_path / "cache")
    art = build(
        wt, BuildSpec(), cache_dir=tmp_path / "cache", log_path=tmp_path / "g.log", timeout=900
    )
    assert "g.GBench.one" in run([*art.jmh_argv("java"), "-l"], check=True).output
