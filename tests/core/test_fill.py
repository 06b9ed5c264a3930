"""A verb's typed options filled from its parsed flags by field name, in one place."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest

from perfproof.cli.flag import fill
from perfproof.cli.history import Selection, selection
from perfproof.cli.hunt import command as hunt_command
from perfproof.cli.hunt import hunt_request
from perfproof.pipeline.hunt.start import HuntRequest


@dataclass(frozen=True)
class _Options:
    name: str
    count: int = 1
    label: str = "unset"


def test_each_field_takes_the_flag_of_its_name_and_computed_values_win() -> None:
    params = {"name": "a", "count": 3, "label": "flag", "other": "ignored"}
    assert fill(_Options, params, label="computed") == _Options("a", 3, "computed")


def test_a_field_no_flag_fills_is_refused_never_a_silent_default() -> None:
    with pytest.raises(TypeError, match="no flag or value for count, label"):
        fill(_Options, {"name": "a"})
    with pytest.raises(TypeError, match="_Options has no field nmae"):
        fill(_Options, {"name": "a", "count": 1, "label": "x"}, nmae="typo")


def test_hunt_request_holds_what_its_flags_say() -> None:
    argv = ["--repo", "r", "--ref", "v1", "--base", "v0", "--bench", "B", "--forks", "3",
            "--overlay", "src/B.java", "--lock-timeout", "7", "--module", "m",
            "--build-arg", "-Pq"]  # fmt: skip
    ctx = hunt_command.make_context("hunt", argv)
    req = hunt_request({k: v for k, v in ctx.params.items() if k not in ("fmt", "top")})
    assert (req.repo, req.ref, req.base, req.bench) == (Path("r"), "v1", "v0", ("B",))
    assert (req.forks, req.overlay, req.lock_timeout) == (3, ("src/B.java",), 7.0)
    assert (req.build.module, req.build.build_args) == ("m", ("-Pq",))
    assert req.run is None and req.jfr == () and req.out is None
    assert req.jmh_args == HuntRequest().jmh_args  # the defaults when --jmh-args is not given


def test_history_selection_checks_the_machine_and_fills_the_rest() -> None:
    params = {"db": "h.db", "out": None, "fmt": "table", "confidence": 0.9, "bench": "B",
              "metrics": ["primary"], "branch": None, "commit_url": None,
              "machine": "ci-large"}  # fmt: skip
    assert selection(params) == Selection(
        "h.db", None, "table", 0.9, "B", ("primary",), None, None, "ci-large"
    )
