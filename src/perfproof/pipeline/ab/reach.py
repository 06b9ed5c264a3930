"""Whether the change can explain each verdict of an ``ab`` run: the reach of every benchmark.

``ab`` measures two commits of one repository, so it knows the diff as well as ``prove`` does.
Each benchmark's static reach is computed before the first look (the looks hold a clean split
of forks by side only where the change does not reach) and kept in the manifest. After the
comparison, a key decided ``improved`` or ``regressed`` that no static call path leads to is
recorded (one JFR fork a side, outside the timing forks: :mod:`perfproof.pipeline.ab.recorded`)
before the report is written, and its words follow the evidence: "not explained by the change"
only where the baseline recording shows the changed code never runs; "no static call path
found", with why a path can be missed, where nothing says more; nothing at all where the
recording shows the change running. The notes reach results.json, the reports, the terminal
and the ``--fail-on-regression`` message.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import replace
from pathlib import Path, PurePosixPath

from pydantic import JsonValue

from perfproof import defaults
from perfproof.code.reach import benchmark_methods
from perfproof.env.cache import cache_root
from perfproof.errors import PerfproofError
from perfproof.measure.progress import Reporter
from perfproof.measure.rounds import measuring_seconds
from perfproof.measure.store import RunStore
from perfproof.model import PRIMARY, SIDES, Comparison
from perfproof.model.diagnostics import Kind, Note
from perfproof.model.documents.compare import CompareDocument
from perfproof.model.documents.prove_reach import (
    MOVED,
    UNEXPLAINED_NOTE,
    KeyReach,
    bench_reach,
)
from perfproof.model.documents.reach import BenchReach, RunReach
from perfproof.model.reach import REACH_FIELD, Reach
from perfproof.pipeline.ab.options import AbOptions, Explain
from perfproof.pipeline.reach.changes import benchmarks_reaching, changes_stage, head_project
from perfproof.units import eta as format_duration
from perfproof.workspace.build_inputs import is_build_script, read_files
from perfproof.workspace.git import git, git_out
from perfproof.workspace.worktree import ensure_worktree


def changed_files(repo: Path, shas: Mapping[str, str]) -> list[str]:
    """Every file the change touches, whatever its language."""
    names = git_out(
        repo, "diff", "--name-only", "--no-renames", f"{shas['base']}..{shas['head']}",
        what="git diff --name-only",
    )  # fmt: skip
    return [n for n in names.splitlines() if n]


def build_read(repo: Path, shas: Mapping[str, str], custom: bool = False) -> tuple[str, ...]:
    """The changed files outside the Java sources that a build reads (each reaches every
    benchmark; :mod:`perfproof.workspace.build_inputs`), judged against the build scripts of
    the head commit in the folders that hold them; ``custom``: the build is the user's command."""
    others = [p for p in changed_files(repo, shas) if not p.endswith(".java")]
    if not others:
        return ()
    folders = {str(PurePosixPath(p).parent) for p in others}
    wanted = {str(f) for p in folders for f in (PurePosixPath(p), *PurePosixPath(p).parents)}
    listed = git_out(repo, "ls-tree", "-r", "--name-only", shas["head"], what="git ls-tree")
    scripts: dict[str, str] = {}
    for path in listed.splitlines():
        if is_build_script(path) and str(PurePosixPath(path).parent) in wanted:
            shown = git(repo, "show", f"{shas['head']}:{path}", check=False, what="git show")
            scripts[path] = shown.output if shown.ok else ""
    return read_files(others, scripts, custom)


def static_reach(
    repo: Path,
    shas: Mapping[str, str],
    head_tree: Path,
    benchmarks: Iterable[str],
    depth: int = defaults.DEPTH,
    custom: bool = False,
) -> RunReach:
    """Each listed benchmark's reach from the diff and the head checkout's call graph
    (``custom``: the build is the user's own command, which may read any file).

    Only benchmarks the index knows get one (a change outside the Java sources reaches the
    others too): a benchmark it cannot see (written in Kotlin or Scala, generated, or named
    differently) stays ``not indexed`` rather than being shown unreached for want of an index."""
    changes = changes_stage(repo, shas["base"], shas["head"])
    project = head_project(head_tree)
    known = set(benchmark_methods(project, head_tree).values())
    found = benchmarks_reaching(project, head_tree, changes, (), depth)
    paths = {r.benchmark: r.path for r in found.reached}
    dispatch = {r.benchmark: r.dispatch for r in found.reached if r.via_dispatch}
    other = build_read(repo, shas, custom)
    bench_files = changes.in_scope("benchmark")
    return RunReach(
        benchmarks={
            b: bench_reach(b, paths, other, bench_files, depth, dispatch)
            for b in dict.fromkeys(benchmarks)
            if b in known or other
        }
    )


