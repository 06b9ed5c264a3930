"""``perfproof prove``: from a change to its whole evidence, one stage after another.

changed methods → callers → affected benchmarks → guard → A/B → profile forks, their diff and
Amdahl → tests on both commits → end to end → the bundle (report.md, report.html, prove.json).

Each stage's result is saved in ``prove.json`` before the next starts, so ``--resume BUNDLE``
runs only the stages that did not finish, and a stage that failed on a build (exit 3, the
message names the stage and the log) continues where it stopped once the build is fixed. A
stage that has nothing to do is ``skipped`` with its reason: no benchmark added or changed (no
guard), no benchmark reaches the change (nothing to measure: the chain stops and says how to
go on; the tests still run, since a change no benchmark covers can still break one), no test
exercises the changed classes, no ``--e2e-run``.
"""

from __future__ import annotations

import functools
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from perfproof.errors import ExternalError, InputError, PerfproofError
from perfproof.measure.progress import format_duration
from perfproof.model.documents.prove import (
    DONE,
    NO_BENCHMARK,
    NO_CHANGE,
    PENDING,
    SKIPPABLE,
    SKIPPED,
    STAGES,
    TITLES,
    Outcome,
    ProveDocument,
    ProveResults,
)
from perfproof.model.documents.prove_measured import AbStageResult, ReportResult
from perfproof.model.documents.prove_stages import (
    DispatchSkip,
    StageDocument,
)
from perfproof.model.documents.run import SideRef
from perfproof.pipeline.ab.options import AbOptions
from perfproof.pipeline.cluster import Executor, join_cluster
from perfproof.pipeline.prove.beside import BESIDE, Beside, left_together
from perfproof.pipeline.prove.bundle import Bundle, StageClock
from perfproof.pipeline.prove.chain import Chain, skip_reason
from perfproof.pipeline.prove.eta import profile_estimate, stage_estimates, tests_estimate
from perfproof.pipeline.prove.hypothesis import load_hypothesis
from perfproof.pipeline.prove.options import ProveOptions
from perfproof.pipeline.reach.changes import changes_stage
from perfproof.workspace.git import require_repo, resolve_ref

if TYPE_CHECKING:
    pass

Say = Callable[[str], None]


@dataclass
class ProveOutcome:
    bundle: Path
    doc: ProveDocument
    """prove.json as saved."""
    report: ReportResult | None
    results: ProveResults
    """Every stage's typed result, as the report was rendered from them."""
    gates: list[str] = field(default_factory=list)
    """Reasons to exit 1: tests that broke, or a regression with --fail-on-regression."""
    ab_run: Path | None = None
    """The A/B stage's run folder, when the chain got that far."""
    markdown: str | None = None
    """The PR body (report.md) as the report stage rendered it."""


def stage_lines(doc: ProveDocument) -> list[str]:
    """One line per stage: its name, status, and why it was skipped or where it stopped."""
    out = []
    for name in STAGES:
        entry = doc.stages.entry(name)
        note = entry.reason or entry.error or ""
        out.append(f"{name:<11} {entry.status:<8} {note}".rstrip())
    return out


def check_skip(skip: tuple[str, ...]) -> None:
    for stage in skip:
        if stage not in SKIPPABLE:
            raise InputError(
                f"--skip {stage}: not a stage that can be left out ({', '.join(SKIPPABLE)})"
            )


