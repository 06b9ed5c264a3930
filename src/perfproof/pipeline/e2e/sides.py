"""Refs → worktrees → builds: where each side of ``perfproof e2e`` runs its command.

End-to-end commands run applications, not JMH jars, so the build here makes the application
as the project's own build does — ``--build maven`` (``package``, never ``install``),
``--build gradle`` (``assemble``), ``--build auto`` (whichever the checkout uses) or the user's
``--build-cmd`` — in each side's worktree, with the build options ``ab`` takes meaning what they
mean there; what it produces is up to the command that follows. Refs are resolved before
anything is checked out or created, so a typo costs nothing.
"""

from __future__ import annotations

from pathlib import Path

from perfproof.env.java import java_info
from perfproof.errors import ExternalError, InputError
from perfproof.model.documents.run import PreparedSide
from perfproof.pipeline.e2e.options import E2EOptions, split_command
from perfproof.process import Command, Watch, run
from perfproof.workspace import build_gradle, build_maven
from perfproof.workspace.git import resolve_ref
from perfproof.workspace.launcher import GRADLE, MAVEN
from perfproof.workspace.plan import java_env
from perfproof.workspace.spec import BuildKind, BuildSpec, detect_build
from perfproof.workspace.worktree import ensure_worktree


def resolve_refs(repo: Path, base_ref: str, head_ref: str) -> dict[str, str]:
    """Full SHAs of both refs (InputError naming the ref that does not resolve)."""
    return {"base": resolve_ref(repo, base_ref), "head": resolve_ref(repo, head_ref)}


def tool_build_argv(opts: E2EOptions, worktree: Path) -> tuple[str, ...] | None:
    """One worktree's build command, or None when no build was asked for: ``--build-cmd``
    as typed, else the project's own build (``--build auto`` detects Maven or Gradle as ``ab``
    does; the launcher, --build-arg and --keep-checks mean what they mean there)."""
    if opts.build_cmd is not None:
        return split_command(opts.build_cmd, "--build-cmd", opts.shell)
    if opts.build is None:
        return None
    kind: str = opts.build
    if opts.build is BuildKind.AUTO:
        kind = detect_build(worktree, BuildSpec(module=opts.module))
    args = opts.build_args
    if kind == BuildKind.MAVEN:
        launch = MAVEN.parse(opts.maven)
        return tuple(
            build_maven.application_argv(worktree, opts.module, launch, args, opts.keep_checks)
        )
    try:
        launch = GRADLE.parse(opts.gradle)
        return tuple(build_gradle.application_argv(worktree, opts.module, launch, args))
    except InputError:
        raise InputError(
            f"--build gradle: no gradlew in {worktree} and no gradle on PATH; use --build-cmd"
        ) from None


def java_env_of(opts: E2EOptions) -> dict[str, str]:
    """JAVA_HOME and PATH of ``--java`` (nothing without it), for the builds and the runs."""
    return java_env(java_info(opts.java).home) if opts.java else {}


def _check_products(opts: E2EOptions, worktree: Path, what: str, log: Path) -> None:
    """What ``--jar`` and ``--classpath-file`` say the build makes is there."""
    if opts.jar and not any(worktree.glob(opts.jar)):
        raise ExternalError(f"{what}: --jar {opts.jar} matches no file in {worktree}", log)
    if opts.classpath_file and not (worktree / opts.classpath_file).is_file():
        raise ExternalError(
            f"{what}: --classpath-file {opts.classpath_file} was not written in {worktree}", log
        )


def checkout_and_build(
    repo: Path,
    refs: dict[str, str],
    shas: dict[str, str],
    opts: E2EOptions,
    logs_dir: Path,
) -> dict[str, PreparedSide]:
    """Each side's worktree (in perfproof's cache; a clean one with --fresh-builds), built
    when a build was asked for."""
    sides: dict[str, PreparedSide] = {}
    env = java_env_of(opts)
    for side in ("base", "head"):
        wt = ensure_worktree(repo, shas[side], pristine=opts.fresh_builds)
        sides[side] = PreparedSide(cwd=str(wt), ref=refs[side], sha=shas[side])
        build_cmd = tool_build_argv(opts, wt)
        if build_cmd is not None:
            log = logs_dir / f"build-{side}.log"
            log.unlink(missing_ok=True)
            what = f"build of {side} ({refs[side]} = {shas[side][:12]})"
            run(
                Command(build_cmd, cwd=wt, env=env),
                Watch(what=what, log=log, capture=False, check=True),
            )
            _check_products(opts, wt, what, log)
            sides[side].build_log = str(log)
            sides[side].build_command = list(build_cmd)
    return sides
