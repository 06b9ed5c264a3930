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

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from perfproof.code.reach import DEFAULT_DEPTH, benchmark_methods
from perfproof.errors import PerfproofError
from perfproof.model.diagnostics import Kind
from perfproof.model.documents.prove_reach import (
    MOVED,
    UNEXPLAINED_NOTE,
    KeyReach,
    outside_java,
    reach_of_keys,
)
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


def reach_of_run(
    repo: Path,
    shas: Mapping[str, str],
    head_tree: Path,
    comparisons: Sequence[Mapping[str, object]],
    depth: int = DEFAULT_DEPTH,
) -> tuple[KeyReach, ...]:
    """Each primary comparison's reach, from the diff and the head checkout's call graph.

    Only benchmarks the index knows get one: a benchmark it cannot see (written in Kotlin or
    Scala, generated, or named differently) is not shown unreached, which would call its
    verdict unexplained for want of an index."""
    changes = changes_stage(repo, shas["base"], shas["head"])
    project = head_project(head_tree)
    known = set(benchmark_methods(project, head_tree).values())
    found = benchmarks_stage(project, head_tree, changes, (), depth)
    return reach_of_keys(
        [c for c in comparisons if str(c.get("benchmark")) in known],
        {r.benchmark: r.path for r in found.reached},
        outside_java(changed_files(repo, shas)),
        changes.in_scope("benchmark"),
        depth,
    )


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


def explain(
    document: dict[str, Any],
    repo: Path,
    shas: Mapping[str, str],
    head_tree: Path,
) -> str | None:
    """Annotate ``document`` in place; a reason when the call graph could not be built (the
    verdicts then stand without reach, and the run says why). Reach only annotates a run
    whose forks are all measured, so no failure of it may cost the run its results."""
    try:
        keys = reach_of_run(repo, shas, head_tree, document.get("comparisons", []))
    except Exception as exc:  # see the docstring
        kind = "" if isinstance(exc, PerfproofError | OSError) else f"{type(exc).__name__}: "
        return f"the change's reach was not computed: {kind}{exc}"
    annotate(document, keys)
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