def start_prove(opts: ProveOptions, say: Say) -> ProveOutcome:
    """A new chain: check refs and flags first, then run every stage."""
    check_skip(opts.skip)
    _check_e2e(opts)
    _check_ab(opts.ab)
    load_hypothesis(opts.hunt, opts.hypothesis)
    if opts.hunt:
        opts.hunt = str(Path(opts.hunt).resolve())
    repo = require_repo(Path(opts.ab.repo).resolve())
    opts.ab.repo = str(repo)
    shas = {"base": resolve_ref(repo, opts.ab.base), "head": resolve_ref(repo, opts.ab.head)}
    if shas["base"] == shas["head"]:
        raise InputError(f"--base {opts.ab.base} and --head {opts.ab.head} are the same commit")
    if opts.ab.executor is Executor.RAY:  # a cluster that is not there costs no stage
        join_cluster(opts.ab.ray_address)
    path = Path(opts.out).resolve() if opts.out else _default_bundle(repo)
    opts.out = str(path)
    refs = {side: SideRef(ref=getattr(opts.ab, side), sha=shas[side]) for side in shas}
    bundle = Bundle.create(path, opts.to_document(), refs)
    bundle.doc.command = opts.reproduce_argv()
    say(f"bundle: {path} (continue a stopped chain with --resume {path})")
    return _run(bundle, opts, say)


def _check_ab(ab: AbOptions) -> None:
    """The A/B flags that can be checked without a build (--bench regexes, the design, JMH's
    options), checked before the bundle exists rather than when stage 5 starts (the build
    flags were checked when its ``BuildSpec`` was made)."""
    from perfproof.pipeline.ab.options import check_options

    check_options(ab)


def _check_e2e(opts: ProveOptions) -> None:
    """The end-to-end flags, checked before stage 1 rather than when stage 7 starts."""
    from perfproof.measure.metrics import parse_metric_spec

    if opts.e2e_run and not opts.e2e_metric:
        raise InputError("--e2e-run needs at least one --e2e-metric NAME=REGEX")
    if opts.e2e_metric and not opts.e2e_run:
        raise InputError("--e2e-metric needs --e2e-run CMD: the command whose output it reads")
    for metric in opts.e2e_metric:
        try:
            parse_metric_spec(metric)
        except InputError as exc:
            raise InputError(str(exc).replace("--metric", "--e2e-metric", 1)) from exc


def resume_prove(path: Path, say: Say, skip: tuple[str, ...] = ()) -> ProveOutcome:
    """Continue a chain: only the stages that are not done or skipped."""
    check_skip(skip)
    bundle = Bundle.open(path.resolve())
    opts = ProveOptions.of(bundle.doc.options)
    for side in ("base", "head"):
        sha = str(bundle.doc.side(side).sha)
        if resolve_ref(Path(opts.ab.repo), sha) != sha:
            raise InputError(f"--resume {path}: commit {sha} of the {side} side is gone")
    if skip:
        opts.skip = tuple(dict.fromkeys(opts.skip + skip))
        bundle.doc.options = opts.to_document()
    bundle.doc.stages.report.status = PENDING
    say(f"resuming {bundle.path}: {', '.join(bundle.pending()) or 'nothing left'}")
    return _run(bundle, opts, say)


def _default_bundle(repo: Path) -> Path:
    stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime())
    base = repo / ".perfproof" / "prove" / stamp
    path, n = base, 1
    while path.exists():
        n += 1
        path = base.with_name(f"{stamp}-{n}")
    return path