def reach_before_looks(
    repo: Path,
    shas: Mapping[str, str],
    head_tree: Path,
    benchmarks: Iterable[str],
    custom: bool = False,
) -> RunReach:
    """:func:`static_reach`, or a reach that knows nothing and says why: reach informs the
    looks and the words of a run, so no failure of it may cost the run its measurements."""
    try:
        return static_reach(repo, shas, head_tree, benchmarks, custom=custom)
    except Exception as exc:  # see the docstring
        kind = "" if isinstance(exc, PerfproofError | OSError) else f"{type(exc).__name__}: "
        return RunReach(error=f"the change's reach was not computed: {kind}{exc}")


def reach_of_run(reach: RunReach, comparisons: Sequence[Comparison]) -> tuple[KeyReach, ...]:
    """Each primary comparison's reach and verdict, for the benchmarks the reach knows."""
    return tuple(
        KeyReach.of(reach.of(c.key.benchmark), str(c.verdict))
        for c in comparisons
        if c.key.metric == PRIMARY and c.key.benchmark in reach.benchmarks
    )


def annotate(document: CompareDocument, reach: RunReach) -> CompareDocument:
    """The results document with each primary comparison given its benchmark's reach
    (whatever its @Param values), and a verdict the change may not explain a note of the
    evidence's strength (every output shows the notes); ``document`` itself is left as it was."""
    comparisons = []
    for c in document.comparisons:
        if c.key.metric != PRIMARY or c.key.benchmark not in reach.benchmarks:
            comparisons.append(c)
            continue
        r = reach.of(c.key.benchmark)
        written: dict[str, JsonValue] = {
            "kind": str(r.kind),
            "reached": r.reaches,
            "why": r.why,
            "path": list(r.path),
        }
        comparisons.append(replace(_noted(c, r), extra={**c.extra, REACH_FIELD: written}))
    return document.model_copy(update={"comparisons": comparisons})


def _noted(c: Comparison, r: BenchReach) -> Comparison:
    """The comparison with a note on a verdict the change may not explain."""
    verdict = str(c.verdict)
    if verdict not in MOVED:
        return c
    if r.kind.shown_not_to_run:
        note = Note(Kind.UNEXPLAINED, f"{verdict} but {UNEXPLAINED_NOTE}: {r.why}")
    elif r.kind is Reach.NO_STATIC_PATH:
        note = Note(Kind.NO_PATH, f"{verdict}, but {r.why}")
    else:
        return c
    diagnostics = replace(c.diagnostics, notes=[*(c.diagnostics.notes or []), note])
    return replace(c, diagnostics=diagnostics, warnings=[*c.warnings, note.text])


def explain(document: CompareDocument, reach: RunReach) -> tuple[CompareDocument, str | None]:
    """The document annotated with ``reach``, or unchanged with the reason when reach could not
    be computed (the verdicts then stand without reach, and the run says why)."""
    if reach.error:
        return document, reach.error
    return annotate(document, reach), None


def to_record(document: CompareDocument, reach: RunReach) -> list[str]:
    """The benchmarks of the keys decided ``improved`` or ``regressed`` with no static path."""
    return list(
        dict.fromkeys(
            c.key.benchmark
            for c in document.comparisons
            if c.key.metric == PRIMARY
            and str(c.verdict) in MOVED
            and reach.of(c.key.benchmark).kind is Reach.NO_STATIC_PATH
        )
    )


def noted(comparisons: Sequence[Comparison], kind: Kind) -> list[str]:
    """Benchmarks of the comparisons holding a note of ``kind``."""
    return [
        c.key.benchmark
        for c in comparisons
        if any(n.kind == kind for n in c.diagnostics.notes or ())
    ]


