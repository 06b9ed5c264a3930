"""The Gradle adapter: task choice, wrapper argv, jar discovery, failure hint, caching.

One test drives the adapter through a stand-in ``gradlew`` that behaves like ``jmhJar`` (writes
an uber jar under build/libs); the real Gradle (Debian's, on PATH: .ci/run installs it) builds
a real JMH project through ``ab`` in tests/workspace/test_gradle_real.py.
"""

from __future__ import annotations

import stat
from pathlib import Path

import pytest

from perfproof.errors import ExternalError, InputError
from perfproof.process import Command, Watch, run
from perfproof.workspace.build import build
from perfproof.workspace.build_gradle import jar_task
from perfproof.workspace.spec import BuildSpec, detect_build
from perfproof.workspace.worktree import ensure_worktree

STAND_IN = """#!/bin/sh
# Stand-in for the Gradle wrapper: records its arguments, then does what jmhJar would.
echo "$@" > build/args.txt
[ -f fail ] && { echo "FAILURE: Build failed with an exception."; exit 1; }
[ -f offline ] && { echo "Downloading https://services.gradle.org/distributions/gradle-8.5-bin.zip";
  echo 'Exception in thread "main" java.net.UnknownHostException: services.gradle.org'; exit 1; }
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
        run(Command(["git", "-C", str(path), *args], env=env), Watch(check=True))
    return run(
        Command(["git", "-C", str(path), "rev-parse", "HEAD"]), Watch(check=True)
    ).output.strip()


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
    listed = run(Command([*art.jmh_argv("java"), "-l"]), Watch(check=True, timeout=120)).output
    assert "wsfx.bench.NewBench.describe" in listed
    assert build(wt, spec, cache_dir=cache, log_path=tmp_path / "g2.log").cached
    fresh = build(wt, spec, cache_dir=cache, log_path=tmp_path / "g3.log", fresh=True)
    assert fresh.build_command[-2:] == [":bench:clean", ":bench:jmhJar"]
    (wt / "offline").write_text("")
    with pytest.raises(ExternalError, match="wrapper must be able to download its distribution"):
        build(
            wt,
            BuildSpec(kind="gradle", module="bench"),
            cache_dir=cache,
            log_path=tmp_path / "g4.log",
            extra_key="other",
        )
    (wt / "offline").unlink()
    (wt / "fail").write_text("")  # a build failing for its own reasons blames no wrapper
    with pytest.raises(ExternalError) as failed:
        build(
            wt,
            BuildSpec(kind="gradle", module="bench"),
            cache_dir=cache,
            log_path=tmp_path / "g5.log",
            extra_key="other",
        )
    assert "wrapper" not in str(failed.value)
