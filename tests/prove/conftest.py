"""Fixtures for the prove tests: a private perfproof cache and small git repositories."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from pydantic import BaseModel

from perfproof.model.documents.compare import SCHEMA, CompareDocument
from perfproof.model.documents.compare_wire import ComparisonDoc

_GIT_ENV = {
    "GIT_AUTHOR_NAME": "t",
    "GIT_AUTHOR_EMAIL": "t@t.invalid",
    "GIT_COMMITTER_NAME": "t",
    "GIT_COMMITTER_EMAIL": "t@t.invalid",
    "GIT_CONFIG_GLOBAL": "/dev/null",
    "GIT_CONFIG_NOSYSTEM": "1",
    "PATH": "/usr/bin:/bin",
}


@pytest.fixture
def prove_cache(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The session's perfproof cache, shared with the demo tests (same commits, same builds)."""
    cache = tmp_path_factory.getbasetemp() / "perfproof-cache"
    monkeypatch.setenv("XDG_CACHE_HOME", str(cache))
    return cache


def commit(repo: Path, files: dict[str, str | None], message: str = "c") -> str:
    """Write (None: delete) files in ``repo`` (created on first use), commit, return the SHA."""
    if not (repo / ".git").exists():
        repo.mkdir(parents=True, exist_ok=True)
        subprocess.run(["git", "init", "-q", str(repo)], check=True, env=_GIT_ENV)
    for rel, text in files.items():
        path = repo / rel
        if text is None:
            path.unlink()
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    git = ["git", "-C", str(repo)]
    subprocess.run([*git, "add", "-A"], check=True, env=_GIT_ENV)
    subprocess.run([*git, "commit", "-qm", message], check=True, env=_GIT_ENV)
    out = subprocess.run([*git, "rev-parse", "HEAD"], check=True, env=_GIT_ENV, capture_output=True)
    return out.stdout.decode().strip()


def round_trip(value: BaseModel) -> BaseModel:
    """A stage result written as prove.json keeps it and read back."""
    text = json.dumps(value.model_dump(mode="json", by_alias=True))
    return type(value).model_validate(json.loads(text))


def compare_doc(rows: list[dict]) -> CompareDocument:
    """A results document of the given rows (benchmark, metric, verdict, …), the fields they
    leave out filled with a neutral value."""
    filled = [{"mode": "avgt", "base": {}, "head": {}, "ratio": 1.0, "ratio_ci": [1.0, 1.0], **r}
              for r in rows]  # fmt: skip
    doc = {"schema": SCHEMA, "confidence": 0.95, "threshold": 0.02, "comparisons": filled}
    return CompareDocument.read(doc, "results.json")


def wire_row(**fields: object) -> ComparisonDoc:
    """One comparison of a results.json as written (benchmark, verdict, …), the fields left
    out filled with a neutral value."""
    row = {"benchmark": "b", "mode": "avgt", "base": {}, "head": {}, "ratio": 1.0,
           "ratio_ci": [1.0, 1.0], "verdict": "same", **fields}  # fmt: skip
    return ComparisonDoc.model_validate(row)
