"""Fixtures for the Java source tests: the planted corpus, its markers, a private cache."""

from __future__ import annotations

import re
import shutil
from collections import defaultdict
from pathlib import Path

import pytest

CORPUS = Path(__file__).parent.parent / "fixtures" / "java" / "corpus"
_EXPECT = re.compile(r"// expect (\w+) (exact|likely)")
_FINDING = re.compile(r"// FINDING ([a-z-]+)")


@pytest.fixture(autouse=True)
def private_cache(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> Path:
    """Every test gets its own index cache, so none depends on another's leftovers."""
    cache = tmp_path_factory.mktemp("xdg-cache")
    monkeypatch.setenv("XDG_CACHE_HOME", str(cache))
    return cache


@pytest.fixture
def corpus() -> Path:
    return CORPUS


@pytest.fixture
def corpus_copy(tmp_path: Path) -> Path:
    """A writable copy of the corpus for tests that edit files."""
    target = tmp_path / "corpus"
    shutil.copytree(CORPUS, target)
    return target


def _markers(pattern: re.Pattern[str]) -> dict[str, set[tuple]]:
    found: dict[str, set[tuple]] = defaultdict(set)
    for path in sorted(CORPUS.rglob("*.java")):
        rel = path.relative_to(CORPUS).as_posix()
        for number, line in enumerate(path.read_text().splitlines(), start=1):
            for match in pattern.finditer(line):
                groups = match.groups()
                found[groups[0]].add((rel, number, *groups[1:]))
    return found


@pytest.fixture
def expected_sites() -> dict[str, set[tuple]]:
    """Target id -> {(file, line, confidence)} from the ``// expect`` markers."""
    return _markers(_EXPECT)


@pytest.fixture
def expected_findings() -> set[tuple]:
    """{(rule, file, line)} from the ``// FINDING`` markers."""
    return {(rule, f, line) for rule, rows in _markers(_FINDING).items() for f, line in rows}


@pytest.fixture
def write_java(tmp_path: Path):
    """Write Java files into a fresh repository: ``write_java({"a/B.java": src})``."""

    def _write(files: dict[str, str]) -> Path:
        repo = tmp_path / "repo"
        for rel, text in files.items():
            path = repo / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text)
        return repo

    return _write


def write_sources(root: Path, files: dict[str, str]) -> Path:
    """A small repository: each relative path with its text, folders made as needed."""
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return root
