"""Fixtures for the export tests: the real Go tools, found where ``go install`` puts them."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest


def go_tool(name: str) -> str:
    """Path of a ``go install``-ed tool; skip without it, but fail in CI (``CI=true``)."""
    found = shutil.which(name)
    if found is None:
        gopath = os.environ.get("GOPATH")
        if not gopath and shutil.which("go"):
            gopath = subprocess.run(
                ["go", "env", "GOPATH"], capture_output=True, text=True, check=False
            ).stdout.strip()
        candidate = Path(gopath or Path.home() / "go") / "bin" / name
        found = str(candidate) if candidate.is_file() else None
    if found is None:
        message = f"{name} not found (.ci/install-go-tools installs it)"
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(message)
        pytest.skip(message)
    return found
