"""Which methods a change edits, and which benchmarks a static call path leads from to them.

The static half of reach, the same for every verb: ``ab`` tells its report which verdicts a
path explains, ``prove`` lists the benchmarks its A/B measures (and adds what a hunt's
recordings showed, :func:`benchmarks_reaching`'s ``also``), the reach accuracy benchmark measures it
against recordings. The index is built on the feature's checkout (the code the pull request
ships); removed methods exist only on the baseline and are listed without callers.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path

from perfproof import defaults
from perfproof.code.changes import REMOVED, ChangedMethod, changed_methods
from perfproof.code.classify import BENCHMARK, PRODUCTION, TEST
from perfproof.code.graph import label
from perfproof.code.project import Project
from perfproof.code.query import open_project
from perfproof.code.reach import BenchmarkReach
from perfproof.model.documents.prove_stages import (
    BenchmarksResult,
    ChangesResult,
    ReachedBenchmark,
)


def changes_stage(repo: Path, base_sha: str, head_sha: str) -> ChangesResult:
    """Stage 1: the changed production methods, and the changed files by scope."""
    found = changed_methods(repo, base_sha, head_sha)
    return ChangesResult(
        methods=tuple(found.methods),
        classes=tuple(found.changed_classes),
        files={scope: tuple(found.in_scope(scope)) for scope in (PRODUCTION, TEST, BENCHMARK)},
    )


def methods_of(changes: ChangesResult) -> list[ChangedMethod]:
    return list(changes.methods)


def benchmarks_reaching(
    project: Project,
    root: Path,
    changes: ChangesResult,
    bench: tuple[str, ...],
    depth: int = defaults.DEPTH,
    also: Callable[[list[ChangedMethod], set[str]], tuple[ReachedBenchmark, ...]] | None = None,
) -> BenchmarksResult:
    """The benchmarks a static call path leads from to a changed method, or the user's
    ``--bench``; ``also`` adds the benchmarks another source of evidence says reach one (given
    the changed methods and the benchmarks found: ``prove --hypothesis`` adds those whose
    recordings showed it)."""
    keys = [m.key for m in methods_of(changes) if m.kind != REMOVED]
    reach = BenchmarkReach(project, root, depth)
    reached = reach.affected(keys)
    # one shortest path is kept per benchmark, ending at the changed method nearest it, so a
    # changed method missing from the kept paths may still be reached (by a longer path, or
    # through another changed method): only a walk of its own says whether, and from which
    # benchmarks; over sure calls only for ``also``, since through dispatch it only may run
    on_paths = {r.changed for r in reached}
    unreached = [
        label(project, k)
        for k in reach.unreached(k for k in keys if label(project, k) not in on_paths)
    ]
    sure = {label(project, k): by for k, by in reach.reaching_each(keys, dispatch=False).items()}
    found = tuple(_with_others(r, sure) for r in reached)
    if also is not None:
        seen = also(methods_of(changes), {r.benchmark for r in found})
        found += seen
        unreached = [u for u in unreached if u not in {r.changed for r in seen}]
    # the benchmarks only dynamic dispatch reaches go last: the call graph cannot say they
    # run the changed override, so they are the first a cut in the A/B's list should drop
    ordered = sorted(found, key=lambda r: r.via_dispatch)
    return BenchmarksResult(
        source="--bench" if bench else "call graph",
        depth=depth,
        reached=tuple(ordered),
        regexes=tuple(bench) if bench else tuple(r.regex for r in ordered),
        unreached=tuple(unreached),
    )


def _with_others(r: ReachedBenchmark, each: Mapping[str, frozenset[str]]) -> ReachedBenchmark:
    """``r`` naming the other changed methods whose own sure walks reach its benchmark."""
    others = tuple(m for m, by in each.items() if m != r.changed and r.benchmark in by)
    return r.model_copy(update={"also": others}) if others else r


def head_project(worktree: Path) -> Project:
    """The index of the feature's checkout (cached by file content)."""
    return open_project(worktree)
