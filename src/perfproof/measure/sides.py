"""Turn each side's commit into a way to start JMH: worktree, overlay, build, benchmark list.

Kept apart from the orchestration so that ``--fresh-builds`` (a new build before every round)
and ``--resume`` (the same builds, found in the cache) go through the very same code as the
first build of a run.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from perfproof.env.java import find_java
from perfproof.errors import ExternalError, InputError
from perfproof.jmh.listing import benchmark_names
from perfproof.measure.argv import list_argv
from perfproof.measure.keys import suite_keys
from perfproof.measure.offheap import OffHeapHelper, offheap_helper
from perfproof.measure.plan import Step
from perfproof.measure.progress import Reporter, count_benchmarks
from perfproof.measure.store import RunStore, now_iso
from perfproof.model.documents.run import DONE, BuildEntry
from perfproof.model.documents.suite import SuiteKey
from perfproof.model.enums import RunStatus
from perfproof.process import Command, Watch, run
from perfproof.workspace import build_cache, gradle_layout, reactor
from perfproof.workspace.artifact import Artifact, jmh_version
from perfproof.workspace.build import build, build_key
from perfproof.workspace.git import git_out
from perfproof.workspace.overlay import apply_overlay
from perfproof.workspace.spec import BuildSpec, detect_build
from perfproof.workspace.worktree import ensure_worktree


@dataclass
class SideBuilder:
    """Builds one side (once, or once per round with fresh builds) and records every build."""

    side: str
    repo: Path
    sha: str
    spec: BuildSpec
    java: str
    store: RunStore
    reporter: Reporter
    cache_dir: Path
    fresh: bool = False
    overlay_from: str | None = None
    """The other side's SHA when ``--overlay`` paths are copied onto this side."""
    overlay_paths: tuple[str, ...] = ()
    artifact: Artifact | None = None
    built_round: int | None = None
    overlaid: list[str] = field(default_factory=list)
    serves: tuple[SideBuilder, str] | None = None
    """The other side whose build serves this one, and why it may (:func:`reuse_reason`)."""
    offheap: bool = True
    """Run perfproof's off-heap profiler in every step (its cost is lost in the noise)."""
    _helpers: dict[str, OffHeapHelper | None] = field(default_factory=dict, repr=False)

    def prepare(self, round_no: int | None = None) -> Artifact:
        """Check out (and overlay) the commit and build it, or take the build from the cache."""
        if self.serves is not None and self.serves[0].artifact is not None:
            return self._take(self.serves[0], self.serves[1])
        worktree = ensure_worktree(self.repo, self.sha, self.cache_dir, pristine=self.fresh)
        if self.overlay_from and self.overlay_paths:
            source = ensure_worktree(self.repo, self.overlay_from, self.cache_dir)
            self.overlaid = apply_overlay(source, worktree, list(self.overlay_paths))
        log_path = self.store.build_log(self.side, round_no if self.fresh else None)
        # a build taken from the cache takes a second, a real one minutes: say which it is
        cached = not self.fresh and _in_cache(worktree, self.spec, self.cache_dir)
        what = f"{'cached build of' if cached else 'building'} {self.side} {self.sha[:12]}"
        self.reporter.message(what + (f" for round {round_no}" if self.fresh else ""))
        started = time.monotonic()
        try:
            artifact = build(
                worktree,
                self.spec,
                cache_dir=self.cache_dir,
                log_path=log_path,
                fresh=self.fresh,
                label=self.side,
                on_line=self.reporter.line,
                say=self.reporter.message,
            )
        except ExternalError as exc:
            self._record(
                None, status=RunStatus.FAILED, round=round_no, log=self.store.rel(log_path)
            )
            raise ExternalError(
                f"build of the {self.side} side ({self.sha[:12]}) failed at step "
                f"'build {self.side}': {_strip_log(str(exc))}",
                log_path,
            ) from exc
        self._record(
            artifact,
            round=round_no,
            overlaid=list(artifact.overlaid),
            log=self.store.rel(log_path),
            duration_s=round(time.monotonic() - started, 3),
        )
        self.artifact = artifact
        self.built_round = round_no
        return artifact

    def _record(self, artifact: Artifact | None, **fields: Any) -> None:
        """This side's build in the manifest, stamped now: what ``artifact`` is and how it was
        made (a finished build, found in the cache or taken from the other side), or with no
        artifact a failed one; ``fields`` say the rest (round, log, duration, …)."""
        made: dict[str, Any] = {}
        if artifact is not None:
            made = {
                "status": DONE,
                "cached": artifact.cached,
                "command": list(artifact.build_command),
                "cwd": str(artifact.build_cwd),
                "layout": artifact.layout,
                "jar": str(artifact.jar) if artifact.jar else None,
                "key": artifact.key,
                "tool": artifact.tool or None,
                "own_run": artifact.own_run,
            }
        entry = BuildEntry(side=self.side, sha=self.sha, **made, **fields, at=now_iso())
        self.store.record_build(entry)

    def _take(self, other: SideBuilder, why: str) -> Artifact:
        """The other side's build, recorded as such in the manifest and said to the user."""
        artifact = other.artifact
        assert artifact is not None
        reused = f"{other.side} {other.sha[:12]} built it: {why}"
        self.reporter.message(
            f"{self.side} {self.sha[:12]}: the {other.side} build serves it ({why})"
        )
        self._record(artifact, duration_s=0.0, reused=reused)
        self.artifact = artifact
        return artifact

    def launcher(self, step: Step) -> list[str]:
        """The JMH launcher for a step; with fresh builds, rebuilds at each new round. With
        ``offheap``, it carries perfproof's off-heap profiler (:mod:`perfproof.measure.offheap`)
        wherever that profiler can be built for the artifact's JMH."""
        if self.artifact is None or (self.fresh and self.built_round != step.round):
            self.prepare(step.round)
        assert self.artifact is not None
        helper = self._offheap_helper(self.artifact) if self.offheap else None
        if helper is None:
            return self.artifact.jmh_argv(self.java)
        return [*self.artifact.jmh_argv(self.java, [helper.jar]), *helper.jmh_args()]

    def _offheap_helper(self, artifact: Artifact) -> OffHeapHelper | None:
        """The profiler for ``artifact``, built once; why not said once to the user."""
        key = artifact.key or str(artifact.files())
        if key not in self._helpers:
            found = offheap_helper(artifact, find_java(self.java))
            if isinstance(found, str):
                self.reporter.message(f"off-heap bytes per operation not measured: {found}")
            self._helpers[key] = None if isinstance(found, str) else found
        return self._helpers[key]

    def jmh_version(self) -> str | None:
        return jmh_version(self.artifact) if self.artifact else None


