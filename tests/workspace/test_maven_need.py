"""Which Maven a project needs (wrapper, prerequisites, enforcer, plugin descriptors, a failed
build's log) and which Maven then builds it, on poms and a local repository laid out on disk;
the Maven "on PATH" is a script that prints a version, and a fetched Maven is one already
unpacked in the cache, so nothing here downloads."""

from __future__ import annotations

import os
import stat
import zipfile
from pathlib import Path

import pytest

from perfproof.workspace import build_maven, maven_fetch, maven_need
from perfproof.workspace.maven_need import MavenNeed
from perfproof.workspace.spec import BuildSpec

LOG = (
    "[ERROR] Failed to execute goal org.apache.rat:apache-rat-plugin:0.18:check (rat-check) on "
    "project commons-lang3: The plugin org.apache.rat:apache-rat-plugin:0.18 requires Maven "
    "version 3.9 -> [Help 1]\n"
)


@pytest.mark.parametrize(
    ("spec", "version", "allowed"),
    [
        ("3.9", "3.8.7", False),
        ("3.9", "3.9.0", True),
        ("3.9", "3.9.16", True),
        ("[3.6.3,)", "3.6.3", True),
        ("(3.6.3,)", "3.6.3", False),
        ("[3.8,4)", "4.0.0", False),
        ("[3.8,4)", "3.9.9", True),
        ("[3.8,3.9]", "3.9.0", True),
    ],
)
def test_ranges_read_as_maven_writes_them(spec: str, version: str, allowed: bool) -> None:
    assert MavenNeed(spec, "x").allows(version) is allowed


def test_the_release_fetched_for_a_need() -> None:
    assert maven_fetch.target_version(MavenNeed("3.9", "p")) == maven_fetch.FETCHED_VERSION
    assert maven_fetch.target_version(MavenNeed("[4.1,)", "p")) == "4.1.0"
    assert maven_fetch.target_version(MavenNeed("3.9.6", "wrapper", exact=True)) == "3.9.6"


def test_a_failed_builds_log_names_the_plugin_and_its_need() -> None:
    need = maven_need.need_from_log("\x1b[1;31m" + LOG)
    assert need is not None and need.words() == "apache-rat-plugin 0.18 requires Maven 3.9"
    assert maven_need.need_from_log("[ERROR] cannot find symbol") is None


def _local_repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    repo = tmp_path / "m2"
    monkeypatch.setenv("MAVEN_OPTS", f"-Dmaven.repo.local={repo}")
    folder = repo / "org/apache/rat/apache-rat-plugin/0.18"
    folder.mkdir(parents=True)
    with zipfile.ZipFile(folder / "apache-rat-plugin-0.18.jar", "w") as zf:
        zf.writestr(
            "META-INF/maven/plugin.xml",
            "<plugin><requiredMavenVersion>3.9</requiredMavenVersion></plugin>",
        )
    parent = repo / "org/example/parent/7"
    parent.mkdir(parents=True)
    (parent / "parent-7.pom").write_text(
        "<project><groupId>org.example</groupId><artifactId>parent</artifactId>"
        "<version>7</version><properties><rat.version>0.16</rat.version></properties>"
        "<profiles><profile><id>jdk17</id><properties><rat.version>0.18</rat.version>"
        "</properties></profile></profiles><build><pluginManagement><plugins><plugin>"
        "<groupId>org.apache.rat</groupId><artifactId>apache-rat-plugin</artifactId>"
        "<version>${rat.version}</version></plugin></plugins></pluginManagement></build>"
        "<prerequisites><maven>3.6.3</maven></prerequisites></project>"
    )
    return repo


CHILD = (
    '<project xmlns="http://maven.apache.org/POM/4.0.0"><parent><groupId>org.example</groupId>'
    "<artifactId>parent</artifactId><version>7</version></parent><artifactId>lib</artifactId>"
    "<build><plugins><plugin><artifactId>maven-enforcer-plugin</artifactId><executions>"
    "<execution><configuration><rules><requireMavenVersion><version>[3.8.1,)</version>"
    "</requireMavenVersion></rules></configuration></execution></executions></plugin>"
    "</plugins></build></project>"
)


