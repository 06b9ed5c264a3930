from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from perfproof.env.java import check_same_jdk, find_java, java_info, parse_properties
from perfproof.errors import InputError
from perfproof.model.documents.run import JavaInfo

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"

SETTINGS = """Property settings:
    file.separator = /
    java.home = /usr/lib/jvm/temurin-21
    java.library.path = /usr/java/packages/lib
        /usr/lib64
    java.runtime.version = 21.0.2+13-LTS
    java.vendor = Eclipse Adoptium
    java.version = 21.0.2

openjdk version "21.0.2" 2024-01-16 LTS
"""


def test_parse_properties_reads_settings_lines_only():
    props = parse_properties(SETTINGS)
    assert props["java.home"] == "/usr/lib/jvm/temurin-21"
    assert props["java.vendor"] == "Eclipse Adoptium"
    assert props["java.library.path"] == "/usr/java/packages/lib"
    assert "/usr/lib64" not in props.values()


@pytest.mark.jvm
def test_java_info_describes_the_real_jvm():
    info = java_info("java")
    assert os.path.isfile(os.path.join(info.home, "bin", "java"))
    assert info.path == os.path.realpath(shutil.which("java"))
    assert info.version[:2].isdigit() or info.version.startswith(("1.", "9"))
    assert info.runtime_version.startswith(info.version.split("-")[0])
    assert info.vendor and info.vm_name
    assert java_info(os.path.join(info.home, "bin", "java")) == java_info("java")
    assert check_same_jdk(info, java_info()) == info


def test_missing_java_is_an_input_error(tmp_path):
    with pytest.raises(InputError, match=r"--java .*nojava: not an executable java"):
        java_info(str(tmp_path / "nojava"))


def test_a_jdk_folder_names_its_java(tmp_path):
    """``--java /opt/jdk`` and ``--java /opt/jdk/bin/java`` are the same JVM for every verb."""
    jdk = tmp_path / "jdk"
    (jdk / "bin").mkdir(parents=True)
    exe = jdk / "bin" / "java"
    exe.write_text("#!/bin/sh\n")
    exe.chmod(0o755)
    assert find_java(str(jdk)) == exe.resolve()
    assert find_java(str(exe)) == exe.resolve()
    (jdk / "bin" / "java").chmod(0o644)
    with pytest.raises(InputError, match="not an executable java"):
        find_java(str(jdk))


def test_different_jdks_are_refused():
    a = JavaInfo(path="/a/bin/java", home="/a", vendor="Debian", version="17.0.15",
                 runtime_version="17.0.15+6", vm_name="OpenJDK")  # fmt: skip
    b = a.model_copy(update={"home": "/b", "path": "/b/bin/java", "runtime_version": "21.0.2+13"})
    with pytest.raises(InputError, match=r"different JDKs: Debian 17\.0\.15\+6 \(/a\) vs"):
        check_same_jdk(a, b)
    assert check_same_jdk(a, a.model_copy(update={"path": "/a/jre/bin/java"})) == a


def test_a_recorded_jdk_reads_as_the_jvm_it_describes_and_writes_back_the_same():
    """A live JVM's description is the manifest's ``environment.jdk`` itself: a real run's
    block reads as one and writes back byte for byte; a block of an older run (``java``,
    ``vm``) still reads as the manifest's Jdk."""
    from perfproof.model.documents import dumps
    from perfproof.model.documents.run import Environment, Jdk

    manifest = FIXTURES / "runs" / "demo-feature-vs-baseline" / "manifest.json"
    block = json.loads(manifest.read_text())["environment"]["jdk"]
    info = JavaInfo.model_validate(block)
    assert info.dump() == block
    written = Environment(jdk=info).dump()["jdk"]
    assert dumps(written) == dumps(block) == dumps(Jdk.model_validate(block).dump())
    old = {"java": block["path"], "home": block["home"], "vm": block["vm_name"]}
    assert Jdk.model_validate(old).dump() == {
        "path": block["path"],
        "home": block["home"],
        "vm_name": block["vm_name"],
    }
