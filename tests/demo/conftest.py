"""Fixtures for the demo tests: a private perfproof cache and tiny JMH settings."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest


@pytest.fixture(scope="session")
def demo_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The session's perfproof cache (shared with the run tests: same commits, same builds)."""
    return tmp_path_factory.getbasetemp() / "perfproof-cache"


@pytest.fixture
def tiny_demo(demo_cache: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The demo's own code path with settings small enough for a test (4 rounds, 0.1 s)."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(demo_cache))
    monkeypatch.setattr("perfproof.demo.run.DEMO_MAX_ROUNDS", 4)
    monkeypatch.setattr("perfproof.demo.run.DEMO_JMH_ARGS", "-wi 1 -w 100ms -i 2 -r 100ms")
    yield
