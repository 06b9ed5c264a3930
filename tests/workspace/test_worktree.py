from __future__ import annotations

import hashlib
import os
from pathlib import Path

import pytest

from perfproof.env.cache import cache_root as default_cache_dir
from perfproof.errors import InputError
from perfproof.process import Command, Watch, run
from perfproof.workspace.worktree import (
    ensure_worktree,
    is_clean,
    remove_worktree,
    reset_worktree,
    worktree_path,
)


def _git(repo: Path, *args: str) -> str:
    inherited = [k for k in os.environ if k.startswith("GIT_")]
    return run(
        Command(
            ["git", "-C", str(repo), *args], env={"GIT_OPTIONAL_LOCKS": "0"}, unset_env=inherited
        ),
        Watch(check=True, merge_stderr=False),
    ).output


def _snapshot(repo: Path) -> dict[str, str]:
    """Everything of the user's checkout perfproof must leave alone, as comparable text."""
    snap = {".git/index": hashlib.sha256((repo / ".git" / "index").read_bytes()).hexdigest()}
    for p in sorted(repo.rglob("*")):
        rel = p.relative_to(repo)
        if rel.parts[0] == ".git" or not p.is_file():
            continue
        snap[str(rel)] = hashlib.sha256(p.read_bytes()).hexdigest()
    snap["HEAD"] = (repo / ".git" / "HEAD").read_text()
    snap["refs"] = _git(repo, "for-each-ref", "--format=%(refname) %(objectname)")
    snap["stash"] = _git(repo, "stash", "list", "--format=%H %s")
    snap["status"] = _git(repo, "status", "--porcelain=v1", "--untracked-files=all")
    return snap


def _dirty(repo: Path) -> None:
    codes = repo / "core/src/main/java/wsfx/core/Codes.java"
    codes.write_text(codes.read_text() + "// stashed edit\n")
    _git(repo, "stash", "push", "-q", "-m", "user stash")
    codes.write_text(codes.read_text() + "// unstaged edit\n")
    pom = repo / "bench/pom.xml"
    pom.write_text(pom.read_text() + "<!-- staged -->\n")
    _git(repo, "add", "bench/pom.xml")
    pom.write_text(pom.read_text() + "<!-- and unstaged on top -->\n")
    (repo / "notes.txt").write_text("untracked user file\n")
    (repo / "core" / "scratch").mkdir()
    (repo / "core" / "scratch" / "Tmp.java").write_text("class Tmp {}\n")


def test_worktrees_leave_a_dirty_user_checkout_byte_identical(fresh_repo, tmp_path):
    repo = fresh_repo.path
    _dirty(repo)
    before = _snapshot(repo)
    assert (
        "MM bench/pom.xml" in before["status"]
    )  # staged, then changed again and "?? notes.txt" in before["status"]
    assert before["stash"].count("user stash") == 1

    cache = tmp_path / "cache"
    base = ensure_worktree(repo, fresh_repo.base, cache)
    head = ensure_worktree(repo, fresh_repo.head, cache)
    (base / "core/src/main/java/wsfx/core/Codes.java").write_text("changed in the cache\n")
    ensure_worktree(repo, fresh_repo.base, cache)
    ensure_worktree(repo, fresh_repo.head, cache, pristine=True)
    reset_worktree(base, fresh_repo.base)

    assert _snapshot(repo) == before
    assert _git(base, "rev-parse", "HEAD").strip() == fresh_repo.base
    assert _git(head, "rev-parse", "HEAD").strip() == fresh_repo.head
    assert "unstaged edit" not in (head / "core/src/main/java/wsfx/core/Codes.java").read_text()


def test_git_variables_of_a_hook_cannot_redirect_git_to_the_user_checkout(
    fresh_repo, tmp_path, monkeypatch
):
    repo = fresh_repo.path
    _dirty(repo)
    before = _snapshot(repo)
    monkeypatch.setenv("GIT_DIR", str(repo / ".git"))
    monkeypatch.setenv("GIT_WORK_TREE", str(repo))
    monkeypatch.setenv("GIT_INDEX_FILE", str(repo / ".git" / "index"))
    cache = tmp_path / "cache"
    wt = ensure_worktree(repo, fresh_repo.base, cache)
    (wt / "stray.txt").write_text("x")
    ensure_worktree(repo, fresh_repo.base, cache)
    reset_worktree(wt, fresh_repo.base)
    assert _snapshot(repo) == before
    assert _git(wt, "rev-parse", "HEAD").strip() == fresh_repo.base and is_clean(wt)


