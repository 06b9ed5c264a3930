"""``--base merge-base:REF`` is ``git merge-base REF HEAD``, resolved by the one ref resolver so
``ab``, ``guard`` and ``e2e`` all get it; a base that does not resolve is exit 2, never a pass."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from perfproof.errors import InputError
from perfproof.workspace.git import resolve_ref

ENV = {
    **os.environ,
    "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.invalid",
    "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.invalid",
    "GIT_CONFIG_GLOBAL": "/dev/null", "GIT_CONFIG_NOSYSTEM": "1",
}  # fmt: skip


def _git(repo: Path, *args: str) -> str:
    out = subprocess.run(["git", "-C", str(repo), *args], env=ENV, check=True, capture_output=True)
    return out.stdout.decode().strip()


@pytest.fixture
def forked_repo(tmp_path: Path) -> dict[str, str | Path]:
    """main: A─B─C; feature forked at B: B─F (checked out). The merge-base of main is B."""
    repo = tmp_path / "repo"
    repo.mkdir()
    _git(repo, "init", "-q", "-b", "main")
    shas = {}
    for name in ("A", "B"):
        (repo / "f.txt").write_text(name)
        _git(repo, "add", "f.txt")
        _git(repo, "commit", "-q", "-m", name)
        shas[name] = _git(repo, "rev-parse", "HEAD")
    _git(repo, "checkout", "-q", "-b", "feature")
    (repo / "g.txt").write_text("F")
    _git(repo, "add", "g.txt")
    _git(repo, "commit", "-q", "-m", "F")
    shas["F"] = _git(repo, "rev-parse", "HEAD")
    _git(repo, "checkout", "-q", "main")
    (repo / "f.txt").write_text("C")
    _git(repo, "commit", "-q", "-am", "C")
    shas["C"] = _git(repo, "rev-parse", "HEAD")
    _git(repo, "checkout", "-q", "feature")
    return {"repo": repo, **shas}


def test_merge_base_resolves_against_head(forked_repo):
    repo = forked_repo["repo"]
    assert resolve_ref(repo, "merge-base:main") == forked_repo["B"]
    assert resolve_ref(repo, "main") == forked_repo["C"]  # not the target's tip
    assert _git(repo, "status", "--porcelain") == ""  # the user's tree is untouched


def test_unresolvable_merge_base_is_an_input_error(forked_repo, tmp_path):
    repo = forked_repo["repo"]
    with pytest.raises(InputError, match="merge-base:origin/main: unknown ref 'origin/main'"):
        resolve_ref(repo, "merge-base:origin/main")
    orphan = tmp_path / "orphan"
    orphan.mkdir()
    _git(orphan, "init", "-q", "-b", "main")
    (orphan / "x").write_text("x")
    _git(orphan, "add", "x")
    _git(orphan, "commit", "-q", "-m", "x")
    _git(orphan, "fetch", "-q", str(repo), "feature:other")
    with pytest.raises(InputError, match="no common ancestor"):
        resolve_ref(orphan, "merge-base:other")


@pytest.mark.parametrize(
    "verb",
    [
        ("ab", "--head", "HEAD"),
        ("guard", "--head", "HEAD", "--bench", "X"),
        ("e2e", "--head", "HEAD", "--run", "echo took 1 ms", "--metric", r"t[ms]=took (\d+) ms"),
    ],
)
def test_every_gate_verb_exits_2_on_an_unresolvable_base(verb, forked_repo, run_cli):
    result = run_cli(verb[0], "--repo", forked_repo["repo"], "--base", "merge-base:nope", *verb[1:])
    assert result.code == 2
    lines = result.err.strip().splitlines()
    assert len(lines) == 1 and "merge-base:nope" in lines[0], result.err


def test_e2e_manifest_records_the_spec_and_the_sha(forked_repo, run_cli, tmp_path):
    repo = forked_repo["repo"]
    result = run_cli(
        "e2e", "--repo", repo, "--base", "merge-base:main", "--head", "HEAD",
        "--run", "echo took 1 ms", "--metric", r"t[ms]=took (\d+) ms", "--runs", "2",
        "--warmup-runs", "0", "--runs-dir", tmp_path / "runs",
        "--format", "json",
    )  # fmt: skip
    assert result.code == 0, result.err
    (manifest,) = (tmp_path / "runs").glob("*/manifest.json")
    text = json.loads(manifest.read_text())
    found = json.dumps(text)
    assert "merge-base:main" in found and forked_repo["B"] in found
    assert forked_repo["C"] not in found
