"""What a Maven build left behind, read without running Maven."""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest

from perfproof.errors import InputError
from perfproof.workspace import build_maven
from perfproof.workspace.spec import BuildSpec


def _jar(path: Path, names: list[str]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(path, "w") as zf:
        for name in names:
            zf.writestr(name, b"x")


def test_a_root_build_names_the_modules_that_hold_benchmarks(tmp_path: Path):
    (tmp_path / "pom.xml").write_text("<project/>")
    _jar(tmp_path / "core/target/core-1.0.jar", ["a/Queue.class"])
    _jar(tmp_path / "acme-benchmarks/target/bench.jar", ["META-INF/BenchmarkList"])
    _jar(tmp_path / "perf/jmh/target/jmh-1.0.jar", ["META-INF/BenchmarkList"])
    _jar(tmp_path / "core/target/core-1.0-tests.jar", ["META-INF/BenchmarkList"])
    with pytest.raises(InputError) as err:
        build_maven.collect(tmp_path, BuildSpec(kind="maven"))
    message = str(err.value)
    assert "no JMH benchmarks built in the root module" in message
    assert "benchmarks were built in acme-benchmarks, perf/jmh" in message
    assert "choose one with --module acme-benchmarks" in message


def test_a_module_without_benchmarks_keeps_the_plain_advice(tmp_path: Path):
    (tmp_path / "core/pom.xml").parent.mkdir(parents=True)
    (tmp_path / "core/pom.xml").write_text("<project/>")
    _jar(tmp_path / "core/target/core-1.0.jar", ["a/Queue.class"])
    with pytest.raises(InputError) as err:
        build_maven.collect(tmp_path, BuildSpec(kind="maven", module="core"))
    assert "module 'core'" in str(err.value)
    assert "is jmh-generator-annprocess configured?" in str(err.value)
