"""Shared test fixtures: paths to the recorded JMH outputs and an in-process CLI runner."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from perfproof.cli import main

FIXTURES = Path(__file__).parent / "fixtures"


@dataclass
class CliResult:
    code: int
    out: str
    err: str


@pytest.fixture
def fixtures_dir() -> Path:
    return FIXTURES


@pytest.fixture
def run_cli(capsys: pytest.CaptureFixture[str]) -> Callable[..., CliResult]:
    """Run ``perfproof ARGS`` in-process and return its exit code, stdout and stderr."""

    def _run(*args: str) -> CliResult:
        capsys.readouterr()
        code = main([str(a) for a in args])
        captured = capsys.readouterr()
        return CliResult(code, captured.out, captured.err)

    return _run
