"""The recording forks' JFR settings: the JDK's ``profile`` with the compiler's account on."""

from __future__ import annotations

import re
from pathlib import Path

from perfproof.env.java import java_info
from perfproof.measure.jfr_args import jit_settings, jmh_jfr_args


def _event(text: str, name: str) -> str:
    m = re.search(rf'<event name="{re.escape(name)}">(.*?)</event>', text, re.S)
    assert m, name
    return m.group(1)


def test_profile_settings_with_every_inlining_decision_and_compilation(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    home = java_info().home
    path = jit_settings(home)
    assert path.endswith(".jfc") and Path(path).parent == tmp_path / "perfproof" / "jfr-settings"
    text = Path(path).read_text()
    profile = (Path(home) / "lib" / "jfr" / "profile.jfc").read_text()
    assert ">false</setting>" in _event(profile, "jdk.CompilerInlining")  # off in profile
    assert ">true</setting>" in _event(text, "jdk.CompilerInlining")
    assert ">0 ms</setting>" in _event(text, "jdk.Compilation")
    assert _event(text, "jdk.ExecutionSample") == _event(profile, "jdk.ExecutionSample")
    assert jit_settings(home) == path  # written once
    option = jmh_jfr_args(tmp_path / "jfr", 1, "base", path)[-1]
    assert f"settings={path}" in option


def test_a_jdk_without_its_settings_file_records_with_profile(tmp_path) -> None:
    assert jit_settings(str(tmp_path)) == "profile"
    assert jit_settings(None) == "profile"
