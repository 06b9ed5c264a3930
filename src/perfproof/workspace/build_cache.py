"""Built artifacts kept by build key, so the same commit is not built twice.

An entry is a folder ``builds/<key>/`` holding ``artifact.json``, copies of every runnable
file that lived inside the worktree (the worktree may be reset or deleted later) and the
build's log. Dependencies outside the worktree (~/.m2, ~/.gradle) are referenced in place and
checked to still exist on every hit. An entry appears by renaming a finished folder into
place, so a crash mid-copy never leaves a half entry that a later run would trust.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from perfproof.errors import ExternalError, InputError
from perfproof.model.documents.machine_records import CachedBuild, read_record
from perfproof.storage import write_json_atomic
from perfproof.workspace.artifact import Artifact
from perfproof.workspace.plan import Outputs


def entry_dir(cache_dir: Path, key: str) -> Path:
    return Path(cache_dir) / "builds" / key


def load(cache_dir: Path, key: str) -> Artifact | None:
    """The cached artifact for ``key``, or None when absent or any of its files is gone."""
    folder = entry_dir(cache_dir, key)
    try:
        doc = read_record(CachedBuild, folder / "artifact.json")
    except (OSError, ValueError, InputError):
        return None
    artifact = Artifact(
        sha=doc.sha,
        kind=doc.kind,
        jar=_resolve(folder, doc.jar) if doc.jar else None,
        classpath=[_resolve(folder, p) for p in doc.classpath],
        build_command=list(doc.build_command),
        build_cwd=Path(doc.build_cwd),
        cached=True,
        log_path=folder / "build.log",
        key=key,
        overlaid=list(doc.overlaid),
        tool=doc.tool,
        own_run=doc.own_run,
    )
    if not all(p.is_file() or p.is_dir() for p in artifact.files()):
        return None
    return artifact


def store(cache_dir: Path, artifact: Artifact, outputs: Outputs, worktree: Path) -> Artifact:
    """Copy the build's outputs into a new entry for ``artifact.key``; return the cached view."""
    final = entry_dir(cache_dir, artifact.key)
    tmp = final.parent / f".{final.name}.{os.getpid()}.tmp"
    if tmp.exists():
        shutil.rmtree(tmp)
    (tmp / "files").mkdir(parents=True)
    copied: dict[Path, str] = {}

    def keep(p: Path) -> str:
        if p not in copied:
            copied[p] = _copy_in(tmp, worktree, p)
        return copied[p]

    jar = keep(outputs.jar) if outputs.jar is not None else None
    doc = CachedBuild(
        sha=artifact.sha,
        kind=artifact.kind,
        jar=jar,
        classpath=[keep(p) for p in outputs.classpath],
        build_command=list(artifact.build_command),
        build_cwd=str(artifact.build_cwd),
        overlaid=list(artifact.overlaid),
        tool=artifact.tool,
        own_run=artifact.own_run,
    )
    if artifact.log_path is not None and artifact.log_path.is_file():
        shutil.copyfile(artifact.log_path, tmp / "build.log")
    write_json_atomic(tmp / "artifact.json", doc.dump())
    if final.exists():
        old = final.parent / f".{final.name}.{os.getpid()}.old"
        os.replace(final, old)
        shutil.rmtree(old, ignore_errors=True)
    os.replace(tmp, final)
    loaded = load(cache_dir, artifact.key)
    if loaded is None:
        raise ExternalError(f"could not keep the build of {artifact.sha[:12]} in {final}")
    return loaded


def _copy_in(entry: Path, worktree: Path, path: Path) -> str:
    """Copy ``path`` into the entry when it lives in the worktree; return how to find it."""
    real, root = os.path.realpath(path), os.path.realpath(worktree)
    if not real.startswith(root + os.sep):
        return real
    rel = Path("files") / os.path.relpath(real, root)
    dst = entry / rel
    dst.parent.mkdir(parents=True, exist_ok=True)
    if os.path.isdir(real):
        shutil.copytree(real, dst, symlinks=False)
    else:
        shutil.copy2(real, dst)
    return str(rel)


def _resolve(folder: Path, stored: str) -> Path:
    p = Path(stored)
    return p if p.is_absolute() else folder / p
