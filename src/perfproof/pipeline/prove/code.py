"""The source-reading stages of ``prove``: changed methods, their callers, the benchmarks
that reach them, and the tests that exercise them.

Each stage returns a typed result (:mod:`perfproof.model.documents.prove_stages`) that
``prove.json`` keeps; later stages read earlier results back from there, so a resumed chain
sees exactly what the first attempt saw.
The index is built on the feature's checkout (the code the pull request ships); removed
methods exist only on the baseline and are listed without callers.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path

from perfproof import defaults
from perfproof.code.binding import CONSTRUCTOR, Target
from perfproof.code.callers import SiteIndex, find_callers
from perfproof.code.changes import REMOVED, ChangedMethod
from perfproof.code.classify import PRODUCTION, TEST
from perfproof.code.graph import dispatching_sites
from perfproof.code.project import Project
from perfproof.code.render import callers_doc
from perfproof.model.documents.hunt import Hypothesis
from perfproof.model.documents.prove_stages import (
    BenchmarksResult,
    CallerCounts,
    CallersEntry,
    CallersStageResult,
    ChangesResult,
    ReachedBenchmark,
    ViaSupertype,
)
from perfproof.pipeline.prove.hypothesis import hunt_reach
from perfproof.pipeline.reach.changes import benchmarks_reaching, methods_of

TEST_NAME_PATTERNS = ("{}Test", "{}Tests", "Test{}", "{}IT")
"""Test classes named after a production class (the convention of JUnit projects)."""


def _target(project: Project, m: ChangedMethod) -> Target | None:
    if m.owner not in project.types:
        return None
    return Target(m.owner, m.name if m.name != CONSTRUCTOR else CONSTRUCTOR, len(m.params))


def callers_stage(project: Project, root: Path, changes: ChangesResult) -> CallersStageResult:
    """Stage 2: production call sites of each changed method (``perfproof callers``)."""
    sites = SiteIndex(project, eager=True)
    out = []
    for m in methods_of(changes):
        target = _target(project, m) if m.kind != REMOVED else None
        if target is None:
            note = "removed by the change" if m.kind == REMOVED else "not indexed"
            out.append(CallersEntry(method=m.label, kind=m.kind, callers=None, note=note))
            continue
        result = find_callers(project, target, sites, root=root)
        declarations, virtual = dispatching_sites(project, m.key, sites)
        production = [s for s in virtual if s.scope == PRODUCTION]
        via = (
            ViaSupertype(
                declarations=tuple(declarations),
                production=len(production),
                distinct_callers=len({s.caller_key for s in production}),
            )
            if declarations
            else None
        )
        out.append(
            CallersEntry(
                method=m.label,
                kind=m.kind,
                callers=CallerCounts.model_validate(callers_doc(result, show_all=False).dump()),
                test_files=tuple(sorted({s.file for s in result.in_scope(TEST)})),
                via_supertype=via,
            )
        )
    return CallersStageResult(methods=tuple(out))


def benchmarks_stage(
    project: Project,
    root: Path,
    changes: ChangesResult,
    bench: tuple[str, ...],
    depth: int = defaults.DEPTH,
    hunt: tuple[Hypothesis, str] | None = None,
) -> BenchmarksResult:
    """Stage 3: the benchmarks that reach a changed method, or the user's ``--bench``.

    With ``prove --hypothesis`` (``hunt``: the hypothesis and its hunt), the benchmarks whose
    recordings showed the hypothesis's method count as reaching it when the change edits it,
    even where the call graph finds no path."""
    if hunt is None:
        return benchmarks_reaching(project, root, changes, bench, depth)
    hypothesis, path = hunt

    def seen(methods: list[ChangedMethod], found: set[str]) -> tuple[ReachedBenchmark, ...]:
        return hunt_reach(hypothesis, path, methods, found)

    return benchmarks_reaching(project, root, changes, bench, depth, seen)


def select_tests(
    project: Project, changes: ChangesResult, callers: CallersStageResult | None
) -> list[str]:
    """Test classes that exercise the changed classes: test files calling a changed method
    (by the index), test classes named after a changed class, and tests the change touched."""
    files: set[str] = set(changes.in_scope(TEST))
    for entry in callers.methods if callers is not None else ():
        files.update(entry.test_files)
    names: set[str] = set()
    by_path = {f.path: f for f in project.files}
    for path in files:
        f = by_path.get(path)
        if f is not None:
            names.update(t.name for t in f.types if t.outer is None)
    test_types = {
        t.name
        for f in project.files
        if project.scope(f) == TEST
        for t in f.types
        if t.outer is None
    }
    for cls in changes.classes:
        simple = (
            project.label(cls).split(".")[0] if cls in project.types else cls.rsplit(".", 1)[-1]
        )
        for pattern in TEST_NAME_PATTERNS:
            if pattern.format(simple) in test_types:
                names.add(pattern.format(simple))
    return sorted(names)


def classes_in(project: Project, paths: Sequence[str]) -> list[str]:
    """JMH include regexes for the top-level classes of the given files (the feature's new or
    changed benchmarks, which the guard measures and nothing else)."""
    wanted = set(paths)
    return [
        f"^{re.escape(t.fqn)}\\."
        for f in project.files
        if f.path in wanted
        for t in f.types
        if t.outer is None
    ]