def _run(bundle: Bundle, opts: ProveOptions, say: Say) -> ProveOutcome:
    from perfproof.pipeline.prove import code, measure
    from perfproof.pipeline.prove.profile import planned, profile_stage

    repo = Path(opts.ab.repo)
    shas = {side: str(bundle.doc.side(side).sha) for side in ("base", "head")}
    chain = Chain(bundle, opts, repo, shas)
    pages: list[str] = []  # the PR body the report stage rendered
    clock = StageClock(stage_estimates(opts, len(chain.regexes())))

    def stage_changes() -> StageDocument:
        return changes_stage(repo, shas["base"], shas["head"])

    def stage_callers() -> StageDocument:
        project, root = chain.project()
        return code.callers_stage(project, root, chain.changes())

    def stage_benchmarks() -> StageDocument:
        project, root = chain.project()
        hyp = load_hypothesis(opts.hunt, opts.hypothesis)
        hunt = (hyp, str(opts.hunt)) if hyp is not None else None
        out = code.benchmarks_stage(project, root, chain.changes(), opts.ab.bench, opts.depth, hunt)
        clock.estimates = stage_estimates(opts, len(out.regexes))
        return out

    def stage_guard() -> StageDocument:
        files = chain.changes().in_scope("benchmark")
        project, _root = chain.project()
        return measure.guard_stage(bundle, opts.ab, files, code.classes_in(project, files))

    def stage_ab() -> StageDocument:
        from perfproof.pipeline.prove.dispatch import measured, probe_dispatch

        probed: tuple[str, ...] = ()
        left_out: tuple[DispatchSkip, ...] = ()
        if opts.reach == "profile":
            probed, left_out = probe_dispatch(bundle, opts.ab, chain.benchmarks(), chain.changes())
            for skip in left_out:
                say(f"prove: left out of the A/B: {skip.benchmark} ({skip.reason})")
        regexes = measured(chain.regexes(), left_out)
        if not regexes:  # an empty --bench would select every benchmark
            return AbStageResult(
                run_dir="", report="", jfr_dir=None, left_out=left_out, probed=probed
            )
        result = measure.ab_stage(
            bundle, opts.ab, regexes, chain.changes(), chain.benchmarks(), shas
        )
        design, rounds = planned(bundle, result, opts.ab, opts.jfr)
        settings = opts.ab.jmh_args.settings
        clock.estimates["profile"] = profile_estimate(design, settings, rounds)
        clock.estimates["tests"] = tests_estimate(Path(result.run_dir))
        return result.model_copy(update={"left_out": left_out, "probed": probed})

    def stage_profile() -> StageDocument:
        bench, ab = chain.benchmarks(), chain.ab()
        if ab is None:
            raise InputError("no A/B run to read recordings from")
        reached = bench.reached if bench is not None else ()
        hyp = load_hypothesis(opts.hunt, opts.hypothesis)
        focus = (hyp, str(opts.hunt)) if hyp else None
        return profile_stage(
            bundle, ab, chain.changes(), reached, opts.ab, chain.measured(), opts.jfr, focus
        )

    def stage_tests() -> StageDocument:
        return measure.tests_stage(bundle, opts.ab, repo, shas, chain.tests())

    def stage_e2e() -> StageDocument:
        profile = bundle.doc.stages.profile.done
        assert opts.e2e_run is not None
        return measure.e2e_stage(
            bundle,
            opts.ab,
            opts.e2e_run,
            opts.e2e_metric,
            opts.e2e_runs,
            profile.amdahl if profile is not None else (),
        )

    def stage_report() -> StageDocument:
        from perfproof.pipeline.prove.report import write_bundle_reports
        from perfproof.report import embedded_run, missing_reports, write_reports

        results = ProveResults.of(bundle)
        ab = results.ab
        if ab is not None and ab.run_dir:
            # a report of the A/B that failed to render while it ran is rendered again here,
            # so --resume brings it back
            missing = missing_reports(ab.run_dir)
            if missing:
                write_reports(ab.run_dir, missing, say=say)
        embedded = embedded_run(ab.run_dir) if ab is not None and ab.run_dir else None
        return write_bundle_reports(results, embedded, say=say, keep=pages.append)

    stages: dict[str, Callable[[], StageDocument]] = {
        "changes": stage_changes,
        "callers": stage_callers,
        "benchmarks": stage_benchmarks,
        "guard": stage_guard,
        "ab": stage_ab,
        "profile": stage_profile,
        "tests": stage_tests,
        "e2e": stage_e2e,
        "report": stage_report,
    }
    lock = threading.RLock()  # prove.json is written by the stage beside another too
    beside: dict[str, Beside] = {}

    def attempt(number: int, name: str, note: str = "") -> None:
        with lock:
            remaining = [s for s in STAGES[number - 1 :] if bundle.status(s) not in (DONE, SKIPPED)]
            times = f"elapsed {format_duration(clock.elapsed)}"
            if "ab" in remaining or "guard" in remaining:
                # how long a measured stage takes is known once it has listed its keys
                times += "; the A/B and what follows it are estimated once it has listed its keys"
            else:
                left = left_together(clock.estimates, remaining)
                times += f", about {format_duration(left)} left"
            say(f"prove [{number}/{len(STAGES)}] {TITLES[name]}{note} ({times})")
            bundle.begin(name)
        started = time.monotonic()
        try:
            result = stages[name]()
        except KeyboardInterrupt:
            with lock:
                bundle.fail(name, "interrupted", time.monotonic() - started)
            say(f"interrupted; continue with: perfproof prove --resume {bundle.path}")
            raise
        except PerfproofError as exc:
            with lock:
                bundle.fail(name, str(exc), time.monotonic() - started)
            raise _in_stage(exc, name, bundle.path) from exc
        with lock:
            bundle.finish(name, result, time.monotonic() - started)
            clock.estimates[name] = 0.0

    if bundle.status("tests") not in (DONE, SKIPPED) and "tests" not in opts.skip:
        cannot = measure.tests_cannot_run(opts.ab, repo, shas)
        if cannot is not None:  # said before anything is measured, not after
            bundle.skip("tests", cannot)
            number = STAGES.index("tests") + 1
            say(f"prove [{number}/{len(STAGES)}] {TITLES['tests']}: skipped ({cannot})")
    for number, name in enumerate(STAGES, start=1):
        if name in beside:
            beside.pop(name).join()
            continue
        if bundle.status(name) in (DONE, SKIPPED):
            continue
        reason = skip_reason(name, chain) if name != "report" else None
        if reason is not None:
            bundle.skip(name, reason)
            say(f"prove [{number}/{len(STAGES)}] {TITLES[name]}: skipped ({reason})")
            continue
        other = BESIDE.get(name)
        if (
            other is not None
            and bundle.status(other) not in (DONE, SKIPPED)
            and (skip_reason(other, chain) is None)
        ):
            at = STAGES.index(other) + 1
            why = f", beside {TITLES[name]} (its forks are recorded, not timed)"
            beside[other] = Beside(functools.partial(attempt, at, other, why)).start()
        try:
            attempt(number, name)
        except PerfproofError:
            for stage in list(beside.values()):  # what runs beside it is kept, then the stop
                stage.join()
            raise
    return _outcome(bundle, opts, say, pages[-1] if pages else None)


