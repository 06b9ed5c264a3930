"""The measuring stages of ``prove``: guard, the A/B, the tests on both commits and the
optional end-to-end run (the profile forks are ``pipeline.prove_profile``'s).

The A/B's timing forks never run the flight recorder: its sampling and allocation events cost
time inside the measured loop, so a timing taken with it on is not the benchmark the user runs.

Each stage calls the verb that owns the job (``pipeline.guard``, ``pipeline.ab``,
``profile.api``, ``workspace.tests``, ``perfproof e2e``) with the options ``prove`` was given,
and keeps the run folder inside the bundle, so a stage stopped half-way continues with that
verb's own ``--resume`` machinery.
"""

from __future__ import annotations

import dataclasses
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

from perfproof import defaults
from perfproof.compare.undecided import unlooked_in
from perfproof.errors import ExternalError, InputError
from perfproof.measure.progress import make_reporter
from perfproof.model.documents import loads_strict
from perfproof.model.documents.compare_wire import ComparisonDoc
from perfproof.model.documents.prove_measured import (
    AbStageResult,
    AmdahlRow,
    E2EStageResult,
    GuardStageResult,
    TestsResult,
)
from perfproof.model.documents.prove_reach import bench_reach, reach_of_keys
from perfproof.model.documents.prove_stages import BenchmarksResult, ChangesResult
from perfproof.model.documents.reach import BenchReach, RunReach
from perfproof.model.enums import GuardKind
from perfproof.model.reach import Reach
from perfproof.pipeline.ab.options import AbOptions
from perfproof.pipeline.ab.reach import build_read
from perfproof.pipeline.ab.run import resume_ab, start_ab
from perfproof.pipeline.prove.bundle import Bundle
from perfproof.process import Command, Watch, run
from perfproof.render.gate import SHOWN, named, readable
from perfproof.report.rundir import read_manifest
from perfproof.workspace.build_maven import SKIPPED_CHECKS, maven_program
from perfproof.workspace.spec import detect_build
from perfproof.workspace.tests import compare_runs, run_tests
from perfproof.workspace.worktree import ensure_worktree

GUARD_KIND = GuardKind.TIME


def guard_stage(
    bundle: Bundle, ab: AbOptions, bench_files: Sequence[str], regexes: Sequence[str]
) -> GuardStageResult:
    """Stage 4: the feature's new or changed benchmarks, overlaid onto the baseline."""
    from perfproof.model.documents.guard import guard_document
    from perfproof.pipeline.guard.judge import GuardSettings
    from perfproof.pipeline.guard.run import GuardOptions, resume_guard, run_guard

    folder = bundle.folder("guard")
    if (folder / "manifest.json").is_file():
        g = resume_guard(folder, GUARD_KIND, defaults.GUARD_MIN_RATIO, reporter=make_reporter())
    else:
        bench = ab.bench or tuple(regexes)
        opts = dataclasses.replace(
            ab, bench=bench, overlay=tuple(bench_files), out=str(folder), jfr=False
        )
        settings = GuardSettings(GUARD_KIND, defaults.GUARD_MIN_RATIO)
        g = run_guard(GuardOptions(opts, settings), reporter=make_reporter())
    return GuardStageResult.model_validate({"run_dir": str(folder), "document": guard_document(g)})


