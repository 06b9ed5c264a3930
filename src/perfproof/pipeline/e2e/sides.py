"""Refs → worktrees → builds: where each side of ``perfproof e2e`` runs its command.

End-to-end commands run applications, not JMH jars, so the build here makes the application
as the project's own build does — ``--build maven`` (``package``, never ``install``),
``--build gradle`` (``assemble`` through the wrapper) or the user's ``--build-cmd`` — in each
side's worktree; what it produces is up to the command that follows. Refs are resolved before
anything is checked out or created, so a typo costs nothing.
"""

from __future__ import annotations

from pathlib import Path

from perfproof.errors import InputError
from perfproof.model.documents.run import PreparedSide
from perfproof.process import Command, Watch, run
from perfproof.workspace import build_gradle, build_maven
from perfproof.workspace.git import resolve_ref
from perfproof.workspace.worktree import ensure_worktree


def resolve_refs(repo: Path, base_ref: str, head_ref: str) -> dict[str, str]:
    """Full SHAs of both refs (InputError naming the ref that does not resolve)."""
    return {"base": resolve_ref(repo, base_ref), "head": resolve_ref(repo, head_ref)}


def tool_build_argv(kind: str, module: str | None, worktree: Path) -> tuple[str, ...]:
    """The build command of ``--build maven|gradle`` for one worktree (the workspace's Maven
    and Gradle adapters decide the launcher and the module selection, as for ``ab``)."""
    if kind == "maven":
        return tuple(build_maven.application_argv(worktree, module))
    if kind == "gradle":
        try:
            return tuple(build_gradle.application_argv(worktree, module))
        except InputError:
            raise InputError(
                f"--build gradle: no gradlew in {worktree} and no gradle on PATH; use --build-cmd"
            ) from None
    raise InputError(f"--build {kind!r}: choose maven or gradle (or give --build-cmd)")


def checkout_and_build(
    repo: Path,
    refs: dict[str, str],
    shas: dict[str, str],
    build: tuple[str, ...] | str | None,
    logs_dir: Path,
    module: str | None = None,
) -> dict[str, PreparedSide]:
    """Each side's worktree (in perfproof's cache), built if asked: ``build`` is an argv, or
    ``"maven"``/``"gradle"`` for the project's own build."""
    sides: dict[str, PreparedSide] = {}
    for side in ("base", "head"):
        wt = ensure_worktree(repo, shas[side])
        sides[side] = PreparedSide(cwd=str(wt), ref=refs[side], sha=shas[side])
        build_cmd = tool_build_argv(build, module, wt) if isinstance(build, str) else build
        if build_cmd is not None:
            log = logs_dir / f"build-{side}.log"
            log.unlink(missing_ok=True)
            what = f"build of {side} ({refs[side]} = {shas[side][:12]})"
            run(Command(build_cmd, cwd=wt), Watch(what=what, log=log, capture=False, check=True))
            sides[side].build_log = str(log)
            sides[side].build_command = list(build_cmd)
    return sides
