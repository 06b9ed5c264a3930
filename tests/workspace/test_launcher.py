"""Which program starts a build: the wrapper, the tool on PATH, or auto's choice between them.

The wrapper's download host is an address on this machine where nothing listens (a refused
connection answers at once), so "cannot be reached" is real and sends no traffic anywhere.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from perfproof.errors import InputError
from perfproof.workspace import build_gradle, build_maven
from perfproof.workspace.launcher import GRADLE, MAVEN, Launcher, choose, distribution_url
from perfproof.workspace.spec import BuildSpec

UNREACHABLE = (
    "http://127.0.0.1:9/maven2/org/apache/maven/apache-maven/3.9.6/apache-maven-3.9.6-bin.zip"
)


def _program(folder: Path, name: str) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text("#!/bin/sh\nexit 0\n")
    path.chmod(path.stat().st_mode | stat.S_IXUSR)


def _wrapped(root: Path, url: str = UNREACHABLE) -> Path:
    _program(root, "mvnw")
    props = root / ".mvn" / "wrapper" / "maven-wrapper.properties"
    props.parent.mkdir(parents=True)
    props.write_text(f"distributionUrl={url.replace(':', chr(92) + ':')}\nwrapperVersion=3.3.2\n")
    (root / "pom.xml").write_text("<project/>")
    return root


@pytest.fixture
def mvn_on_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    bin_dir = tmp_path / "bin"
    _program(bin_dir, "mvn")
    _program(bin_dir, "gradle")
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}/usr/bin:/bin")
    monkeypatch.setenv("MAVEN_USER_HOME", str(tmp_path / "m2"))
    monkeypatch.setenv("GRADLE_USER_HOME", str(tmp_path / "gradle-home"))
    return bin_dir


def test_auto_builds_with_mvn_when_the_wrapper_cannot_download_and_says_so(
    tmp_path: Path, mvn_on_path: Path
) -> None:
    root = _wrapped(tmp_path / "repo")
    assert distribution_url(root / MAVEN.properties) == UNREACHABLE  # the \: escape is read
    chosen = choose(MAVEN, root, Launcher.AUTO)
    assert chosen.program == "mvn" and not chosen.is_wrapper
    assert "./mvnw's distribution (apache-maven-3.9.6-bin.zip) is not downloaded" in chosen.note
    assert "127.0.0.1 cannot be reached" in chosen.note
    plan = build_maven.plan(root, BuildSpec(), fresh=False, env={})
    assert plan.command.argv[0] == "mvn" and plan.note == chosen.note


def test_auto_keeps_the_wrapper_when_its_maven_is_already_unpacked(
    tmp_path: Path, mvn_on_path: Path
) -> None:
    root = _wrapped(tmp_path / "repo")
    _program(
        tmp_path / "m2/wrapper/dists/apache-maven-3.9.6-bin/abc123/apache-maven-3.9.6/bin", "mvn"
    )
    chosen = choose(MAVEN, root, Launcher.AUTO)
    assert chosen == choose(MAVEN, root, Launcher.WRAPPER)
    assert chosen.program == "./mvnw" and chosen.note == ""


def test_auto_keeps_the_wrapper_when_nothing_else_could_build(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    monkeypatch.setenv("MAVEN_USER_HOME", str(tmp_path / "m2"))
    root = _wrapped(tmp_path / "repo")
    assert choose(MAVEN, root, Launcher.AUTO).program == "./mvnw"


def test_the_users_word_is_not_second_guessed(tmp_path: Path, mvn_on_path: Path) -> None:
    root = _wrapped(tmp_path / "repo")
    assert choose(MAVEN, root, Launcher.WRAPPER).program == "./mvnw"
    assert choose(MAVEN, root, Launcher.PATH).program == "mvn"
    with pytest.raises(InputError, match=r"--maven wrapper: no \./mvnw in"):
        choose(MAVEN, tmp_path, Launcher.WRAPPER)
    with pytest.raises(InputError, match=r"--maven 'ant' is not one of auto, wrapper, mvn"):
        BuildSpec(maven="ant")


def test_mvn_from_path_must_be_there(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    with pytest.raises(InputError, match="--maven mvn: no mvn on PATH"):
        choose(MAVEN, tmp_path, MAVEN.parse("mvn"))


def test_how_a_build_is_started_is_not_part_of_the_cache_key() -> None:
    plain = BuildSpec(module="bench")
    for other in (
        BuildSpec(module="bench", maven="mvn"),
        BuildSpec(module="bench", gradle="wrapper"),
        BuildSpec(module="bench", keep_checks=True),
    ):
        assert other.fingerprint("maven") == plain.fingerprint("maven")
    assert "maven" not in plain.key_doc()  # run folders of before keep their shape
    assert BuildSpec(maven="mvn").key_doc()["maven"] == "mvn"


def test_checks_are_skipped_unless_kept(tmp_path: Path, mvn_on_path: Path) -> None:
    (tmp_path / "pom.xml").write_text("<project/>")
    skipped = build_maven.plan(tmp_path, BuildSpec(), fresh=False, env={}).command.argv
    kept = build_maven.plan(tmp_path, BuildSpec(keep_checks=True), fresh=False, env={}).command.argv
    assert "-Dcheckstyle.skip=true" in skipped and "-Dmaven.javadoc.skip=true" in skipped
    assert not [a for a in kept if a.endswith(".skip=true")]


def test_gradle_on_path_builds_a_project_without_a_wrapper(
    tmp_path: Path, mvn_on_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "build.gradle").write_text("task jmhJar(type: Jar) {}\n")
    plan = build_gradle.plan(tmp_path, BuildSpec(), fresh=False, env={})
    argv = plan.command.argv
    assert argv[:2] == ("gradle", "--no-daemon") and argv[-1] == "jmhJar"
    with pytest.raises(InputError, match=r"--gradle wrapper: no \./gradlew"):
        build_gradle.plan(tmp_path, BuildSpec(gradle="wrapper"), fresh=False, env={})
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    with pytest.raises(InputError, match=r"needs the wrapper \./gradlew in .* or gradle on PATH"):
        build_gradle.plan(tmp_path, BuildSpec(), fresh=False, env={})
    assert GRADLE.parse("gradle") is Launcher.PATH


def test_a_wrapper_hint_only_when_the_log_shows_the_wrapper_failing(tmp_path: Path) -> None:
    spec = BuildSpec()
    compile_error = "[ERROR] /x/A.java:[3,1] cannot find symbol\n[INFO] BUILD FAILURE\n"
    assert build_maven.failure_hint(tmp_path, spec, compile_error, wrapper=True) == ""
    download = 'Exception in thread "main" java.net.UnknownHostException: repo.maven.apache.org\n'
    assert "--maven mvn" in build_maven.failure_hint(tmp_path, spec, download, wrapper=True)
    assert (
        build_gradle.failure_hint("FAILURE: Build failed with an exception.\n", wrapper=True) == ""
    )
    fetch = "Downloading https://services.gradle.org/distributions/gradle-8.5-bin.zip\n"
    assert "--gradle gradle" in build_gradle.failure_hint(fetch, wrapper=True)