def ab_stage(
    bundle: Bundle,
    ab: AbOptions,
    regexes: Sequence[str],
    changes: ChangesResult,
    benchmarks: BenchmarksResult | None,
    shas: Mapping[str, str],
) -> AbStageResult:
    """Stage 5a: the sequential A/B of the affected benchmarks, without the flight recorder."""
    folder = bundle.folder("ab")
    if (folder / "manifest.json").is_file():
        outcome = resume_ab(folder, make_reporter(), explain=False)
    else:
        last = tuple(r.benchmark for r in (benchmarks.reached if benchmarks else ())
                     if r.via_dispatch)  # fmt: skip
        opts = dataclasses.replace(
            ab, bench=tuple(regexes), out=str(folder), jfr=False, measure_last=last
        )
        outcome = start_ab(opts, make_reporter(), explain=False, reach=run_reach(benchmarks))
    bundle.expose_run(outcome.run_dir)
    written = outcome.document.dump()["comparisons"]
    assert isinstance(written, list)  # CompareDocument writes its comparisons as a list
    comparisons = tuple(ComparisonDoc.model_validate(c) for c in written)
    reached = benchmarks.reached if benchmarks is not None else ()
    reach = reach_of_keys(
        comparisons,
        {r.benchmark: r.path for r in reached},
        build_read(Path(ab.repo), shas, ab.build.build_cmd is not None),
        changes.in_scope("benchmark"),
        benchmarks.depth if benchmarks is not None else None,
    )
    return AbStageResult(
        run_dir=str(outcome.run_dir),
        report=str(outcome.report_path),
        jfr_dir=str(outcome.jfr_dir) if outcome.jfr_dir else None,
        comparisons=comparisons,
        regressed=tuple(c.key.label() for c in outcome.result.regressed),
        command=tuple(opts_command(folder)),
        reach=reach,
    )


def run_reach(benchmarks: BenchmarksResult | None) -> RunReach | None:
    """The reach the A/B's looks may rely on: the benchmarks the call graph (or a recording)
    reaches; every other benchmark stays unknown to them."""
    if benchmarks is None:
        return None
    found = {}
    for r in benchmarks.reached:
        if r.seen_in:
            why = f"a recording ({r.seen_in}) saw it run {r.changed}"
            found[r.benchmark] = BenchReach(
                benchmark=r.benchmark, kind=Reach.RECORDED, why=why, path=r.path
            )
        else:
            dispatch = {r.benchmark: r.dispatch} if r.via_dispatch else None
            found[r.benchmark] = bench_reach(
                r.benchmark, {r.benchmark: r.path}, (), (), benchmarks.depth, dispatch
            )
    return RunReach(benchmarks=found)


def regression_gate(ab: AbStageResult, fail_on_regression: bool, gate: str) -> list[str]:
    """The regression gate errs on the side of stopping: by default it fails on a regression
    the change cannot explain too, and says so; ``--gate explained`` fails only on explained
    ones. Every regressed key is named by metric, a long list cut with "and N more"."""
    where = str(Path(ab.run_dir) / "results.json")
    explained = [readable(r) for r in ab.explained_regressed]
    regressed = [readable(r) for r in ab.regressed]
    unexplained = [r for r in regressed if r not in explained]
    if gate == "explained":
        return [f"regression: {named(explained, SHOWN, where)}"] if explained else []
    unlooked = unlooked_in(ab.comparisons)
    if fail_on_regression and unlooked and not ab.regressed:
        return [
            f"--fail-on-regression could not look at {len(unlooked)} key(s) ({unlooked[0]}: "
            "the run ended before it had 2 forks a side): a regression there is not ruled out"
        ]
    if not fail_on_regression or not regressed:
        return []
    text = f"regression: {len(regressed)} regressed: {named(regressed, SHOWN, where)}"
    if unexplained:
        text += (
            f" ({len(unexplained)} not explained by the change: "
            f"{named(unexplained, SHOWN, where)}; "
            "--gate explained fails only on explained regressions)"
        )
    return [text]


def opts_command(run_dir: Path) -> list[str]:
    """The ``perfproof ab`` command line the run folder records."""
    return list(read_manifest(run_dir / "manifest.json").command)


