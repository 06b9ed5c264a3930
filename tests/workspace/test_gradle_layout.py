"""Which changes the base's Gradle build of a project can serve, and which files make the
offline key: decided on small Gradle layouts written to disk (no Gradle runs)."""

from __future__ import annotations

from pathlib import Path

from perfproof.workspace import gradle_layout
from perfproof.workspace.gradle_layout import blocking_change


def _write(root: Path, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    return root


SINGLE = {
    "settings.gradle": "rootProject.name = 'g'\n",
    "build.gradle": "apply plugin: 'java'\njar { from 'NOTICE' }\ntask jmhJar(type: Jar) {}\n",
    "src/main/java/g/Sum.java": "class Sum {}",
}


def test_a_single_project_is_rebuilt_for_sources_build_files_and_named_files(tmp_path: Path):
    wt = _write(tmp_path, SINGLE)
    assert blocking_change(wt, None, ["README.md", "docs/guide.md", ".github/ci.yml"]) is None
    assert "root project" in blocking_change(wt, None, ["src/main/java/g/Sum.java"])
    assert "root project" in blocking_change(wt, None, ["src/jmh/java/g/B.java"])
    for build_file in ("build.gradle", "gradle/wrapper/gradle-wrapper.properties",
                       "gradle.properties", "buildSrc/src/main/groovy/P.groovy",
                       "gradle/libs.versions.toml", "lombok.config", "gradlew"):  # fmt: skip
        assert "build file" in blocking_change(wt, None, [build_file]), build_file
    assert "'NOTICE'" in blocking_change(wt, None, ["NOTICE"])  # jar { from 'NOTICE' }


MULTI = {
    "settings.gradle": "rootProject.name = 'm'\ninclude 'core', 'bench'\ninclude(':other')\n",
    "build.gradle": "subprojects { apply plugin: 'java' }\n",
    "core/build.gradle": "dependencies { implementation project(':lib') }\n",
    "bench/build.gradle": "dependencies { implementation project(path: ':core') }\n",
    "other/build.gradle": "",
}


def test_a_subproject_is_rebuilt_only_for_the_projects_it_reaches(tmp_path: Path):
    wt = _write(tmp_path, MULTI)
    assert blocking_change(wt, "bench", ["other/src/main/java/O.java", "README.md"]) is None
    assert "project core" in blocking_change(wt, "bench", ["core/src/main/java/C.java"])
    assert "project bench" in blocking_change(wt, "bench", ["bench/src/jmh/java/B.java"])
    assert "root project" in blocking_change(wt, "bench", ["src/main/java/R.java"])
    assert "not in the build" in blocking_change(wt, "nope", ["README.md"])
    # a task path names a project as surely as project(':x') does
    _write(wt, {"bench/build.gradle": "jmhJar { dependsOn ':other:jar' }\n"})
    assert "project other" in blocking_change(wt, "bench", ["other/src/main/java/O.java"])


def test_what_perfproof_cannot_read_means_build(tmp_path: Path):
    wt = _write(tmp_path, MULTI)
    change = ["other/src/main/java/O.java"]
    _write(wt, {"bench/build.gradle": "dependencies { implementation project(name) }\n"})
    assert "cannot read" in blocking_change(wt, "bench", change)
    _write(wt, {"bench/build.gradle": "dependencies { implementation projects.core }\n"})
    assert "cannot read" in blocking_change(wt, "bench", change)
    _write(wt, {"bench/build.gradle": "sourceSets.main.java.srcDir '../shared/src'\n"})
    assert "shared" in blocking_change(wt, "bench", ["shared/src/S.java"])
    assert "reaches outside" in blocking_change(wt, "bench", change)
    _write(
        wt, {"bench/build.gradle": "", "settings.gradle": "['core', 'bench'].each { include it }\n"}
    )
    assert "settings" in blocking_change(wt, "bench", change)
    _write(wt, {"settings.gradle": "include 'bench'\nincludeBuild 'tools'\n"})
    assert "included build" in blocking_change(wt, "bench", ["tools/src/T.java"])


def test_the_offline_key_reads_build_files_not_sources(tmp_path: Path):
    wt = _write(tmp_path, {**MULTI, "gradle/wrapper/gradle-wrapper.properties": "x",
                           "core/gradle.properties": "a=1", "core/build/tmp.gradle": "",
                           "core/src/main/java/C.java": "", "README.md": ""})  # fmt: skip
    names = {p.relative_to(wt).as_posix() for p in gradle_layout.build_files(wt)}
    assert names == {"settings.gradle", "build.gradle", "core/build.gradle", "bench/build.gradle",
                     "other/build.gradle", "gradle/wrapper/gradle-wrapper.properties",
                     "core/gradle.properties"}  # fmt: skip


def test_what_only_looks_like_a_reach_does_not_block(tmp_path: Path):
    wt = _write(tmp_path, MULTI)
    _write(wt, {
        # project() is the script's own project (JVM test suites); a property of the root
        # project reads no file; a project's own script naming its folder is about that project
        "bench/build.gradle": "dependencies { jmhImplementation(project()) }\n"
                              "dependencies { jmhImplementation(project(path)) }\n"
                              "version = rootProject.hasProperty('release') ? '1' : '1-SNAPSHOT'\n",
        "other/build.gradle": "jar { manifest { attributes 'Name': 'other' } }\n",
    })  # fmt: skip
    assert blocking_change(wt, "bench", ["other/src/main/java/O.java"]) is None
    _write(wt, {"bench/build.gradle": "jmhJar { from rootProject.file('NOTICE') }\n"})
    assert "reaches outside" in blocking_change(wt, "bench", ["other/src/main/java/O.java"])
