"""Shipping a side's jars to a node and bringing a group's folder back (no cluster needed)."""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest

from perfproof.errors import InputError
from perfproof.measure.executors.ray import check_address, materialise, pack, unpack_part
from perfproof.workspace.artifact import Artifact
from perfproof.workspace.jars import JMH_MAIN


def jar(path: Path, main: str | None, payload: str) -> Path:
    with zipfile.ZipFile(path, "w") as zf:
        manifest = "Manifest-Version: 1.0\n" + (f"Main-Class: {main}\n" if main else "")
        zf.writestr("META-INF/MANIFEST.MF", manifest)
        zf.writestr("payload.txt", payload)
    return path


def artifact(jar_path: Path | None, classpath: list[Path]) -> Artifact:
    return Artifact("a" * 40, "maven", jar_path, classpath, ["mvn"], jar_path or classpath[0],
                    False, None)  # fmt: skip


def test_an_uber_jar_runs_with_java_jar_from_the_nodes_copy(tmp_path: Path) -> None:
    uber = jar(tmp_path / "benchmarks.jar", JMH_MAIN, "uber")
    bundle, data = pack("base", artifact(uber, []))
    node = tmp_path / "node"
    node.mkdir()
    argv = materialise(bundle, data, node, "/jdk/bin/java")
    assert argv[:2] == ["/jdk/bin/java", "-jar"]
    copy = Path(argv[2])
    assert copy.parent == node / bundle.digest and copy.read_bytes() == uber.read_bytes()
    # a second task on the node reuses the copy
    assert materialise(bundle, data, node, "/jdk/bin/java") == argv


def test_a_thin_jar_and_classpath_keep_their_order_and_names(tmp_path: Path) -> None:
    thin = jar(tmp_path / "bench.jar", None, "thin")
    deps = [jar(tmp_path / f"lib{i}.jar", None, f"dep{i}") for i in range(3)]
    dup = tmp_path / "other"
    dup.mkdir()
    deps.append(jar(dup / "lib0.jar", None, "same name, other jar"))
    bundle, data = pack("head", artifact(thin, [thin, *deps]))
    argv = materialise(bundle, data, tmp_path, "java")
    assert argv[0:2] == ["java", "-cp"] and argv[3] == JMH_MAIN
    paths = [Path(p) for p in argv[2].split(":")]
    assert [p.read_bytes() for p in paths] == [f.read_bytes() for f in [thin, *deps]]
    assert len(set(paths)) == len(paths)  # two jars named lib0.jar stay two files


def test_test_classes_ship_as_a_jar_of_their_files_with_a_digest_of_their_content(
    tmp_path: Path,
) -> None:
    classes = tmp_path / "target" / "test-classes"
    (classes / "META-INF").mkdir(parents=True)
    (classes / "META-INF" / "BenchmarkList").write_text("list")
    (classes / "B.class").write_bytes(b"cafe")
    core = jar(tmp_path / "jmh-core.jar", None, "core")
    bundle, data = pack("base", artifact(None, [classes, core]))
    (tmp_path / "node").mkdir()
    argv = materialise(bundle, data, tmp_path / "node", "java")
    shipped = Path(argv[2].split(":")[0])
    with zipfile.ZipFile(shipped) as zf:
        assert sorted(zf.namelist()) == ["B.class", "META-INF/BenchmarkList"]
        assert zf.read("META-INF/BenchmarkList") == b"list"
    (classes / "B.class").touch()  # a new time, the same bytes: the same digest
    assert pack("base", artifact(None, [classes, core]))[0].digest == bundle.digest


def test_the_digest_changes_with_any_byte(tmp_path: Path) -> None:
    one = pack("base", artifact(jar(tmp_path / "a.jar", JMH_MAIN, "x"), []))[0]
    two = pack("base", artifact(jar(tmp_path / "b.jar", JMH_MAIN, "y"), []))[0]
    assert one.digest != two.digest


def test_a_returned_folder_replaces_any_older_copy_whole(tmp_path: Path) -> None:
    import io
    import tarfile

    source = tmp_path / "src"
    (source / "jmh").mkdir(parents=True)
    (source / "manifest.json").write_text("{}")
    (source / "jmh" / "01-base.json").write_text("[]")
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz") as tar:
        tar.add(source, arcname=".")
    target = tmp_path / "parts" / "g01"
    target.mkdir(parents=True)
    (target / "stale.json").write_text("from a lost attempt")
    unpack_part(buf.getvalue(), target)
    assert sorted(p.name for p in target.rglob("*")) == ["01-base.json", "jmh", "manifest.json"]
    assert [p.name for p in target.parent.iterdir()] == ["g01"]


@pytest.mark.parametrize("address", ["localhost", "host:port", "ray://nohost"])
def test_a_malformed_address_is_bad_input(address: str) -> None:
    with pytest.raises(InputError, match="expected HOST:PORT"):
        check_address(address)


def test_an_address_where_nothing_answers_is_bad_input() -> None:
    with pytest.raises(InputError, match=r"--ray-address 127\.0\.0\.1:1: no Ray cluster answers"):
        check_address("127.0.0.1:1")