def tests_stage(
    bundle: Bundle,
    ab: AbOptions,
    repo: Path,
    shas: Mapping[str, str],
    classes: Sequence[str],
) -> TestsResult:
    """Stage 6: the selected test classes on the baseline and the feature."""
    runs = {}
    spec = ab.build
    java_home = None
    if ab.build.java:
        from perfproof.env.java import java_info

        java_home = java_info(ab.build.java).home
    for side in ("base", "head"):
        worktree = ensure_worktree(repo, shas[side])
        tool = detect_build(worktree, spec)
        if tool not in ("maven", "gradle"):
            raise InputError(f"tests: {tool} builds cannot select tests; skip with --skip tests")
        checks = () if spec.keep_checks or tool != "maven" else SKIPPED_CHECKS
        runs[side] = run_tests(
            worktree,
            tool,
            classes,
            side=side,
            sha=shas[side],
            log_path=bundle.folder("tests") / f"{side}.log",
            java_home=java_home,
            build_args=(*checks, *spec.build_args),
            program=maven_program(worktree, spec) if tool == "maven" else None,
        )
    changes = compare_runs(runs["base"], runs["head"])
    return TestsResult.model_validate(
        {
            "selected": list(classes),
            "base": runs["base"].model_dump(mode="json"),
            "head": runs["head"].model_dump(mode="json"),
            "changes": changes,
            "regressions": [c.name for c in changes if c.regression],
        }
    )


def tests_cannot_run(ab: AbOptions, repo: Path, shas: Mapping[str, str]) -> str | None:
    """Why the tests stage cannot run on this build (None: it can), known before anything is
    measured, so the stage is skipped with its reason up front instead of failing after."""
    try:
        tool = detect_build(ensure_worktree(repo, shas["head"]), ab.build)
    except InputError as exc:
        return str(exc)
    if tool not in ("maven", "gradle"):
        return f"a {tool} build (--build-cmd) cannot select tests"
    return None


def _detected(ab: AbOptions) -> str | None:
    from perfproof.workspace.git import resolve_ref

    repo = Path(ab.repo)
    try:
        return detect_build(ensure_worktree(repo, resolve_ref(repo, ab.head)), ab.build)
    except InputError:
        return None


def e2e_stage(
    bundle: Bundle,
    ab: AbOptions,
    run_cmd: str,
    metrics: tuple[str, ...],
    runs: int,
    amdahl: Sequence[AmdahlRow],
) -> E2EStageResult:
    """Stage 7: ``perfproof e2e`` on the two commits, with the Amdahl ceiling beside it."""
    folder = bundle.folder("e2e")
    argv = [sys.executable, "-m", "perfproof", "e2e"]
    started = sorted(folder.glob("*/manifest.json"))
    if started:
        argv += ["--resume", str(started[-1].parent)]
    else:
        argv += ["--repo", ab.repo, "--base", ab.base, "--head", ab.head, "--run", run_cmd]
        argv += ["--runs", str(runs), "--runs-dir", str(folder)]
        kind = ab.build.kind
        tool = kind if kind in ("maven", "gradle") else _detected(ab)
        if tool in ("maven", "gradle"):
            argv += ["--build", tool]  # the command runs what the commit builds
        if ab.build.module:
            argv += ["--module", ab.build.module]
        for m in metrics:
            argv += ["--metric", m]
        best = max(
            (
                (a.cpu_share, a.per_call_gain)
                for a in amdahl
                if a.cpu_share and a.per_call_gain is not None
            ),
            key=lambda pair: pair[0],
            default=None,
        )
        if best is not None:
            argv += ["--amdahl-share", f"{best[0] * 100:.4g}"]
            argv += ["--per-call-gain", f"{best[1] * 100:.4g}"]
    argv += ["--format", "json"]
    log = folder.parent / "e2e.log"
    res = run(Command(argv), Watch(log=log, merge_stderr=False))
    if not res.ok:
        raise ExternalError("perfproof e2e failed", log)
    try:
        doc = loads_strict(res.output, "perfproof e2e")
    except InputError:
        raise ExternalError("perfproof e2e printed no JSON document", log) from None
    if not isinstance(doc, dict):
        raise ExternalError("perfproof e2e printed no JSON document", log)
    return E2EStageResult.model_validate({"command": argv[2:], "document": doc})
