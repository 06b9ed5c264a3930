"""Fixtures for the demo tests: the session's perfproof cache."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(scope="session")
def demo_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The session's perfproof cache (shared with the run tests: same commits, same builds)."""
    return tmp_path_factory.getbasetemp() / "perfproof-cache"
