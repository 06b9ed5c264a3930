"""Everything between two git refs and two runnable JMH artifacts.

``git`` resolves refs, ``worktree`` gives each commit its own checkout inside perfproof's cache
(the user's checkout is never touched), ``overlay`` copies benchmark sources from one side onto
the other, ``build`` turns a worktree into an :class:`Artifact` through Maven, Gradle or a
custom command and caches it, ``jdk`` describes the JVM in use.

Typical use for one side::

    sha = resolve_ref(repo, "main")
    wt = ensure_worktree(repo, sha, cache_dir)            # pristine=True for a fresh build
    apply_overlay(head_wt, wt, ["bench/src/main/java"])   # optional, base side only
    art = build(wt, BuildSpec(module="bench"), cache_dir=cache_dir, log_path=log,
                label="base")
    argv = art.jmh_argv(java) + jmh_options
"""

from perfproof.env.java import check_same_jdk, java_info
from perfproof.model.documents.run import JavaInfo
from perfproof.workspace.artifact import Artifact, jmh_version
from perfproof.workspace.build import build, build_key
from perfproof.workspace.git import resolve_ref
from perfproof.workspace.overlay import apply_overlay
from perfproof.workspace.spec import BuildSpec, detect_build
from perfproof.workspace.worktree import ensure_worktree, reset_worktree

__all__ = [
    "Artifact",
    "BuildSpec",
    "JavaInfo",
    "apply_overlay",
    "build",
    "build_key",
    "check_same_jdk",
    "detect_build",
    "ensure_worktree",
    "java_info",
    "jmh_version",
    "reset_worktree",
    "resolve_ref",
]