def test_the_needs_of_the_pom_its_parent_and_their_plugins(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _local_repo(tmp_path, monkeypatch)
    (tmp_path / "pom.xml").write_text(CHILD)
    words = sorted(n.words() for n in maven_need.pom_needs(tmp_path, None))
    assert words == [
        "apache-rat-plugin 0.18 (its plugin descriptor) requires Maven 3.9",
        "parent's prerequisites requires Maven 3.6.3",
        "the enforcer's requireMavenVersion rule requires Maven [3.8.1,)",
    ]  # the parent's property takes 0.18 in a profile: that value counts too
    strictest = maven_need.needed(tmp_path)
    assert strictest is not None and strictest.spec == "3.9"


def test_the_wrapper_pins_the_version_it_names(tmp_path: Path) -> None:
    props = tmp_path / ".mvn" / "wrapper" / "maven-wrapper.properties"
    props.parent.mkdir(parents=True)
    props.write_text(
        "distributionUrl=https\\://repo.maven.apache.org/maven2/org/apache/maven/"
        "apache-maven/3.9.6/apache-maven-3.9.6-bin.zip\n"
    )
    (tmp_path / "pom.xml").write_text("<project/>")
    need = maven_need.needed(tmp_path)
    assert need is not None and (need.spec, need.exact) == ("3.9.6", True)
    assert need.allows("3.9.9") and not need.allows("3.8.7")


def _fake_mvn(folder: Path, version: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "mvn"
    path.write_text(f"#!/bin/sh\necho 'Apache Maven {version} (abc)'\n")
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return path


@pytest.fixture
def old_mvn_and_a_fetched_one(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    _fake_mvn(tmp_path / "bin", "3.8.7")
    monkeypatch.setenv("PATH", f"{tmp_path / 'bin'}{os.pathsep}/usr/bin:/bin")
    cache = tmp_path / "cache"
    _fake_mvn(maven_fetch.home_of(cache, "3.9.16") / "bin", "3.9.16")
    return cache


def test_a_maven_too_old_for_the_project_gives_way_to_a_fetched_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, old_mvn_and_a_fetched_one: Path
) -> None:
    cache = old_mvn_and_a_fetched_one
    _local_repo(tmp_path, monkeypatch)
    (tmp_path / "pom.xml").write_text(CHILD)
    plan = build_maven.plan(tmp_path, BuildSpec(), fresh=False, env={}, cache_dir=cache)
    home = maven_fetch.home_of(cache, "3.9.16")
    assert plan.command.argv[0] == str(home / "bin" / "mvn")
    assert plan.tool == f"Apache Maven 3.9.16 (fetched from Maven Central into {home})"
    assert "apache-rat-plugin 0.18 (its plugin descriptor) requires Maven 3.9" in plan.note
    assert "mvn on PATH is 3.8.7" in plan.note
    insisted = build_maven.plan(tmp_path, BuildSpec(maven="mvn"), fresh=False, env={})
    assert insisted.command.argv[0] == "mvn" and insisted.retry is None


def test_a_need_only_the_log_shows_is_met_on_the_second_try(
    tmp_path: Path, old_mvn_and_a_fetched_one: Path
) -> None:
    cache = old_mvn_and_a_fetched_one
    (tmp_path / "pom.xml").write_text("<project/>")  # a fresh ~/.m2: no descriptor to read
    first = build_maven.plan(tmp_path, BuildSpec(), fresh=False, env={}, cache_dir=cache)
    assert first.command.argv[0] == "mvn" and first.tool == "Apache Maven 3.8.7 (mvn on PATH)"
    assert first.retry is not None and first.retry("[ERROR] cannot find symbol") is None
    again = first.retry(LOG)
    assert again is not None
    assert again.command.argv[0] == str(maven_fetch.home_of(cache, "3.9.16") / "bin" / "mvn")
    assert "apache-rat-plugin 0.18 requires Maven 3.9" in again.note


def test_a_maven_that_cannot_be_fetched_leaves_the_build_to_the_one_on_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _fake_mvn(tmp_path / "bin", "3.8.7")  # its dependency:copy fetches nothing
    monkeypatch.setenv("PATH", f"{tmp_path / 'bin'}{os.pathsep}/usr/bin:/bin")
    props = tmp_path / ".mvn" / "wrapper" / "maven-wrapper.properties"
    props.parent.mkdir(parents=True)
    props.write_text("distributionUrl=http\\://127.0.0.1\\:9/apache-maven-3.9.6-bin.zip\n")
    (tmp_path / "pom.xml").write_text("<project/>")
    plan = build_maven.plan(tmp_path, BuildSpec(maven="auto"), fresh=False, env={},
                            cache_dir=tmp_path / "cache")  # fmt: skip
    assert plan.command.argv[0] == "mvn" and plan.tool == "Apache Maven 3.8.7 (mvn on PATH)"
    assert "requires Maven 3.9.6 and mvn on PATH is 3.8.7, but fetching Apache Maven 3.9.6" in (
        plan.note
    )
    assert plan.note.endswith("building with mvn on PATH")
