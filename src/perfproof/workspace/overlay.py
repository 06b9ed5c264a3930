"""Copy benchmark sources from one worktree onto another (the regression-guard pattern).

A feature often adds the benchmark that shows its gain; to measure the old code with the new
benchmark, the benchmark sources of the head commit are copied onto the baseline worktree before
it is built. Only files git tracks at the head commit are copied, so build output lying in the
head worktree never leaks across. Files are copied, never deleted: a path's other files on the
baseline side stay as they are.

Every overlay is recorded beside the worktree with a content hash per file; the build cache
key includes that record, so an overlaid baseline is never mistaken for the clean one.
"""

from __future__ import annotations

import hashlib
import os
import shutil
from collections.abc import Sequence
from pathlib import Path, PurePosixPath

from perfproof.errors import InputError
from perfproof.model.documents.machine_records import OverlayRecord, read_record
from perfproof.storage import write_json_atomic
from perfproof.workspace.cache import short_hash
from perfproof.workspace.git import git, head_sha
from perfproof.workspace.worktree import overlay_record_path


def apply_overlay(src_worktree: Path, dst_worktree: Path, paths: Sequence[str]) -> list[str]:
    """Copy ``paths`` (files or folders, relative to the worktree root) from src onto dst.

    Returns the relative paths of the files copied, sorted, for the run manifest.
    """
    src_worktree, dst_worktree = Path(src_worktree), Path(dst_worktree)
    files: list[str] = []
    for raw in paths:
        rel = _check_relative(raw)
        tracked = _tracked_files(src_worktree, rel)
        if not tracked:
            if (src_worktree / rel).exists():
                raise InputError(
                    f"overlay path {raw!r} holds no file tracked by git in {src_worktree}"
                )
            raise InputError(f"overlay path {raw!r} does not exist in {src_worktree}")
        files.extend(tracked)
    files = sorted(set(files))
    if os.path.realpath(src_worktree) == os.path.realpath(dst_worktree):
        return files
    for rel in files:
        _copy_one(src_worktree / rel, dst_worktree / rel)
    _record(src_worktree, dst_worktree, files)
    return files


def overlay_fingerprint(worktree: Path) -> str:
    """A hash of the overlay applied to ``worktree``, or "" when it holds none."""
    record = overlay_record_path(Path(worktree))
    if not record.is_file():
        return ""
    items = sorted(read_record(OverlayRecord, record).files.items())
    return short_hash(*(f"{k}\0{v}" for k, v in items))


def overlaid_files(worktree: Path) -> list[str]:
    """The files overlaid onto ``worktree`` since it was last made clean."""
    record = overlay_record_path(Path(worktree))
    if not record.is_file():
        return []
    return sorted(read_record(OverlayRecord, record).files)


def _check_relative(raw: str) -> str:
    p = PurePosixPath(str(raw).replace(os.sep, "/"))
    if not str(raw).strip() or p.is_absolute() or ".." in p.parts or p.parts[:1] == (".git",):
        raise InputError(f"overlay path {raw!r} must be relative to the repository root")
    return str(p)


def _tracked_files(worktree: Path, rel: str) -> list[str]:
    out = git(worktree, "ls-files", "-z", "--full-name", "--", f":(literal){rel}").output
    return [f for f in out.split("\0") if f]


def _copy_one(src: Path, dst: Path) -> None:
    dst.parent.mkdir(parents=True, exist_ok=True)
    if dst.is_symlink() or (dst.exists() and not dst.is_dir()):
        dst.unlink()
    elif dst.is_dir():
        shutil.rmtree(dst)
    if src.is_symlink():
        os.symlink(os.readlink(src), dst)
    else:
        shutil.copy2(src, dst)


def _digest(path: Path) -> str:
    if path.is_symlink():
        return "link:" + os.readlink(path)
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _record(src_worktree: Path, dst_worktree: Path, files: list[str]) -> None:
    record = overlay_record_path(dst_worktree)
    doc = OverlayRecord(source_sha=head_sha(src_worktree))
    if record.is_file():
        doc = read_record(OverlayRecord, record)
    doc.files.update({rel: _digest(dst_worktree / rel) for rel in files})
    write_json_atomic(record, doc.dump())


def check_overlay_paths(repo: Path, sha: str, paths: Sequence[str], label: str) -> None:
    """Refuse an overlay path that holds no tracked file in commit ``sha`` (named ``label``),
    before any worktree, build or run folder exists: :func:`apply_overlay` would find the same
    mistake only after the run folder was made."""
    for raw in paths:
        rel = _check_relative(raw)
        listed = git(Path(repo), "ls-tree", "-r", "--name-only", sha, "--", rel).output.strip()
        if not listed:
            raise InputError(f"--overlay {raw!r}: no file tracked by git there in {label}")
