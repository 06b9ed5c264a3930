"""Real Maven builds of the sample project; every artifact is proven by running JMH ``-l``."""

from __future__ import annotations

import shlex
import sys
import time
from pathlib import Path

import pytest

from perfproof.errors import ExternalError, InputError
from perfproof.process import Command, Watch, run
from perfproof.workspace.artifact import jmh_version
from perfproof.workspace.build import build
from perfproof.workspace.overlay import apply_overlay
from perfproof.workspace.spec import BuildSpec
from perfproof.workspace.worktree import ensure_worktree

pytestmark = [pytest.mark.jvm, pytest.mark.slow]

NEW_BENCH = "bench/src/main/java/wsfx/bench/NewBench.java"


def list_benchmarks(artifact) -> list[str]:
    res = run(
        Command([*artifact.jmh_argv("java"), "-l"]), Watch(timeout=120, check=True, what="jmh -l")
    )
    lines = res.output.splitlines()
    return [ln.strip() for ln in lines[lines.index("Benchmarks: ") + 1 :] if ln.strip()]


def test_uber_jar_build_runs_jmh(uber_build, sample_repo, session_cache):
    art = uber_build.artifact
    assert art.layout == "uber" and art.kind == "maven" and not art.cached
    assert art.sha == sample_repo.head
    assert art.jar.name == "benchmarks.jar" and art.jar.is_relative_to(session_cache / "builds")
    assert art.jmh_argv("java") == ["java", "-jar", str(art.jar)]
    assert art.build_command[:2] == ["mvn", "-B"]
    assert "install" not in art.build_command
    assert art.build_command[4:7] == ["-pl", "bench", "-am"]
    assert art.build_cwd == uber_build.worktree
    assert list_benchmarks(art) == [
        "wsfx.bench.CodesBench.describe",
        "wsfx.bench.NewBench.describe",
    ]
    assert jmh_version(art) == "1.37"
    assert uber_build.log.read_text().startswith("$ mvn -B")


def test_thin_jar_build_runs_jmh_on_maven_classpath(thin_build, session_cache):
    art = thin_build.artifact
    assert art.layout == "classpath" and art.jar.name == "bench-thin-1.0.jar"
    assert art.classpath[0] == art.jar
    names = [p.name for p in art.classpath]
    assert "core-1.0.jar" in names and "jmh-core-1.37.jar" in names
    core = art.classpath[names.index("core-1.0.jar")]
    assert core.is_relative_to(session_cache / "builds")  # reactor jar copied out of the tree
    argv = art.jmh_argv("/opt/jdk/bin/java")
    assert (
        argv[0] == "/opt/jdk/bin/java" and argv[1] == "-cp" and argv[-1] == "org.openjdk.jmh.Main"
    )
    assert list_benchmarks(art) == ["wsfx.thin.ThinBench.describe"]
    assert jmh_version(art) == "1.37"


def test_second_build_is_a_cache_hit_without_maven(uber_build, session_cache, tmp_path):
    log = tmp_path / "again.log"
    start = time.monotonic()
    again = build(
        uber_build.worktree, BuildSpec(module="bench"), cache_dir=session_cache, log_path=log
    )
    assert time.monotonic() - start < 5
    assert again.cached and again.key == uber_build.artifact.key
    assert again.jar == uber_build.artifact.jar
    assert again.build_command == uber_build.artifact.build_command
    text = log.read_text()
    assert "reused cached build" in text and "$ mvn" not in text
    assert not again.jar.is_relative_to(uber_build.worktree)
    assert list_benchmarks(again)[0] == "wsfx.bench.CodesBench.describe"


def test_fresh_build_rebuilds_and_replaces_the_entry(thin_build, session_cache, tmp_path):
    log = tmp_path / "fresh.log"
    fresh = build(
        thin_build.worktree,
        BuildSpec(module="bench-thin"),
        cache_dir=session_cache,
        log_path=log,
        fresh=True,
    )
    assert not fresh.cached and fresh.key == thin_build.artifact.key
    assert "clean" in fresh.build_command
    # the first build resolved online: this one runs offline, and its log says why
    assert "-o" in fresh.build_command
    text = log.read_text()
    assert "offline (-o): this build resolved online here before" in text
    assert "$ mvn -o -B" in text
    assert list_benchmarks(fresh) == ["wsfx.thin.ThinBench.describe"]
    hit = build(
        thin_build.worktree,
        BuildSpec(module="bench-thin"),
        cache_dir=session_cache,
        log_path=tmp_path / "hit.log",
    )
    assert hit.cached and hit.build_command == fresh.build_command