def test_worktree_is_detached_under_the_cache_and_reused(sample_repo, tmp_path):
    cache = tmp_path / "cache"
    wt = ensure_worktree(sample_repo.path, sample_repo.base, cache)
    assert wt == worktree_path(sample_repo.path, sample_repo.base, cache)
    assert wt.parent.parent == cache / "worktrees" and wt.name == sample_repo.base
    assert (cache / "CACHEDIR.TAG").read_text().startswith("Signature: 8a477f597d28d172")
    assert _git(wt, "rev-parse", "--abbrev-ref", "HEAD").strip() == "HEAD"  # detached
    ignored = wt / "core" / "target" / "kept.txt"
    ignored.parent.mkdir(parents=True)
    ignored.write_text("ignored build output survives a plain reuse")
    assert ensure_worktree(sample_repo.path, sample_repo.base, cache) == wt
    assert ignored.exists()
    ensure_worktree(sample_repo.path, sample_repo.base, cache, pristine=True)
    assert not ignored.exists()
    remove_worktree(sample_repo.path, wt)
    assert not wt.exists()


def test_dirty_worktree_is_reset_on_reuse(sample_repo, tmp_path):
    cache = tmp_path / "cache"
    wt = ensure_worktree(sample_repo.path, sample_repo.head, cache)
    (wt / "pom.xml").write_text("broken")
    (wt / "stray.txt").write_text("x")
    assert not is_clean(wt)
    assert ensure_worktree(sample_repo.path, sample_repo.head, cache) == wt
    assert is_clean(wt) and not (wt / "stray.txt").exists()
    assert (wt / "pom.xml").read_text().startswith("<project")


def test_deleted_worktree_folder_and_wiped_cache_are_recovered(sample_repo, tmp_path):
    import shutil

    cache = tmp_path / "cache"
    wt = ensure_worktree(sample_repo.path, sample_repo.base, cache)
    shutil.rmtree(wt)  # stale registration in .git/worktrees
    assert ensure_worktree(sample_repo.path, sample_repo.base, cache) == wt
    assert is_clean(wt)
    shutil.rmtree(cache)  # the whole cache wiped
    assert ensure_worktree(sample_repo.path, sample_repo.base, cache) == wt
    (wt / ".git").write_text("gitdir: /nowhere\n")  # a broken link, e.g. repository moved
    assert ensure_worktree(sample_repo.path, sample_repo.base, cache) == wt
    assert _git(wt, "rev-parse", "HEAD").strip() == sample_repo.base
    listing = _git(sample_repo.path, "worktree", "list", "--porcelain")
    assert "prunable" not in listing
    assert listing.count(str(wt)) == 1


def test_two_repositories_never_share_a_worktree(sample_repo, tmp_path):
    clone = tmp_path / "project"
    run(Command(["git", "clone", "-q", str(sample_repo.path), str(clone)]), Watch(check=True))
    cache = tmp_path / "cache"
    a = ensure_worktree(sample_repo.path, sample_repo.head, cache)
    b = ensure_worktree(clone, sample_repo.head, cache)
    assert a != b and a.name == b.name == sample_repo.head
    assert _git(b, "rev-parse", "--git-common-dir").strip() == str(clone / ".git")


def test_only_full_shas_and_only_cache_worktrees_are_accepted(sample_repo, tmp_path):
    with pytest.raises(InputError, match="full commit SHA"):
        ensure_worktree(sample_repo.path, "main", tmp_path)
    with pytest.raises(InputError, match="unknown ref"):
        ensure_worktree(sample_repo.path, "f" * 40, tmp_path)
    with pytest.raises(InputError, match="not a perfproof cache worktree"):
        reset_worktree(sample_repo.path, sample_repo.base)


def test_default_cache_follows_xdg_cache_home(monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert default_cache_dir() == tmp_path / "perfproof"
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/ignored")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert default_cache_dir() == tmp_path / "home" / ".cache" / "perfproof"
    monkeypatch.delenv("XDG_CACHE_HOME")
    assert default_cache_dir() == tmp_path / "home" / ".cache" / "perfproof"


def test_concurrent_callers_get_one_worktree(sample_repo, tmp_path):
    from concurrent.futures import ThreadPoolExecutor

    cache = tmp_path / "cache"
    with ThreadPoolExecutor(4) as pool:
        paths = list(
            pool.map(lambda _: ensure_worktree(sample_repo.path, sample_repo.head, cache), range(4))
        )
    assert len(set(paths)) == 1 and is_clean(paths[0])
    listing = _git(sample_repo.path, "worktree", "list", "--porcelain")
    assert listing.count(str(paths[0])) == 1
