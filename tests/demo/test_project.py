"""The embedded sample project and the repository the demo writes from it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from perfproof.demo.project import TAGS, layer_patch, project_files, write_demo_repo
from perfproof.errors import InputError
from perfproof.process import Command, Watch, run


def git(repo: Path, *args: str) -> str:
    return run(
        Command(["git", *args], cwd=repo), Watch(check=True, merge_stderr=False)
    ).output.strip()


def test_layers_hold_a_maven_jmh_project_and_its_changes() -> None:
    base = project_files("baseline")
    assert "pom.xml" in base and b"<jmh.version>1.37</jmh.version>" in base["pom.xml"]
    assert {p for p in base if p.endswith("Bench.java")} == {
        "src/main/java/perfdemo/bench/ErrorReporterBench.java",
        "src/main/java/perfdemo/bench/EventBusBench.java",
    }
    assert (
        b"Map<Short, Integer> counts = new HashMap"
        in base["src/main/java/perfdemo/ErrorReporter.java"]
    )
    assert b".stream()" in base["src/main/java/perfdemo/EventBus.java"]
    assert project_files("feature") == {}  # only what it changes, as a patch
    patch = layer_patch("feature")
    assert patch is not None
    assert re.findall(r"^\+\+\+ b/(\S+)$", patch, re.MULTILINE) == [
        "src/main/java/perfdemo/ErrorReporter.java",
        "src/main/java/perfdemo/EventBus.java",
    ]
    assert "+        if (listeners.isEmpty()) {" in patch.splitlines()
    assert set(project_files("docs")) == {"README.md"}
    assert layer_patch("baseline") is None and layer_patch("docs") is None


def test_repo_has_three_tagged_commits_with_the_expected_changes(tmp_path: Path) -> None:
    repo = write_demo_repo(tmp_path / "p")
    assert list(repo.shas) == list(TAGS)
    assert git(repo.path, "rev-list", "--count", "HEAD") == "3"
    for tag, sha in repo.shas.items():
        assert git(repo.path, "rev-parse", f"{tag}^{{commit}}") == sha
    changed = git(repo.path, "diff", "--name-only", "feature", "docs-only")
    assert changed == "README.md"  # the A/A control changes no code
    code = git(repo.path, "diff", "--name-only", "baseline", "feature").splitlines()
    assert code == [
        "src/main/java/perfdemo/ErrorReporter.java",
        "src/main/java/perfdemo/EventBus.java",
    ]
    reporter = git(repo.path, "show", "feature:src/main/java/perfdemo/ErrorReporter.java")
    assert "HashMap" not in reporter and "counts[index]++;" in reporter
    bus = git(repo.path, "show", "feature:src/main/java/perfdemo/EventBus.java")
    assert "listeners.isEmpty()" in bus and ".stream()" not in bus
    assert git(repo.path, "status", "--porcelain") == ""
    assert (repo.path / ".gitignore").read_text() == "target/\n"


def test_commits_are_the_same_everywhere(tmp_path: Path) -> None:
    """Fixed authors and dates: the same SHAs on every machine, so builds are cache hits."""
    a = write_demo_repo(tmp_path / "a")
    b = write_demo_repo(tmp_path / "b")
    assert a.shas == b.shas


def test_refuses_a_non_empty_destination(tmp_path: Path) -> None:
    (tmp_path / "x").mkdir()
    (tmp_path / "x" / "keep.txt").write_text("mine")
    with pytest.raises(InputError, match="not empty"):
        write_demo_repo(tmp_path / "x")
    assert (tmp_path / "x" / "keep.txt").read_text() == "mine"