def unexplained_of(comparisons: Sequence[Comparison]) -> list[str]:
    """Benchmarks of the comparisons whose verdict a recording shows the change cannot explain."""
    return noted(comparisons, Kind.UNEXPLAINED)


def unconfirmed_of(comparisons: Sequence[Comparison]) -> list[str]:
    """Benchmarks of the comparisons whose verdict no static path leads to, unrecorded."""
    return noted(comparisons, Kind.NO_PATH)


Recorder = Callable[[RunStore, AbOptions, RunReach, Sequence[str], Reporter], RunReach]
"""Records the given benchmarks (one fork a side) and returns the reach with what the
recordings showed (:func:`perfproof.pipeline.ab.recorded.record_unreached`)."""


def reach_before_run(store: RunStore, opts: AbOptions, rep: Reporter) -> None:
    """Each listed benchmark's reach from the diff, in the manifest before the first look:
    the looks and the report both read it from there."""
    shas = {side: str(store.manifest.side(side).sha) for side in SIDES}
    cache_dir = cache_root(Path(opts.cache_dir) if opts.cache_dir else None)
    head_tree = ensure_worktree(Path(opts.repo), shas["head"], cache_dir)
    listed = store.manifest.benchmarks or {}
    names = [*listed.get("base", ()), *listed.get("head", ())]
    custom = opts.build.build_cmd is not None
    reach = reach_before_looks(Path(opts.repo), shas, head_tree, names, custom)
    store.manifest.reach = reach
    if reach.error:
        rep.message(f"note: {reach.error}")


def run_reach(store: RunStore) -> RunReach | None:
    """The reach the run recorded (None: not computed, e.g. ``guard``, a run of ``prove``
    that knew none, a run started by an older version)."""
    return store.manifest.reach


def explain_run(
    document: CompareDocument,
    store: RunStore,
    opts: AbOptions,
    rep: Reporter,
    recorder: Recorder | None,
) -> CompareDocument:
    """The results document with the run's reach on its comparisons, after recording the
    decided keys no static path leads to (unless ``--explain off``, no recorder, or the budget
    has no time left); unchanged when the reach is unknown."""
    if store.manifest.reach is None:  # a run started before reach was computed up front
        reach_before_run(store, opts, rep)
    reach = run_reach(store)
    if reach is None or reach.error:
        return document
    wanted = to_record(document, reach)
    if wanted and reach.recorded is None:
        why_not = _why_not_recorded(document, store, opts, wanted, recorder)
        if why_not is None and recorder is not None:
            try:
                reach = recorder(store, opts, reach, wanted, rep)
            except Exception as exc:  # the measured run must not be lost to its explanation
                known = isinstance(exc, PerfproofError | OSError)
                why_not = f"the recording failed: {'' if known else type(exc).__name__ + ': '}{exc}"
                rep.message(f"note: {why_not}")
        if why_not is not None:
            reach = reach.with_recordings(
                reach.of(b).model_copy(
                    update={"why": f"{reach.of(b).why}; not recorded: {why_not}"}
                )
                for b in wanted
            )
        store.manifest.reach = reach
        store.save()
    return explain(document, reach)[0]


def _why_not_recorded(
    document: CompareDocument,
    store: RunStore,
    opts: AbOptions,
    wanted: Sequence[str],
    recorder: Recorder | None,
) -> str | None:
    """Why the benchmarks will not be recorded, or None when they will be. The recorded
    forks count in ``--budget``: they run only when the time left covers them."""
    if opts.explain == Explain.OFF or recorder is None:
        return "--explain off"
    budget = store.plan.budget
    if budget is None:
        return None
    spent = measuring_seconds(store.manifest.steps)
    keys = {(c.key.benchmark, c.key.params) for c in document.comparisons
            if c.key.benchmark in wanted}  # fmt: skip
    need = 2 * len(keys) * store.plan.settings.fork_seconds()
    if budget.fits(spent, need):
        return None
    return (
        f"--budget {format_duration(budget.seconds)} leaves {format_duration(budget.left(spent))}, "
        f"and one recorded fork a side of {len(keys)} key(s) takes about {format_duration(need)}"
    )
