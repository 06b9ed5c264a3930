"""Which changed files a build reads: those reach every benchmark, the rest none."""

from __future__ import annotations

from perfproof.workspace.build_inputs import read_by_build, read_files

POM = """<project><build><plugins><plugin><configuration>
<nativeSourceDirectory>${project.basedir}/src/main/c</nativeSourceDirectory>
<checkstyle.configdir>src/site/resources/checkstyle</checkstyle.configdir>
<xmlPath>${basedir}/src/changes/changes.xml</xmlPath>
<sourceDirectory>src/main/java</sourceDirectory>
<file>conf/limits.cfg</file>
</configuration></plugin></plugins></build></project>"""
SCRIPTS = {"pom.xml": "<project/>", "native/pom.xml": POM}


def test_files_no_build_reads_reach_nothing() -> None:
    unread = [
        "src/changes/changes.xml",  # a changelog, even one a report plugin names
        "native/src/changes/changes.xml",
        "src/site/markdown/index.md",
        "src/site/resources/checkstyle/checks.xml",  # site sources, resources or not
        "benchmarks/results/jmh-result.json",  # checked-in results
        "RELEASE-NOTES.txt",
        "docs/guide.adoc",
        ".github/workflows/ci.yml",
        "native/src/main/notes.cfg",  # "src/main" is named only as part of src/main/java
        "native/src/assembly/bin.xml",
    ]
    assert read_files(unread, SCRIPTS) == ()


def test_what_a_build_reads_reaches_every_benchmark() -> None:
    read = [
        "src/main/resources/app.properties",
        "core/src/test/resources/words.txt",  # a resource, whatever its extension
        "pom.xml",
        "bench/build.gradle.kts",
        "gradle/libs.versions.toml",
        ".mvn/jvm.config",
        "core/src/main/kotlin/Fast.kt",
        "native/src/main/c/netty_epoll.c",  # the module's pom names its folder
        "native/conf/limits.cfg",  # ... or the file
    ]
    assert read_files([*read, "core/src/main/java/A.java"], SCRIPTS) == tuple(read)


def test_a_custom_build_command_may_read_any_file_but_the_docs() -> None:
    assert read_by_build("tools/gen.cfg", {}, custom=True)
    assert not read_by_build("tools/gen.cfg", {})
    assert not read_by_build("README.md", {}, custom=True)
