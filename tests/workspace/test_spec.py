from __future__ import annotations

import pytest

from perfproof.errors import InputError
from perfproof.workspace.spec import BuildSpec, detect_build


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"kind": "ant"}, "--build 'ant' is not one of maven, gradle, custom"),
        ({"kind": "custom"}, "--build custom needs --build-cmd"),
        ({"build_cmd": ""}, "--build-cmd is empty"),
        ({"build_cmd": "make"}, "--build-cmd needs --jar GLOB or --classpath-file FILE"),
        ({"kind": "maven", "build_cmd": "make", "jar_glob": "x.jar"}, "cannot be combined"),
        ({"module": "../elsewhere"}, "must be a folder inside the repository"),
        ({"module": "/abs"}, "must be a folder inside the repository"),
    ],
)
def test_impossible_settings_are_refused_naming_the_flag(kwargs, message):
    with pytest.raises(InputError, match=message.replace("(", r"\(").replace(")", r"\)")):
        BuildSpec(**kwargs)


def test_detect_build(tmp_path):
    with pytest.raises(InputError, match="cannot tell how to build"):
        detect_build(tmp_path)
    (tmp_path / "settings.gradle.kts").write_text("")
    assert detect_build(tmp_path) == "gradle"
    (tmp_path / "pom.xml").write_text("<project/>")
    assert detect_build(tmp_path) == "maven"
    assert detect_build(tmp_path, BuildSpec(kind="gradle")) == "gradle"
    assert detect_build(tmp_path, BuildSpec(build_cmd="make", jar_glob="a.jar")) == "custom"


def test_fingerprint_covers_what_changes_the_build_but_not_the_java_path():
    a = BuildSpec(module="bench")
    assert a.fingerprint("maven") == BuildSpec(module="bench", java="/x/java").fingerprint("maven")
    assert a.fingerprint("maven") != BuildSpec(module="other").fingerprint("maven")
    assert a.fingerprint("maven") != a.fingerprint("gradle")