def reuse_reason(
    repo: Path,
    shas: dict[str, str],
    spec: BuildSpec,
    cache_dir: Path,
    *,
    fresh: bool,
    overlay: bool,
) -> str | None:
    """Why the base's build serves the head too (None: build both).

    Maven (with ``--module``): only when the two commits differ in no file of the modules that
    ``-pl MODULE -am`` builds and in no build file (:mod:`perfproof.workspace.reactor`).
    Gradle (a subproject or the root project): only when they differ in no file of the
    projects its build reads, no file a build script names and no build file
    (:mod:`perfproof.workspace.gradle_layout`). Never with an overlay (the base worktree is
    not its commit) or fresh builds (the user asked for a build every round)."""
    if fresh or overlay or shas["base"] == shas["head"]:
        return None
    worktree = ensure_worktree(repo, shas["base"], cache_dir)
    kind = detect_build(worktree, spec)
    if kind not in ("maven", "gradle") or (kind == "maven" and not spec.module):
        return None
    changed = git_out(
        repo,
        "diff",
        "--name-only",
        "--no-renames",
        shas["base"],
        shas["head"],
        "--",
        what="git diff --name-only",
    ).splitlines()
    if not changed:
        return None
    if kind == "gradle":
        if gradle_layout.blocking_change(worktree, spec.module, changed) is not None:
            return None
        return (
            f"the {len(changed)} changed file(s) are in no project, and named by no build "
            f"script, that the Gradle build of {spec.module or 'the root project'} reads"
        )
    assert spec.module is not None
    if reactor.blocking_change(worktree, spec.module, changed) is not None:
        return None
    return (
        f"the {len(changed)} changed file(s) are in no module that the build of "
        f"{spec.module} includes"
    )


def _in_cache(worktree: Path, spec: BuildSpec, cache_dir: Path) -> bool:
    """Whether building ``worktree`` now would be a cache hit (a cheap lookup, no build)."""
    return build_cache.load(cache_dir, build_key(worktree, spec)) is not None


def _strip_log(message: str) -> str:
    return message.split(" (log: ")[0]


def list_side(
    builder: SideBuilder,
    benchmarks: Sequence[str],
    options: Sequence[str],
    sha: str,
) -> tuple[list[str], int, list[SuiteKey]]:
    """The benchmarks the regexes select on one side, the count of runs they make and the
    suite's keys (benchmark × @Param combination, after the user's ``-p``).

    A regex that selects nothing is bad input (exit 2): JMH would otherwise start, find
    nothing and leave an empty result that only shows up much later as "no comparisons".
    """
    assert builder.artifact is not None
    argv = list_argv(builder.artifact.jmh_argv(builder.java), benchmarks, options)
    log_path = builder.store.path / "logs" / f"list-{builder.side}.log"
    res = run(Command(argv), Watch(what=f"JMH list ({builder.side})", log=log_path))
    if not res.ok:
        raise ExternalError(
            f"JMH could not list the benchmarks of the {builder.side} side ({sha[:12]}) "
            f"at step 'list {builder.side}' (exit {res.returncode})",
            log_path,
        )
    names = benchmark_names(res.output)
    if not names:
        what = " ".join(benchmarks) if benchmarks else "(all)"
        hint = ""
        if builder.side == "base" and not builder.overlay_paths:
            # the usual cause: head adds the benchmark (the regression-guard pattern)
            hint = "; if head adds it, copy its source onto base with --overlay PATH"
        raise InputError(
            f"--bench {what} matches no benchmark on the {builder.side} side ({sha[:12]}) "
            f"at step 'list {builder.side}' (log: {log_path}){hint}"
        )
    return names, count_benchmarks(res.output, options), suite_keys(res.output)
