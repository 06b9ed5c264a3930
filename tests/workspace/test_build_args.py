"""``--build-arg`` and the advice for a benchmark module that only a Maven profile declares."""

from __future__ import annotations

from pathlib import Path

import pytest

from perfproof.errors import ExternalError, InputError
from perfproof.workspace import build_gradle, build_maven
from perfproof.workspace.spec import BuildSpec

PROFILE_POM = """<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>wsfx</groupId><artifactId>parent</artifactId><version>1.0</version>
  <packaging>pom</packaging>
  <modules><module>core</module></modules>
  <profiles>
    <profile><id>docs</id><modules><module>docs</module></modules></profile>
    <profile><id>examples</id><modules><module>./bench/</module></modules></profile>
  </profiles>
</project>
"""


def test_build_args_go_into_the_detected_command(tmp_path: Path) -> None:
    (tmp_path / "bench").mkdir()
    (tmp_path / "bench" / "pom.xml").write_text("<project/>")
    spec = BuildSpec(module="bench", build_args=("-Pexamples", "-Dcheckstyle.skip"))
    argv = list(build_maven.plan(tmp_path, spec, fresh=False, env={}).command.argv)
    # the user's arguments come last before the goals, after the checks perfproof skips, so
    # theirs win where both set one property
    assert argv[argv.index("package") - 2 : argv.index("package")] == [
        "-Pexamples",
        "-Dcheckstyle.skip",
    ]
    (tmp_path / "gradlew").write_text("")
    (tmp_path / "build.gradle").write_text("plugins { id 'me.champeau.jmh' }\n")
    gradle = build_gradle.plan(tmp_path, BuildSpec(build_args=("-Pfast=1",)), fresh=False, env={})
    assert gradle.command.argv[-1] == "-Pfast=1"


def test_build_args_change_the_cache_key_only_when_given() -> None:
    plain = BuildSpec(module="bench")
    assert "build_args" not in plain.key_doc()
    assert plain.fingerprint("maven") != BuildSpec(
        module="bench", build_args=("-Pexamples",)
    ).fingerprint("maven")


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"build_cmd": "make", "jar_glob": "x.jar", "build_args": ("-P",)}, "--build-cmd"),
        ({"build_args": (" ",)}, "--build-arg is empty"),
    ],
)
def test_build_args_are_checked(kwargs: dict, message: str) -> None:
    with pytest.raises(InputError, match=message):
        BuildSpec(**kwargs)


def test_failure_hint_names_the_profile(tmp_path: Path) -> None:
    (tmp_path / "pom.xml").write_text(PROFILE_POM)
    log = "[ERROR] Could not find the selected project in the reactor: bench @ \n"
    hint = build_maven.failure_hint(tmp_path, BuildSpec(module="bench"), log)
    assert (
        hint == "module 'bench' is listed only in profile(s) examples: add --build-arg -Pexamples"
    )
    other = build_maven.failure_hint(tmp_path, BuildSpec(module="nowhere"), log)
    assert "is it in a profile" in other
    assert build_maven.failure_hint(tmp_path, BuildSpec(module="bench"), "BUILD FAILURE") == ""


@pytest.mark.jvm
@pytest.mark.slow
def test_a_module_in_a_profile_fails_with_advice_then_builds_with_the_profile(
    fresh_repo, tmp_path: Path
) -> None:
    from perfproof.process import Command, Watch, run
    from perfproof.workspace.build import build
    from perfproof.workspace.worktree import ensure_worktree

    root = fresh_repo.path
    pom = (root / "pom.xml").read_text()
    pom = pom.replace("<module>bench</module>", "").replace(
        "</modules>",
        "</modules>\n  <profiles><profile><id>examples</id>"
        "<modules><module>bench</module></modules></profile></profiles>",
        1,
    )
    (root / "pom.xml").write_text(pom)
    run(
        Command(["git", "commit", "-q", "-am", "bench only in a profile"], cwd=root),
        Watch(check=True),
    )
    sha = run(Command(["git", "rev-parse", "HEAD"], cwd=root), Watch(check=True)).output.strip()
    cache = tmp_path / "cache"
    wt = ensure_worktree(root, sha, cache)
    with pytest.raises(ExternalError, match=r"profile\(s\) examples: add --build-arg -Pexamples"):
        build(wt, BuildSpec(module="bench"), cache_dir=cache, log_path=tmp_path / "a.log")
    art = build(
        wt,
        BuildSpec(module="bench", build_args=("-Pexamples",)),
        cache_dir=cache,
        log_path=tmp_path / "b.log",
    )
    assert "-Pexamples" in art.build_command and art.jar.name == "benchmarks.jar"
