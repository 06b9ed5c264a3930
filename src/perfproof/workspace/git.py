"""Read-only questions to git, asked the same hardened way every time.

Every git call perfproof makes goes through :func:`git`, which switches off hooks, automatic
gc and maintenance: a user's ``post-checkout`` hook (husky, LFS helpers, code generators) must
not run against their repository because perfproof created a worktree, and a background gc
must not rewrite their object store while they work.
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from pathlib import Path

from perfproof.errors import ExternalError, InputError
from perfproof.process import Command, ProcessResult, Watch, run

_HARDENING = (
    "-c",
    "core.hooksPath=/dev/null",
    "-c",
    "gc.auto=0",
    "-c",
    "maintenance.auto=false",
    "-c",
    "advice.detachedHead=false",
)

GIT_LOCAL_ENV = (
    "GIT_ALTERNATE_OBJECT_DIRECTORIES",
    "GIT_CONFIG",
    "GIT_CONFIG_PARAMETERS",
    "GIT_CONFIG_COUNT",
    "GIT_OBJECT_DIRECTORY",
    "GIT_DIR",
    "GIT_WORK_TREE",
    "GIT_IMPLICIT_WORK_TREE",
    "GIT_GRAFT_FILE",
    "GIT_INDEX_FILE",
    "GIT_NO_REPLACE_OBJECTS",
    "GIT_REPLACE_REF_BASE",
    "GIT_PREFIX",
    "GIT_INTERNAL_SUPER_PREFIX",
    "GIT_SHALLOW_FILE",
    "GIT_COMMON_DIR",
)
"""What ``git rev-parse --local-env-vars`` lists: set by a hook perfproof runs from, they would
point every git call (a ``reset --hard`` in a cache worktree included) at the user's repository
and index instead of the ``-C`` folder."""

_GIT_ENV = {"GIT_TERMINAL_PROMPT": "0", "LC_ALL": "C"}
"""Never ask for a password (a run must not hang on a prompt); messages in English, as read."""

_FULL_SHA = re.compile(r"^[0-9a-f]{40}([0-9a-f]{24})?$")


def git_argv(repo: Path, args: Sequence[str]) -> list[str]:
    """The exact argv perfproof uses to run ``git ARGS`` in ``repo``."""
    return ["git", *_HARDENING, "-C", str(repo), *args]


def git(
    repo: Path,
    *args: str,
    check: bool = True,
    what: str | None = None,
    log_path: Path | None = None,
) -> ProcessResult:
    """Run git in ``repo`` and return its result; stdout only in ``output``."""
    command = Command(git_argv(repo, args), env=_GIT_ENV, unset_env=GIT_LOCAL_ENV)
    return run(
        command, Watch(what=what or f"git {args[0]}", log=log_path, merge_stderr=False, check=check)
    )


def git_out(repo: Path, *args: str, what: str | None = None) -> str:
    """Stdout of a git command that must succeed, stripped."""
    return git(repo, *args, what=what).output.strip()


def require_repo(repo: Path) -> Path:
    """The top level of the git repository at ``repo``, or InputError naming it."""
    repo = Path(repo)
    if not repo.is_dir():
        raise InputError(f"repository folder does not exist: {repo}")
    res = git(repo, "rev-parse", "--show-toplevel", check=False)
    if not res.ok or not res.output.strip():
        raise InputError(f"not a git repository: {repo}")
    return Path(res.output.strip())


def common_git_dir(repo: Path) -> Path:
    """The repository's shared .git folder, the same from the main checkout and any worktree."""
    out = git_out(repo, "rev-parse", "--path-format=absolute", "--git-common-dir")
    return Path(os.path.realpath(out))


def is_linked_worktree(path: Path) -> bool:
    """True for a ``git worktree add`` checkout, False for a repository's main checkout."""
    res = git(
        path, "rev-parse", "--path-format=absolute", "--git-dir", "--git-common-dir", check=False
    )
    if not res.ok:
        return False
    lines = res.output.split()
    return len(lines) == 2 and os.path.realpath(lines[0]) != os.path.realpath(lines[1])


MERGE_BASE = "merge-base:"
"""Prefix of a ref spec naming the merge-base of a ref and HEAD (``merge-base:origin/main``)."""


def resolve_ref(repo: Path, ref: str) -> str:
    """The full commit SHA ``ref`` names in ``repo``.

    Done before any other work so that a typo in ``--base``/``--head`` costs nothing; a ref
    starting with ``-`` is refused rather than passed to git where it would read as an option.
    ``merge-base:REF`` names ``git merge-base REF HEAD``: what a pull request's change is
    measured against, so commits that landed on the target branch since it forked do not count.
    """
    top = require_repo(repo)
    if ref.startswith(MERGE_BASE):
        return merge_base(top, ref[len(MERGE_BASE) :])
    if not ref or ref.startswith("-") or "\n" in ref:
        raise InputError(f"unknown ref {ref!r} in {top}")
    res = git(
        top,
        "rev-parse",
        "--verify",
        "--quiet",
        "--end-of-options",
        f"{ref}^{{commit}}",
        check=False,
    )
    sha = res.output.strip()
    if not res.ok or not _FULL_SHA.match(sha):
        raise InputError(f"unknown ref {ref!r} in {top}")
    return sha


def merge_base(repo: Path, ref: str) -> str:
    """``git merge-base REF HEAD`` as a full SHA; an input error when there is none.

    A gate must never compare against nothing: an unknown REF, or a history without a common
    ancestor (often a shallow CI clone), stops here with the reason.
    """
    top = require_repo(repo)
    try:
        other = resolve_ref(top, ref)
    except InputError:
        raise InputError(f"{MERGE_BASE}{ref}: unknown ref {ref!r} in {top}") from None
    res = git(top, "merge-base", other, "HEAD", check=False)
    sha = res.output.strip()
    if not res.ok or not _FULL_SHA.match(sha):
        shallow = git(top, "rev-parse", "--is-shallow-repository", check=False).output.strip()
        hint = " (a shallow clone: fetch the full history)" if shallow == "true" else ""
        raise InputError(
            f"{MERGE_BASE}{ref}: {ref} and HEAD have no common ancestor in {top}{hint}"
        )
    return sha


def head_sha(worktree: Path) -> str:
    """The commit checked out in ``worktree``."""
    sha = git_out(worktree, "rev-parse", "--verify", "HEAD")
    if not _FULL_SHA.match(sha):
        raise ExternalError(f"git rev-parse HEAD gave {sha!r} in {worktree}")
    return sha
