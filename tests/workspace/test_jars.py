from __future__ import annotations

import zipfile
from pathlib import Path

from perfproof.workspace.artifact import Artifact, jmh_version
from perfproof.workspace.jars import (
    bundles_jmh,
    candidate_jars,
    has_benchmarks,
    main_class,
    pick_uber,
)


def make_jar(
    path: Path, names: list[str], manifest: str | None = None, jmh_pom: str | None = None
) -> Path:
    with zipfile.ZipFile(path, "w") as zf:
        if manifest is not None:
            zf.writestr("META-INF/MANIFEST.MF", manifest)
        for n in names:
            zf.writestr(n, b"x")
        if jmh_pom is not None:
            zf.writestr(
                "META-INF/maven/org.openjdk.jmh/jmh-core/pom.properties",
                f"groupId=org.openjdk.jmh\nversion={jmh_pom}\n",
            )
    return path


def test_uber_and_thin_jars_are_told_apart_by_their_content(tmp_path):
    thin = make_jar(tmp_path / "app-1.0.jar", ["META-INF/BenchmarkList", "a/B.class"])
    uber = make_jar(
        tmp_path / "zzz-shaded.jar",
        ["META-INF/BenchmarkList", "org/openjdk/jmh/Main.class"],
        manifest="Manifest-Version: 1.0\r\nMain-Class: org.openjdk.jmh.M\r\n ain\r\n",
        jmh_pom="1.36",
    )
    other = make_jar(
        tmp_path / "aaa-all.jar", ["META-INF/BenchmarkList", "org/openjdk/jmh/Main.class"]
    )
    make_jar(tmp_path / "original-zzz-shaded.jar", ["META-INF/BenchmarkList"])
    make_jar(tmp_path / "app-1.0-sources.jar", [])
    (tmp_path / "broken.jar").write_text("not a zip")
    assert [p.name for p in candidate_jars(tmp_path)] == [
        "aaa-all.jar",
        "app-1.0.jar",
        "broken.jar",
        "zzz-shaded.jar",
    ]
    assert has_benchmarks(thin) and not bundles_jmh(thin) and bundles_jmh(uber)
    assert main_class(uber) == "org.openjdk.jmh.Main" and main_class(other) is None
    assert pick_uber(candidate_jars(tmp_path)) == uber  # JMH's Main-Class wins the tie
    assert pick_uber([thin]) is None


def test_artifact_argv_and_jmh_version(tmp_path):
    uber = make_jar(
        tmp_path / "u.jar", ["META-INF/BenchmarkList", "org/openjdk/jmh/Main.class"], jmh_pom="1.36"
    )
    art = Artifact(
        sha="a" * 40,
        kind="custom",
        jar=uber,
        classpath=[],
        build_command=["x"],
        build_cwd=tmp_path,
        cached=False,
        log_path=None,
    )
    assert art.jmh_argv("j") == ["j", "-cp", str(uber), "org.openjdk.jmh.Main"]  # no Main-Class
    assert jmh_version(art) == "1.36"
    thin = make_jar(tmp_path / "t.jar", ["META-INF/BenchmarkList"])
    core = make_jar(tmp_path / "jmh-core-1.37.jar", [])
    cp_art = Artifact(
        sha="a" * 40,
        kind="maven",
        jar=thin,
        classpath=[thin, core],
        build_command=["mvn"],
        build_cwd=tmp_path,
        cached=True,
        log_path=None,
    )
    assert cp_art.layout == "classpath"
    assert cp_art.jmh_argv("java")[2] == f"{thin}:{core}"
    assert jmh_version(cp_art) == "1.37"
    assert jmh_version(Artifact("a" * 40, "maven", thin, [thin], [], tmp_path, False, None)) is None