def test_overlaid_baseline_builds_the_heads_new_benchmark(
    sample_repo, uber_build, session_cache, tmp_path
):
    base = ensure_worktree(sample_repo.path, sample_repo.base, session_cache)
    assert not (base / NEW_BENCH).exists()
    assert apply_overlay(uber_build.worktree, base, [NEW_BENCH]) == [NEW_BENCH]
    art = build(
        base,
        BuildSpec(module="bench"),
        cache_dir=session_cache,
        log_path=tmp_path / "overlay.log",
        label="baseline",
    )
    assert not art.cached and art.sha == sample_repo.base
    assert art.overlaid == [NEW_BENCH] and art.key != uber_build.artifact.key
    assert list_benchmarks(art) == [
        "wsfx.bench.CodesBench.describe",
        "wsfx.bench.NewBench.describe",
    ]
    clean = ensure_worktree(sample_repo.path, sample_repo.base, session_cache)
    assert not (clean / NEW_BENCH).exists()


def test_failing_build_names_side_commit_and_log(sample_repo, uber_build, session_cache, tmp_path):
    wt = ensure_worktree(sample_repo.path, sample_repo.broken, session_cache)
    log = tmp_path / "logs" / "build-head.log"
    with pytest.raises(ExternalError) as err:
        build(wt, BuildSpec(module="bench"), cache_dir=session_cache, log_path=log, label="head")
    msg = str(err.value)
    assert msg.startswith(f"maven build of head {sample_repo.broken[:12]} failed with exit code")
    assert msg.endswith(f"(log: {log})") and err.value.exit_code == 3
    # the compiler's complaint, with the path inside the worktree, so the log need not be read
    assert "failed with exit code 1: core/src/main/java/wsfx/core/Codes.java:[" in msg
    assert "COMPILATION ERROR" in log.read_text()
    entries = (session_cache / "builds").glob("*/artifact.json")
    assert all(sample_repo.broken not in e.read_text() for e in entries)


def test_custom_build_command_with_jar_glob(uber_build, session_cache, tmp_path):
    cmd = ["mvn", "-B", "-q", "-o", "-pl", "bench", "-am", "package", "-DskipTests"]
    spec = BuildSpec(build_cmd=shlex.join(cmd), jar_glob="bench/target/bench*.jar")
    art = build(uber_build.worktree, spec, cache_dir=session_cache, log_path=tmp_path / "c.log")
    assert art.kind == "custom" and art.layout == "uber" and not art.cached
    assert art.build_command == cmd and art.key != uber_build.artifact.key
    assert list_benchmarks(art)[1] == "wsfx.bench.NewBench.describe"
    assert "\n$ mvn -B -q -o -pl bench" in (tmp_path / "c.log").read_text()  # after "clean"
    with pytest.raises(InputError, match=r"--jar 'nothing/\*\.jar' matched no file"):
        build(
            uber_build.worktree,
            BuildSpec(build_cmd="true", jar_glob="nothing/*.jar"),
            cache_dir=session_cache,
            log_path=tmp_path / "none.log",
        )
    # a build with other settings starts without the last one's output: this one makes its jar
    plain = "import zipfile; zipfile.ZipFile('plain.jar', 'w').writestr('a.txt', 'x')"
    thin_only = BuildSpec(build_cmd=shlex.join([sys.executable, "-c", plain]), jar_glob="plain.jar")
    with pytest.raises(InputError, match="does not hold JMH"):
        build(
            uber_build.worktree, thin_only, cache_dir=session_cache, log_path=tmp_path / "thin.log"
        )


def test_custom_build_with_classpath_file(thin_build, session_cache, tmp_path):
    cp = ":".join(str(p) for p in thin_build.artifact.classpath[1:])
    # a build with other settings starts clean, so the command leaves the jar it names itself
    script = (
        "import os, shutil; os.makedirs('bench-thin/target', exist_ok=True); "
        f"shutil.copy({str(thin_build.artifact.jar)!r}, 'bench-thin/target/bench-thin-1.0.jar'); "
        f"open('bench-thin/target/cp.txt', 'w').write({cp!r} + '\\n')"
    )
    spec = BuildSpec(
        kind="custom",
        build_cmd=shlex.join([sys.executable, "-c", script]),
        jar_glob="bench-thin/target/bench-thin-*.jar",
        classpath_file="bench-thin/target/cp.txt",
    )
    art = build(thin_build.worktree, spec, cache_dir=session_cache, log_path=tmp_path / "cp.log")
    assert art.layout == "classpath" and art.classpath[0] == art.jar
    assert list_benchmarks(art) == ["wsfx.thin.ThinBench.describe"]
    gone = BuildSpec(
        build_cmd=shlex.join([sys.executable, "-c", "open('cp2.txt', 'w').write('lib/*')"]),
        classpath_file="cp2.txt",
    )
    with pytest.raises(ExternalError, match=r"classpath entry that does not exist: .*lib/\*"):
        build(thin_build.worktree, gone, cache_dir=session_cache, log_path=tmp_path / "g.log")
    (thin_build.worktree / "cp2.txt").unlink()


def test_jmh_argv_uses_the_java_given(uber_build):
    assert uber_build.artifact.jmh_argv(str(Path("/x/bin/java")))[0] == "/x/bin/java"
