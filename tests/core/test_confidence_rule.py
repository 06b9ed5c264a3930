"""One rule for --confidence and --threshold: the same range and message on every verb and layer.

A confidence level is accepted in [0.5, 1) and a practical threshold in [0, 1); the flag (click
type) and the library (a resumed run's settings, a caller of the Python API) refuse a value with
the same one line, because both call :func:`perfproof.stats.verdict.check_confidence`.
"""

from __future__ import annotations

import importlib
import math
import sys

import click
import pytest

from perfproof.cli import VERBS
from perfproof.cli.options import CONFIDENCE, THRESHOLD
from perfproof.compare import CompareOptions
from perfproof.compare.sequential import SequentialDesign
from perfproof.errors import InputError
from perfproof.pipeline.e2e.options import E2EOptions, validate
from perfproof.pipeline.guard.judge import check_settings
from perfproof.stats.sequential import Schedule
from perfproof.stats.verdict import check_confidence, check_threshold


def _commands() -> list[tuple[str, click.Command]]:
    """Every verb and sub-verb of the CLI, as click commands, with its spelled-out name."""
    found: list[tuple[str, click.Command]] = []

    def walk(name: str, cmd: click.Command) -> None:
        found.append((name, cmd))
        if isinstance(cmd, click.Group):
            for sub_name, sub in cmd.commands.items():
                walk(f"{name} {sub_name}", sub)

    for verb, module in VERBS.items():
        walk(verb, importlib.import_module(f"perfproof.cli.{module}").command)
    return found


def _options(flag: str) -> list[tuple[str, click.Option]]:
    return [
        (name, p)
        for name, cmd in _commands()
        for p in cmd.params
        if isinstance(p, click.Option) and flag in p.opts
    ]


@pytest.mark.parametrize(
    ("flag", "kind"), [("--confidence", CONFIDENCE), ("--threshold", THRESHOLD)]
)
def test_every_verb_uses_the_one_click_type(flag: str, kind: click.ParamType) -> None:
    options = _options(flag)
    verbs = {name for name, _ in options}
    assert {"compare", "e2e"} <= verbs  # the scan sees the verbs that have the flag
    wrong = [name for name, opt in options if opt.type is not kind]
    assert not wrong, f"{flag} not of the shared type in: {wrong}"


@pytest.mark.parametrize("value", [0.5, 0.9, 0.95, 0.99, 0.999])
def test_confidence_accepted(value: float) -> None:
    assert check_confidence(value) == value


@pytest.mark.parametrize("value", [0.0, 0.05, 0.4999, 1.0, 1.5, -0.99, math.nan, math.inf])
def test_confidence_refused_with_one_line(value: float) -> None:
    with pytest.raises(InputError) as info:
        check_confidence(value)
    assert str(info.value) == f"--confidence {value:g}: must be in [0.5, 1), e.g. 99% or 0.99"


@pytest.mark.parametrize("value", [1.0, 1.5, -0.01, math.nan])
def test_threshold_refused(value: float) -> None:
    with pytest.raises(InputError, match=r"^--threshold .*: must be in \[0, 1\)"):
        check_threshold(value)
    assert check_threshold(0.0) == 0.0 and check_threshold(0.99) == 0.99


def test_library_layers_refuse_like_the_flag() -> None:
    """α typed for the confidence (0.05) is refused by every layer with the flag's message."""
    message = r"^--confidence 0\.05: must be in \[0\.5, 1\)"
    with pytest.raises(InputError, match=message):
        CompareOptions(confidence=0.05)
    with pytest.raises(InputError, match=message):
        SequentialDesign(Schedule(3, 3), CompareOptions(confidence=0.05))
    with pytest.raises(InputError, match=message):
        check_settings(1.0, 0.05)
    with pytest.raises(InputError, match=message):
        validate(E2EOptions(metrics=("t=t=([0-9.]+)",), confidence=0.05))
    with pytest.raises(InputError, match=r"^--threshold 150%: must be in \[0, 1\)"):
        validate(E2EOptions(metrics=("t=t=([0-9.]+)",), threshold_pct=150.0))


@pytest.mark.parametrize("typed", ["5%", "0.3", "nan", "100%"])
def test_compare_and_e2e_refuse_the_same_confidence(run_cli, fixtures_dir, tmp_path, typed) -> None:
    good = fixtures_dir / "jmh" / "jmh-1.37-allmodes-gc.json"
    cmd = f"{sys.executable} -c print(5)"
    compare = run_cli("compare", good, good, "--confidence", typed)
    e2e = run_cli(
        "e2e", "--base-cmd", cmd, "--head-cmd", cmd, "--metric", r"t=(\d+)", "--runs", "2",
        "--runs-dir", str(tmp_path / "runs"), "--confidence", typed,
    )  # fmt: skip
    expected = f"perfproof: error: --confidence {typed}: must be in [0.5, 1), e.g. 99% or 0.99\n"
    assert (compare.code, compare.err) == (2, expected)
    assert (e2e.code, e2e.err) == (2, expected)
    assert not (tmp_path / "runs").exists()  # refused before any work
