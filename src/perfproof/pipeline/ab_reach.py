"""Whether the change can explain each verdict of an ``ab`` run: the reach of every key.

``ab`` measures two commits of one repository, so it knows the diff as well as ``prove`` does.
A key the diff never reaches (no call path from its benchmark to a changed method, no change
outside the Java sources) cannot be moved by it: an ``improved`` or ``regressed`` there is JIT,
code-layout or machine noise that passed the test. Such a verdict keeps its word (the
statistics said so) but gets a note of kind ``unexplained`` in results.json, the reports and
the terminal, and the summary counts it apart, so a reviewer is never shown it as the change's
effect without being told.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from perfproof.code.reach import DEFAULT_DEPTH, benchmark_methods
from perfproof.errors import PerfproofError
from perfproof.model.diagnostics import Kind
from perfproof.model.documents.prove_reach import (
    MOVED,
    UNEXPLAINED_NOTE,
    KeyReach,
    bench_reach,
    outside_java,
)
from perfproof.model.reach import RunReach
from perfproof.pipeline.prove_code import benchmarks_stage, changes_stage, head_project
from perfproof.workspace.git import git_out

REACH_FIELD = "reach"
"""The field each primary comparison of results.json gets: reached, why, path."""


def changed_files(repo: Path, shas: Mapping[str, str]) -> list[str]:
    """Every file the change touches, whatever its language."""
    names = git_out(
        repo, "diff", "--name-only", "--no-renames", f"{shas['base']}..{shas['head']}",
        what="git diff --name-only",
    )  # fmt: skip
    return [n for n in names.splitlines() if n]


def static_reach(
    repo: Path,
    shas: Mapping[str, str],
    head_tree: Path,
    benchmarks: Iterable[str],
    depth: int = DEFAULT_DEPTH,
) -> RunReach:
    """Each listed benchmark's reach from the diff and the head checkout's call graph.

    Only benchmarks the index knows get one (a change outside the Java sources reaches the
    others too): a benchmark it cannot see (written in Kotlin or Scala, generated, or named
    differently) stays ``not indexed`` rather than being shown unreached for want of an index."""
    changes = changes_stage(repo, shas["base"], shas["head"])
    project = head_project(head_tree)
    known = set(benchmark_methods(project, head_tree).values())
    found = benchmarks_stage(project, head_tree, changes, (), depth)
    paths = {r.benchmark: r.path for r in found.reached}
    dispatch = {r.benchmark: r.dispatch for r in found.reached if r.via_dispatch}
    other = outside_java(changed_files(repo, shas))
    bench_files = changes.in_scope("benchmark")
    return RunReach(
        {
            b: bench_reach(b, paths, other, bench_files, depth, dispatch)
            for b in dict.fromkeys(benchmarks)
            if b in known or other
        }
    )


def reach_before_looks(
    repo: Path, shas: Mapping[str, str], head_tree: Path, benchmarks: Iterable[str]
) -> RunReach:
    """:func:`static_reach`, or a reach that knows nothing and says why: reach informs the
    looks and the words of a run, so no failure of it may cost the run its measurements."""
    try:
        return static_reach(repo, shas, head_tree, benchmarks)
    except Exception as exc:  # see the docstring
        kind = "" if isinstance(exc, PerfproofError | OSError) else f"{type(exc).__name__}: "
        return RunReach(error=f"the change's reach was not computed: {kind}{exc}")


def reach_of_run(
    reach: RunReach, comparisons: Sequence[Mapping[str, object]]
) -> tuple[KeyReach, ...]:
    """Each primary comparison's reach and verdict, for the benchmarks the reach knows."""
    out = []
    for c in comparisons:
        bench = str(c.get("benchmark"))
        if c.get("metric") not in (None, "primary") or bench not in reach.benchmarks:
            continue
        r = reach.of(bench)
        out.append(KeyReach(bench, str(c.get("verdict")), r.reaches, r.path, r.why))
    return tuple(out)


def annotate(document: dict[str, Any], keys: Sequence[KeyReach]) -> None:
    """Give each primary comparison of a results document its reach (a benchmark method's,
    whatever its @Param values), and a verdict the change cannot explain a note saying so
    (every output shows the notes)."""
    by_bench = {k.benchmark: k for k in keys}
    for c in document.get("comparisons", []):
        key = by_bench.get(str(c.get("benchmark")))
        if key is None or c.get("metric") not in (None, "primary"):
            continue
        c[REACH_FIELD] = {"reached": key.reached, "why": key.why, "path": list(key.path)}
        verdict = str(c.get("verdict"))
        if verdict in MOVED and not key.reached:
            text = f"{verdict} but {UNEXPLAINED_NOTE} ({key.why})"
            notes = c.setdefault("diagnostics", {}).setdefault("notes", [])
            notes.append({"kind": str(Kind.UNEXPLAINED), "text": text})
            c.setdefault("warnings", []).append(text)


def explain(document: dict[str, Any], reach: RunReach) -> str | None:
    """Annotate ``document`` in place with the reach known before the looks; the reason when
    it could not be computed (the verdicts then stand without reach, and the run says why)."""
    if reach.error:
        return reach.error
    annotate(document, reach_of_run(reach, document.get("comparisons", [])))
    return None


def unexplained_of(comparisons: Sequence[Mapping[str, object]]) -> list[str]:
    """Labels of the comparisons whose verdict the change cannot explain."""
    return [
        str(c.get("benchmark"))
        for c in comparisons
        if any(isinstance(n, dict) and n.get("kind") == str(Kind.UNEXPLAINED) for n in _notes(c))
    ]


def _notes(c: Mapping[str, object]) -> list[object]:
    diag = c.get("diagnostics")
    notes = diag.get("notes") if isinstance(diag, dict) else None
    return notes if isinstance(notes, list) else []
