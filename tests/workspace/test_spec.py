from __future__ import annotations

import json
from pathlib import Path

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


@pytest.mark.parametrize("run", ["kryo-24-keys-defaults", "demo-feature-vs-baseline"])
def test_a_runs_build_settings_write_the_block_it_recorded(run: str) -> None:
    """The spec a real run's options describe (as ``--resume`` reads it back) writes the
    ``build_spec`` block that run recorded, entry for entry and in order; the block itself
    reads and writes back unchanged."""
    from perfproof.model.documents import dumps
    from perfproof.model.documents.run import BuildSpecBlock, RunManifest
    from perfproof.pipeline.ab.options import spec_of_options

    path = Path(__file__).resolve().parents[1] / "fixtures" / "runs" / run / "manifest.json"
    doc = json.loads(path.read_text())
    manifest = RunManifest.read(doc, str(path))
    spec = spec_of_options(manifest.options)
    assert dumps(spec.to_block().dump()) == dumps(doc["build_spec"])
    assert dumps(BuildSpecBlock.read(doc["build_spec"], run).dump()) == dumps(doc["build_spec"])
