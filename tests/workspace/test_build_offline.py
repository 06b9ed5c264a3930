"""Maven offline once the same resolution succeeded here, and online again when ``~/.m2`` lacks
an artifact after all.

The ``mvn`` on PATH is a small script that behaves as Maven does for what perfproof reads: it
fails offline with Maven's own message when told the local repository lacks an artifact, and
otherwise leaves a benchmark jar in ``target/``. Every build goes through perfproof's real
build function, process runner, logs and cache.
"""

from __future__ import annotations

import stat
import subprocess
import zipfile
from collections.abc import Callable
from pathlib import Path

import pytest

from perfproof.errors import ExternalError
from perfproof.workspace import build_offline
from perfproof.workspace.build import build
from perfproof.workspace.spec import BuildSpec

MVN = """#!/bin/sh
echo "ARGS $*"
for a in "$@"; do
  if [ "$a" = "-o" ] && [ -f "$LACK" ]; then
    echo "[ERROR] Failed to execute goal on project bench: Could not resolve dependencies: \
Cannot access central (https://repo.maven.apache.org/maven2) in offline mode and the artifact \
org.openjdk.jmh:jmh-core:jar:1.37 has not been downloaded from it before. -> [Help 1]"
    exit 1
  fi
done
if [ -f "$BROKEN" ]; then echo "[ERROR] /x/A.java:[3,1] cannot find symbol"; exit 1; fi
mkdir -p target && cp "$JAR" target/bench-1.0.jar
"""

POM = "<project><artifactId>bench</artifactId></project>"


