"""One detached git worktree per commit, inside perfproof's cache.

Building a commit needs a checkout of it, and the user's own checkout is off limits (it may hold
uncommitted work, a half-done rebase, a stash). ``git worktree add --detach`` gives a second
checkout that shares the object store, costs no clone and never moves the user's HEAD, index,
branches or stash. The only trace in the repository is git's own bookkeeping under
``.git/worktrees/``, which git expects and prunes; stale entries that point into perfproof's
cache are removed one by one (never with a blanket ``git worktree prune``, which would also
forget the user's own worktrees on an unmounted disk).
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from perfproof.env.cache import cache_root
from perfproof.errors import InputError
from perfproof.workspace.cache import file_lock, short_hash
from perfproof.workspace.git import (
    common_git_dir,
    git,
    git_out,
    head_sha,
    is_linked_worktree,
    require_repo,
    resolve_ref,
)

CACHEDIR_TAG = (
    "Signature: 8a477f597d28d172789f06886806bc55\n"
    "# This folder is a cache made by perfproof (git worktrees and built jars).\n"
    "# It can be deleted at any time; perfproof recreates what it needs.\n"
)


def repo_key(repo: Path) -> str:
    """A readable, collision-free folder name for a repository.

    Keyed on the real path of the shared .git folder, so the main checkout and any of its
    worktrees map to the same key and two clones of one project never share worktrees.
    """
    top = require_repo(repo)
    common = common_git_dir(top)
    name = "".join(c if c.isalnum() or c in "-_." else "_" for c in top.name)[:40] or "repo"
    return f"{name}-{short_hash(str(common), length=12)}"


def worktree_path(repo: Path, sha: str, cache_dir: Path | None = None) -> Path:
    """Where the worktree for ``sha`` of ``repo`` lives (whether or not it exists yet)."""
    return cache_root(cache_dir) / "worktrees" / repo_key(repo) / sha


def overlay_record_path(worktree: Path) -> Path:
    """The file beside a worktree that records an overlay applied to it (read by the builds)."""
    return worktree.parent / f"{worktree.name}.overlay.json"


def last_build_record(worktree: Path) -> Path:
    """The file beside a worktree naming the key of the last build started in it (gone once
    anything else has built in it, such as the project's tests)."""
    return worktree.parent / f"{worktree.name}.build"


def ensure_worktree(
    repo: Path,
    sha: str,
    cache_dir: Path | None = None,
    *,
    pristine: bool = False,
) -> Path:
    """A checkout of ``sha`` in the cache, created once and reused while it stays clean.

    A reused worktree whose files were changed (an overlay, an interrupted build that wrote
    into the tree) is reset to ``sha`` and cleaned first; ``pristine`` also cleans a clean one,
    removing ignored build output, for a build that must start from nothing.
    """
    top = require_repo(repo)
    if resolve_ref(top, sha) != sha:
        raise InputError(f"expected a full commit SHA, got {sha!r} in {top}")
    root = cache_root(cache_dir)
    _tag_cache(root)
    key = repo_key(top)
    path = root / "worktrees" / key / sha
    with file_lock(root / "worktrees" / f"{key}.lock"):
        _forget_missing_worktrees(top, root / "worktrees" / key)
        if path.exists() and not _is_worktree_of(path, top):
            shutil.rmtree(path)
        if path.exists():
            overlay_record_path(path).unlink(missing_ok=True)
            if pristine or head_sha(path) != sha or not is_clean(path):
                _reset(path, sha)
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            git(
                top,
                "worktree",
                "add",
                "--detach",
                "--force",
                str(path),
                sha,
                what=f"git worktree add for {sha[:12]}",
            )
    return path


def reset_worktree(worktree: Path, sha: str) -> None:
    """Reset a cache worktree to ``sha`` and delete every untracked and ignored file in it.

    Refuses anything that is not a linked worktree inside a perfproof cache, so a wrong path
    can never make this wipe a user's checkout.
    """
    worktree = Path(worktree)
    _require_cache_worktree(worktree)
    overlay_record_path(worktree).unlink(missing_ok=True)
    _reset(worktree, sha)


def remove_build_output(worktree: Path) -> bool:
    """Delete the ignored files of a cache worktree (a build's output), keeping an overlay;
    False, and nothing deleted, for a folder that is not a perfproof cache worktree."""
    try:
        _require_cache_worktree(Path(worktree))
    except InputError:
        return False
    git(worktree, "clean", "-ffdqX")
    return True


def has_build_output(worktree: Path) -> bool:
    """Whether the worktree holds ignored files (``target/``, ``build/``: a build's output)."""
    out = git(worktree, "ls-files", "--others", "--ignored", "--exclude-standard", "--directory")
    return bool(out.output.strip())


def is_clean(worktree: Path) -> bool:
    """No modified, staged or untracked (non-ignored) file in ``worktree``."""
    out = git(worktree, "status", "--porcelain=v1", "--untracked-files=all").output
    return not out.strip()


def remove_worktree(repo: Path, worktree: Path) -> None:
    """Delete a cache worktree and git's record of it."""
    _require_cache_worktree(worktree)
    git(require_repo(repo), "worktree", "remove", "--force", str(worktree))


def _reset(path: Path, sha: str) -> None:
    git(path, "reset", "--quiet", "--hard", sha)
    git(path, "clean", "-ffdqx")


def _tag_cache(root: Path) -> None:
    tag = root / "CACHEDIR.TAG"
    if not tag.exists():
        root.mkdir(parents=True, exist_ok=True)
        tag.write_text(CACHEDIR_TAG, encoding="utf-8")


def _require_cache_worktree(worktree: Path) -> None:
    cache_root = worktree.parent.parent.parent
    if (
        worktree.parent.parent.name != "worktrees"
        or not (cache_root / "CACHEDIR.TAG").is_file()
        or not is_linked_worktree(worktree)
    ):
        raise InputError(f"not a perfproof cache worktree: {worktree}")


def _is_worktree_of(path: Path, top: Path) -> bool:
    """``path`` is a healthy linked worktree of the repository at ``top``."""
    if not (path / ".git").is_file() or not is_linked_worktree(path):
        return False
    res = git(path, "rev-parse", "--path-format=absolute", "--git-common-dir", check=False)
    return res.ok and os.path.realpath(res.output.strip()) == str(common_git_dir(top))


def _forget_missing_worktrees(top: Path, under: Path) -> None:
    """Drop git's records of cache worktrees whose folders were deleted (e.g. cache wiped)."""
    listing = git_out(top, "worktree", "list", "--porcelain")
    prefix = os.path.realpath(under) + os.sep
    for line in listing.splitlines():
        if not line.startswith("worktree "):
            continue
        wt = line[len("worktree ") :]
        if os.path.realpath(wt).startswith(prefix) and not os.path.exists(wt):
            git(top, "worktree", "remove", "--force", wt, check=False)
