"""--confidence and --threshold are written alike on every verb: 99%/0.99 and 1%/0.01."""

import sys

import pytest

from perfproof.errors import InputError
from perfproof.stats.verdict import parse_fraction


@pytest.mark.parametrize(
    ("text", "value"), [("1%", 0.01), ("0.01", 0.01), ("99%", 0.99), (" 0.5 ", 0.5)]
)
def test_parse_fraction_accepts_percent_and_fraction(text: str, value: float) -> None:
    assert parse_fraction("--threshold", text) == pytest.approx(value)


@pytest.mark.parametrize(("text", "fragment"), [("1", "ambiguous"), ("abc", "not a number")])
def test_parse_fraction_refuses_ambiguous_and_junk(text: str, fragment: str) -> None:
    with pytest.raises(InputError, match=fragment) as info:
        parse_fraction("--threshold", text)
    assert str(info.value).startswith(f"--threshold {text}:")


def _e2e(run_cli, tmp_path, *extra: str):
    cmd = f"{sys.executable} -c print(5)"
    return run_cli(
        "e2e", "--base-cmd", cmd, "--head-cmd", cmd, "--metric", r"t=(\d+)",
        "--runs", "2", "--runs-dir", str(tmp_path / "runs"), *extra,
    )  # fmt: skip


def test_e2e_threshold_is_spelled_like_compare(run_cli, tmp_path) -> None:
    res = _e2e(run_cli, tmp_path, "--threshold", "1")
    assert res.code == 2
    assert res.err.strip() == "perfproof: error: --threshold 1: ambiguous, write 1% or 0.01"
    res = _e2e(run_cli, tmp_path, "--threshold", "2%", "--confidence", "95%", "--format", "json")
    assert res.code == 0, res.err
    assert "--confidence 0.95 --threshold 2%" in res.out


def test_confidence_out_of_range_names_flag_and_value(run_cli, tmp_path) -> None:
    res = _e2e(run_cli, tmp_path, "--confidence", "0")
    assert res.code == 2
    assert "--confidence 0: must be in [0.5, 1)" in res.err
