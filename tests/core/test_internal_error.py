"""A bug in perfproof is exit 4 with one line naming a crash log, never exit 2 "bad input"."""

from __future__ import annotations

from pathlib import Path

import pytest

import perfproof.cli.compare as compare_cli


def _plant_bug(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*_args: object, **_kwargs: object) -> None:
        raise TypeError("'NoneType' object is not subscriptable")

    monkeypatch.setattr(compare_cli, "compare_specs", broken)


def test_bug_is_exit_4_with_one_line_and_a_crash_log(
    run_cli, fixtures_dir, monkeypatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.delenv("PERFPROOF_DEBUG", raising=False)
    _plant_bug(monkeypatch)
    base = fixtures_dir / "jmh" / "jmh-1.37-allmodes-gc.json"
    res = run_cli("compare", base, base)
    assert res.code == 4
    lines = res.err.splitlines()
    assert len(lines) == 1, res.err
    assert lines[0].startswith("perfproof: internal error: TypeError:")
    assert "not in your input" in lines[0]
    logs = list((tmp_path / "cache" / "perfproof" / "crashes").glob("*.log"))
    assert len(logs) == 1
    assert str(logs[0]) in lines[0]
    text = logs[0].read_text()
    assert "Traceback" in text and "broken" in text and "'compare'" in text


def test_debug_prints_the_traceback(run_cli, fixtures_dir, monkeypatch, tmp_path: Path) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    _plant_bug(monkeypatch)
    base = fixtures_dir / "jmh" / "jmh-1.37-allmodes-gc.json"
    res = run_cli("--debug", "compare", base, base)
    assert res.code == 4
    assert "Traceback (most recent call last)" in res.err
    assert res.err.rstrip().splitlines()[-1].startswith("perfproof: internal error:")


def test_input_errors_keep_exit_2(run_cli, tmp_path: Path) -> None:
    res = run_cli("compare", tmp_path / "missing.json", tmp_path / "missing.json")
    assert res.code == 2
    assert "internal error" not in res.err
