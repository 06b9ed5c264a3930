"""Collapsed stacks with no weight, and one recording named several times on a side."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest


@pytest.fixture
def stacks(tmp_path: Path) -> dict[str, Path]:
    files = {
        "zero": "app;Main.run;Work.step 0\napp;Main.run 0\n",
        "before": "app;Main.run;Work.step 40\napp;Main.run;Work.idle 60\n",
        "after": "app;Main.run;Work.step 20\napp;Main.run;Work.idle 61\n",
        "mixed": "app;Main.run;Work.step 0\napp;Main.run 7\n",
    }
    out = {}
    for name, text in files.items():
        out[name] = tmp_path / f"{name}.collapsed"
        out[name].write_text(text)
    return out


def _one_line(r) -> str:
    assert r.code == 2, (r.out, r.err)
    assert "Traceback" not in r.err
    (line,) = r.err.strip().splitlines()
    return line


def test_all_weights_zero_is_refused_not_a_division_by_zero(run_cli, stacks) -> None:
    line = _one_line(run_cli("profile", stacks["zero"]))
    assert str(stacks["zero"]) in line and "weight is 0" in line
    r = run_cli("profile", "diff", "--before", stacks["zero"], "--after", stacks["after"],
                "--normalize")  # fmt: skip
    assert "weight is 0" in _one_line(r)


def test_zero_weight_lines_beside_real_ones_are_skipped(run_cli, stacks) -> None:
    r = run_cli("profile", stacks["mixed"], "--format", "json")
    assert r.code == 0, r.err
    assert "Work.step" not in r.out  # a stack no sample landed in is not a row


@pytest.mark.parametrize("how", ["same-path", "copy", "link"])
def test_one_recording_twice_on_a_side_is_refused(run_cli, stacks, tmp_path, how) -> None:
    first = stacks["before"]
    if how == "same-path":
        again = first
    elif how == "copy":
        again = tmp_path / "copy.collapsed"
        shutil.copy(first, again)
    else:
        again = tmp_path / "link.collapsed"
        again.symlink_to(first)
    r = run_cli("profile", "diff", "--before", first, "--before", again, "--before", first,
                "--after", stacks["after"])  # fmt: skip
    line = _one_line(r)
    assert "--before" in line and "same recording" in line


def test_the_same_recording_on_both_sides_is_an_a_a_check(run_cli, stacks) -> None:
    r = run_cli("profile", "diff", "--before", stacks["before"], "--after", stacks["before"],
                "--format", "json")  # fmt: skip
    assert r.code == 0, r.err