@pytest.fixture
def fake_maven(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    mvn = bin_dir / "mvn"
    mvn.write_text(MVN)
    mvn.chmod(mvn.stat().st_mode | stat.S_IXUSR)
    jar = tmp_path / "bench.jar"
    with zipfile.ZipFile(jar, "w") as zf:
        zf.writestr("META-INF/BenchmarkList", "x")
        zf.writestr("org/openjdk/jmh/Main.class", "")  # an uber jar, as Gradle's jmhJar makes
    monkeypatch.setenv("PATH", f"{bin_dir}:/usr/bin:/bin")
    monkeypatch.setenv("JAR", str(jar))
    monkeypatch.setenv("LACK", str(tmp_path / "lack"))
    monkeypatch.setenv("BROKEN", str(tmp_path / "broken"))
    return tmp_path


def _build(repo: Path, cache: Path, log: Path, said: list[str]) -> tuple[list[str], str]:
    artifact = build(repo, BuildSpec(kind="maven", maven="mvn"), cache_dir=cache, log_path=log,
                     say=said.append)  # fmt: skip
    return artifact.build_command, log.read_text()


def test_offline_after_an_online_success_and_online_again_when_an_artifact_is_missing(
    fake_maven: Path, write_git_repo: Callable[..., Path]
) -> None:
    repo = write_git_repo(fake_maven / "repo", [
        ("c1", "2026-01-01T00:00:00", {"pom.xml": POM, "A.java": "class A {}"}),
        ("c2", "2026-01-02T00:00:00", {"A.java": "class A { int x; }"}),
        ("c3", "2026-01-03T00:00:00", {"A.java": "class A { int y; }"}),
        ("c4", "2026-01-04T00:00:00", {"pom.xml": POM + "\n<!-- new dependency -->"}),
    ])  # fmt: skip
    cache, said = fake_maven / "cache", []

    def at(tag: str) -> None:
        subprocess.run(["git", "-C", str(repo), "checkout", "-q", tag], check=True)

    at("c1")
    first, _ = _build(repo, cache, fake_maven / "1.log", said)
    assert "-o" not in first  # nothing known yet: online, and remembered
    at("c2")  # another commit, the same poms: the same resolution
    second, log = _build(repo, cache, fake_maven / "2.log", said)
    assert second[:2] == ["mvn", "-o"] and "# perfproof: offline (-o)" in log
    at("c3")
    (fake_maven / "lack").write_text("")  # ~/.m2 was cleaned since
    third, log = _build(repo, cache, fake_maven / "3.log", said)
    assert "-o" not in third
    assert said and "offline build lacked an artifact" in said[-1] and "jmh-core" in said[-1]
    assert "ARGS -o" in (fake_maven / "3-offline.log").read_text() and "ARGS -o" not in log
    at("c4")  # a changed pom resolves anew: online
    (fake_maven / "lack").unlink()
    fourth, _ = _build(repo, cache, fake_maven / "4.log", said)
    assert "-o" not in fourth


def test_an_offline_build_failing_for_another_cause_is_not_run_again(
    fake_maven: Path, write_git_repo: Callable[..., Path]
) -> None:
    repo = write_git_repo(fake_maven / "repo", [
        ("c1", "2026-01-01T00:00:00", {"pom.xml": POM, "A.java": "class A {}"}),
        ("c2", "2026-01-02T00:00:00", {"A.java": "class A { oops }"}),
    ])  # fmt: skip
    cache, said = fake_maven / "cache", []
    subprocess.run(["git", "-C", str(repo), "checkout", "-q", "c1"], check=True)
    _build(repo, cache, fake_maven / "1.log", said)
    subprocess.run(["git", "-C", str(repo), "checkout", "-q", "c2"], check=True)
    (fake_maven / "broken").write_text("")
    with pytest.raises(ExternalError, match="cannot find symbol"):
        _build(repo, cache, fake_maven / "2.log", said)
    assert (fake_maven / "2.log").read_text().count("ARGS ") == 1


def test_the_resolution_key_follows_poms_and_settings_not_sources(tmp_path: Path) -> None:
    (tmp_path / "core/src").mkdir(parents=True)
    (tmp_path / "pom.xml").write_text("<project/>")
    (tmp_path / "core/pom.xml").write_text("<project/>")
    (tmp_path / "core/target").mkdir()
    spec = BuildSpec(module="core")
    key = build_offline.resolution_key(tmp_path, spec, "mvn")
    (tmp_path / "core/src/A.java").write_text("class A {}")
    (tmp_path / "core/target/pom.xml").write_text("<copied/>")  # build output, not an input
    assert build_offline.resolution_key(tmp_path, spec, "mvn") == key
    assert build_offline.resolution_key(tmp_path, spec, "./mvnw") != key
    assert build_offline.resolution_key(tmp_path, BuildSpec(module="core", keep_checks=True),
                                        "mvn") != key  # fmt: skip
    (tmp_path / ".mvn").mkdir()
    (tmp_path / ".mvn/maven.config").write_text("-Pfast")
    assert build_offline.resolution_key(tmp_path, spec, "mvn") != key
    assert not build_offline.applies("maven", BuildSpec(build_args=("--offline",)))
    assert not build_offline.applies("custom", BuildSpec())
    assert build_offline.missing_offline("[ERROR] compilation failed\n") == ""


GRADLE = """#!/bin/sh
echo "ARGS $*"
for a in "$@"; do
  if [ "$a" = "--offline" ] && [ -f "$LACK" ]; then
    echo "> Could not resolve all files for configuration ':compileClasspath'."
    echo "   > Could not resolve org.openjdk.jmh:jmh-core:1.37."
    echo "      > No cached version of org.openjdk.jmh:jmh-core:1.37 available for offline mode."
    exit 1
  fi
done
mkdir -p build/libs && cp "$JAR" build/libs/g-jmh.jar
"""


def test_gradle_goes_offline_by_the_same_rule_and_its_build_files_make_the_key(
    fake_maven: Path, write_git_repo: Callable[..., Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    gradle = fake_maven / "bin" / "gradle"
    gradle.write_text(GRADLE)
    gradle.chmod(gradle.stat().st_mode | stat.S_IXUSR)
    monkeypatch.setenv("GRADLE_USER_HOME", str(fake_maven / "gradle-home"))
    script = "task jmhJar {}\n"
    repo = write_git_repo(fake_maven / "repo", [
        ("c1", "2026-01-01T00:00:00", {"build.gradle": script, "src/A.java": "class A {}"}),
        ("c2", "2026-01-02T00:00:00", {"src/A.java": "class A { int x; }"}),
        ("c3", "2026-01-03T00:00:00", {"gradle/libs.versions.toml": "[versions]\n"}),
        ("c4", "2026-01-04T00:00:00", {"src/A.java": "class A { int y; }"}),
    ])  # fmt: skip
    cache, said, spec = fake_maven / "cache", [], BuildSpec(kind="gradle", gradle="gradle")

    def at(tag: str, n: int) -> list[str]:
        subprocess.run(["git", "-C", str(repo), "checkout", "-q", tag], check=True)
        log = fake_maven / f"g{n}.log"
        art = build(repo, spec, cache_dir=cache, log_path=log, say=said.append)
        return art.build_command

    assert "--offline" not in at("c1", 1)
    assert at("c2", 2)[:2] == ["gradle", "--offline"]  # same build files: offline
    assert "# perfproof: offline (--offline)" in (fake_maven / "g2.log").read_text()
    assert "--offline" not in at("c3", 3)  # a version catalog changed: online first
    (fake_maven / "lack").write_text("")  # the Gradle caches were cleaned since
    assert "--offline" not in at("c4", 4)
    assert "(No cached version of org.openjdk.jmh:jmh-core:1.37 available" in said[-1]
    assert "ARGS --offline" in (fake_maven / "g4-offline.log").read_text()
    # an init script of the Gradle user home can add repositories: it is part of the key
    key = build_offline.resolution_key(repo, spec, "gradle", "gradle")
    (fake_maven / "gradle-home/init.d").mkdir(parents=True)
    (fake_maven / "gradle-home/init.d/repos.gradle").write_text("allprojects {}\n")
    assert build_offline.resolution_key(repo, spec, "gradle", "gradle") != key
    assert build_offline.resolution_key(repo, spec, "gradle", "maven") != key
    assert not build_offline.applies("gradle", BuildSpec(build_args=("--offline",)))
    # Gradle 4.4.1's words for a plugin the offline build cannot find in its caches
    plugin = ("- Plugin Repositories (could not resolve plugin artifact "
              "'me.champeau.gradle.jmh:me.champeau.gradle.jmh.gradle.plugin:0.4.5')\n")  # fmt: skip
    assert build_offline.missing_offline(plugin).startswith("Plugin Repositories (could not")