def _in_stage(exc: PerfproofError, name: str, path: Path) -> PerfproofError:
    """The same kind of error (and exit code), naming the stage and how to continue."""
    text = f"stage {name} ({TITLES[name]}): {exc}"
    if isinstance(exc, ExternalError):
        return ExternalError(f"{text}; after fixing it: perfproof prove --resume {path}")
    return exc.__class__(text)


def _outcome(bundle: Bundle, opts: ProveOptions, say: Say, markdown: str | None) -> ProveOutcome:
    results = ProveResults.of(bundle)
    broken = results.tests.regressions if results.tests is not None else ()
    gates = [f"test passes on base and fails on head: {t}" for t in broken]
    ab = results.ab
    if ab is not None:
        from perfproof.pipeline.prove.measure import regression_gate

        gates += regression_gate(ab, opts.fail_on_regression, opts.gate)
    bundle.doc.outcome = Outcome(gates=gates, ok=not gates)
    bundle.save()
    bench, changed = results.benchmarks, results.changes
    if bench is not None and not bench.regexes:
        say(f"prove: {NO_BENCHMARK if changed is not None and changed.methods else NO_CHANGE}")
    ab_run = Path(ab.run_dir) if ab is not None else None
    return ProveOutcome(bundle.path, bundle.doc, results.report, results, gates, ab_run, markdown)
