"""``perfproof ab``: two refs → worktrees → builds → interleaved JMH rounds → comparison.

The order of work is chosen so that mistakes cost as little as possible: flags and refs are
checked before anything is built, the benchmark regexes are checked against both builds before
anything is measured, and every finished step is on disk before the next one starts. A run
stopped by Ctrl-C, ``kill -9`` or a crash continues with :func:`resume_ab`, which reads the
options and the plan back from the manifest and runs only what is missing.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from perfproof import __version__, defaults
from perfproof.compare import CompareOptions, CompareResult, compare_sides
from perfproof.compare import document as compare_document
from perfproof.env.java import java_info
from perfproof.errors import ExternalError, InputError
from perfproof.jmh.reader import read_results
from perfproof.measure import environment
from perfproof.measure.keys import group_keys
from perfproof.measure.pair import PairKeys
from perfproof.measure.plan import (
    FIXED,
    SEQUENTIAL,
    make_plan,
    restrict_first_round,
)
from perfproof.measure.progress import Reporter
from perfproof.measure.rounds import RoundLoop, SequentialState
from perfproof.measure.scheduler import Scheduler
from perfproof.measure.shard import Shard, apply_shard, check_resume_shard, restrict_plan
from perfproof.measure.sides import SideBuilder
from perfproof.measure.store import (
    RunStore,
    default_runs_dir,
    new_run_id,
)
from perfproof.model import SIDES
from perfproof.model.documents.compare import CompareDocument
from perfproof.model.documents.reach import RunReach
from perfproof.model.documents.run import Jdk, Overlay, RunManifest, SideRef
from perfproof.model.documents.suite import SuiteKey
from perfproof.model.documents.variants import Variants
from perfproof.model.enums import Format
from perfproof.pipeline.ab import reach as ab_reach
from perfproof.pipeline.ab.commits import commit_scheduler
from perfproof.pipeline.ab.floor import note_floor
from perfproof.pipeline.ab.options import AbOptions, check_options
from perfproof.pipeline.ab.variants import (
    pair_scheduler,
    reproduce_argv,
    variant_note,
    variant_regexes,
)
from perfproof.pipeline.cluster import Executor, join_cluster, run_on_cluster
from perfproof.pipeline.lifecycle import attempt, finish_attempt
from perfproof.pipeline.looks import (
    budget_shortfall,
    design_for,
    final_comparison,
    looker_for,
)
from perfproof.report import FILE_NAMES, write_run_reports
from perfproof.report.context import ReportContext
from perfproof.report.rundir import run_in_memory
from perfproof.workspace.git import require_repo, resolve_ref
from perfproof.workspace.overlay import check_overlay_paths


@dataclass
class AbOutcome:
    """What a finished run leaves for the CLI to print."""

    run_dir: Path
    result: CompareResult
    document: CompareDocument
    """The run's results.json as written (with each key's reach, for ``ab``)."""
    report_path: Path
    notes: list[str] = field(default_factory=list)
    jfr_dir: Path | None = None
    """With ``--jfr``: the folder holding ``r<round>-<side>/fork-N.jfr``."""
    context: ReportContext | None = None
    """The report context report.md was rendered from (None when it failed to build)."""

    @property
    def shown(self) -> CompareResult:
        """The result as the terminal shows it: its comparisons as results.json holds them,
        each with its benchmark's reach, so the table says what report.md says."""
        return dataclasses.replace(self.result, comparisons=list(self.document.comparisons))


def start_ab(
    opts: AbOptions,
    reporter: Reporter,
    *,
    verb: str = "ab",
    explain: bool = True,
    reach: RunReach | None = None,
    recorder: ab_reach.Recorder | None = None,
    variants: Variants | None = None,
) -> AbOutcome:
    """A new run: check everything cheap first, then build, list, measure, compare.

    ``verb`` is the command the hints name (``guard`` runs through here too); ``explain``
    gives each key its reach from the diff (:mod:`perfproof.pipeline.ab.reach`), for ``ab``
    alone: ``prove`` computes reach itself and hands it in as ``reach`` (kept in the manifest
    for the looks), ``guard`` compares one commit's code. ``recorder`` records the decided
    keys no static path leads to before the report (``ab`` alone, unless ``--explain off``).
    ``variants``: one commit (``opts.base``), its two variants the sides (``--ref C --pair``)."""
    repo = require_repo(Path(opts.repo).resolve())
    opts.repo = str(repo)
    check_options(opts)
    spec = opts.build
    shas = {"base": resolve_ref(repo, opts.base), "head": resolve_ref(repo, opts.head)}
    if opts.overlay:  # before the run folder exists: a typo must not leave a folder behind
        check_overlay_paths(repo, shas["head"], opts.overlay, f"--head {opts.head}")
    jdk = java_info(opts.build.java)
    if opts.executor is Executor.RAY:  # a cluster that is not there costs no build
        join_cluster(opts.ray_address)
    run_dir = Path(opts.out).resolve() if opts.out else default_runs_dir(repo) / new_run_id()
    if opts.jfr and re.search(r"[\s,=]", str(run_dir)):
        # the folder goes into a JVM option that JMH splits at spaces and JFR at ',' and '='
        raise InputError(f"--jfr: run folder {run_dir} may not contain spaces, ',' or '='")
    plan = make_plan(
        opts.rounds or opts.max_rounds or defaults.MAX_ROUNDS,
        opts.order,
        opts.seed,
        opts.bench or (variant_regexes(variants) if variants is not None else ()),
        opts.jmh_args.options,
        stopping=FIXED if opts.rounds is not None else SEQUENTIAL,
        budget_s=opts.budget.seconds if opts.budget is not None else None,
        settings=opts.jmh_args.settings,
        paired=variants is not None,
    )
    opts.seed = plan.seed
    if plan.stopping == SEQUENTIAL:  # an uncalibrated schedule is refused before a build
        futility = defaults.FUTILITY if opts.futility is None else opts.futility
        design = design_for(plan, futility, opts.compare_options())
        plan = plan.model_copy(update={"design": design.to_block()})
    store = RunStore.create(
        run_dir,
        RunManifest(
            id=run_dir.name,
            perfproof_version=__version__,
            repo=str(repo),
            refs={
                "base": SideRef(ref=opts.base, sha=shas["base"]),
                "head": SideRef(ref=opts.head, sha=shas["head"]),
            },
            options=opts.to_document(),
            command=opts.reproduce_argv(),
            build_spec=spec.to_block(),
            overlay=Overlay(paths=list(opts.overlay)),
            reach=reach,
            variants=variants,
        ),
    )
    if variants is not None:
        store.manifest.command = reproduce_argv(opts, variants)
    store.init_steps(plan)
    store.manifest.environment = environment.capture(jdk=jdk, jmh_version=None, shas=shas)
    reporter.message(f"run folder: {run_dir} (continue a stopped run with --resume {run_dir})")
    try:
        with store.exclusive():
            store.add_event("started")
            explain = explain and verb == "ab" and variants is None
            return _execute(store, opts, reporter, verb, explain, recorder)
    except InputError as exc:
        # Bad input found after the folder exists (no build detected, a benchmark regex that
        # selects nothing): with nothing measured, a --resume could only fail again. A folder
        # holding the log the error names stays, so the path it gives exists.
        if str(run_dir) not in str(exc) and store.discard_if_unused():
            reporter.message(f"nothing was measured: removed the run folder {run_dir}")
        raise


def resume_ab(
    run_dir: Path,
    reporter: Reporter,
    *,
    lock_timeout: float | None = None,
    verb: str = "ab",
    shard: Shard | None = None,
    ray_address: str | None = None,
    explain: bool = True,
    recorder: ab_reach.Recorder | None = None,
) -> AbOutcome:
    """Continue a stopped run: same options, same plan, only the unfinished steps."""
    store = RunStore.open(run_dir.resolve())
    if store.manifest.merged is not None:
        raise InputError(
            f"--resume {run_dir}: a run merged from shards is finished as it is; resume a "
            "shard (perfproof ab --resume SHARD_DIR) and merge again"
        )
    check_resume_shard(store.manifest.shard, shard, str(run_dir))
    opts = AbOptions.of(store.manifest.options, store.plan.budget)
    if ray_address is not None:
        opts.ray_address = ray_address
    if lock_timeout is not None:
        opts.lock_timeout = lock_timeout
    repo = require_repo(Path(opts.repo))
    recorded = [side for side in SIDES if store.manifest.side(side).sha]
    if len(recorded) == 1:
        raise InputError(
            f"--resume {run_dir}: the run folder records the {recorded[0]} side alone, not an "
            "A/B to resume (prove's reach round is resumed with its bundle: perfproof prove "
            "--resume BUNDLE)"
        )
    for side in SIDES:
        sha = store.manifest.side(side).sha
        if not sha or resolve_ref(repo, sha) != sha:
            raise InputError(f"--resume {run_dir}: commit {sha} of the {side} side is gone")
    jdk = java_info(opts.build.java)
    before = store.manifest.environment.jdk or Jdk()
    if (before.home, before.runtime_version) != (jdk.home, jdk.runtime_version):
        raise InputError(
            f"--resume {run_dir}: the run started on JDK {before.home} "
            f"{before.runtime_version} but {opts.build.java or 'java'} is now "
            f"{jdk.home} {jdk.runtime_version}; both halves must use one JDK"
        )
    with store.exclusive():
        store.add_event("resumed", pending=[s.id for s in store.pending_steps()])
        explain = explain and verb == "ab" and store.manifest.variants is None
        return _execute(store, opts, reporter, verb, explain, recorder)


def _execute(
    store: RunStore,
    opts: AbOptions,
    reporter: Reporter,
    verb: str = "ab",
    explain: bool = True,
    recorder: ab_reach.Recorder | None = None,
) -> AbOutcome:
    """Measure and compare, recording how this attempt ended (the caller holds the lock)."""
    try:
        with attempt(store):
            return _measure_and_compare(store, opts, reporter, explain, recorder)
    except KeyboardInterrupt:
        reporter.message(
            f"interrupted: finished steps are kept in {store.path}; "
            f"continue with: perfproof {verb} --resume {store.path}"
        )
        raise
    except ExternalError:
        reporter.message(
            f"finished steps are kept; after fixing it: perfproof {verb} --resume {store.path}"
        )
        raise
    finally:
        reporter.close()


def _measure_and_compare(
    store: RunStore,
    opts: AbOptions,
    reporter: Reporter,
    explain: bool,
    recorder: ab_reach.Recorder | None,
) -> AbOutcome:
    pairs: PairKeys | None = None
    if store.manifest.variants is not None:  # one commit, two variants: one build
        scheduler, pairs = pair_scheduler(store, opts, reporter)
        keys = pairs.keys
    else:
        scheduler, keys, builders = commit_scheduler(store, opts, reporter, explain)
        if opts.shard is not None:
            settings = store.plan.settings
            per_key = settings.forks * settings.fork_seconds()
            keys = apply_shard(store, opts.shard, keys, lambda _key: per_key)
        if opts.keys:
            keys = _only_keys(store, opts.keys, keys)
        if opts.executor == Executor.RAY:
            return _on_cluster(store, opts, keys, builders, reporter, explain, recorder)
    state, ended = measure_keys(store, scheduler, keys, reporter, keys, pairs=pairs)
    # Measured as the benchmarking ends, so the report written next can show it.
    store.manifest.environment.load_after = environment.load_average()
    result, method = final_comparison(store, state, ended)
    if store.manifest.variants is not None:
        result.notes.insert(0, variant_note(store))
    stopping = state.to_block(keys, ended, store.plan)
    stopping.methodology = method
    store.manifest.stopping = stopping
    store.save()
    extra: dict[str, object] = {"run_dir": str(store.path), "stopping": stopping.dump()}
    document = compare_document(result).model_copy(update=extra)
    document, context = _close_run(store, document, opts, reporter, explain, recorder)
    report = store.path / FILE_NAMES[Format.MD]
    jfr_dir = store.jfr_dir() if opts.jfr else None
    return AbOutcome(store.path, result, document, report, jfr_dir=jfr_dir, context=context)


def _only_keys(store: RunStore, labels: Sequence[str], keys: list[SuiteKey]) -> list[SuiteKey]:
    """The listed keys that ``labels`` name, every planned round narrowed to them before the
    first step runs (a resumed run's plan already is)."""
    wanted = set(labels)
    chosen = [k for k in keys if k.label() in wanted]
    if not chosen:
        raise InputError(
            f"{store.path}: none of the {len(wanted)} key(s) asked for ({sorted(wanted)[0]}, …) "
            "is one the benchmarks list"
        )
    if not any(store.is_finished(s) for s in store.plan.steps):
        store.init_steps(restrict_plan(store.plan, group_keys(chosen)))
    return chosen


def _on_cluster(
    store: RunStore,
    opts: AbOptions,
    keys: list[SuiteKey],
    builders: dict[str, SideBuilder],
    reporter: Reporter,
    explain: bool,
    recorder: ab_reach.Recorder | None,
) -> AbOutcome:
    """``--executor ray``: the keys measured in groups on cluster nodes, merged here."""
    artifacts = {}
    for side in SIDES:
        artifact = builders[side].artifact
        if artifact is None:  # both sides are built before the cluster is asked
            raise RuntimeError(f"{side} was not built before the cluster run")
        artifacts[side] = artifact
    result, merged = run_on_cluster(
        store,
        keys,
        artifacts,
        reporter,
        address=opts.ray_address,
        lock_timeout_s=opts.lock_timeout,
        measure=measure_keys,
    )
    store.manifest.environment.load_after = environment.load_average()
    # read back as results.json holds it (non-finite numbers as null), as a run on one machine
    document = CompareDocument.read(merged.dump(), str(store.path / "results.json"))
    document, context = _close_run(store, document, opts, reporter, explain, recorder)
    return AbOutcome(
        store.path, result, document, store.path / FILE_NAMES[Format.MD], context=context
    )


def _close_run(
    store: RunStore,
    document: CompareDocument,
    opts: AbOptions,
    reporter: Reporter,
    explain: bool,
    recorder: ab_reach.Recorder | None,
) -> tuple[CompareDocument, ReportContext | None]:
    """The same closing for a run on one machine and on a cluster: keys near the empty-benchmark
    floor noted, the reach explained when asked, results and reports written, the attempt
    marked finished."""
    document = note_floor(document, store, reporter.message, opts.cache_dir, opts.lock_timeout)
    if explain:
        document = ab_reach.explain_run(document, store, opts, reporter, recorder)
    store.write_results(document.dump())
    context = _write_reports(store, document, reporter)
    finish_attempt(store)
    return document, context


def _write_reports(
    store: RunStore, document: CompareDocument, reporter: Reporter
) -> ReportContext | None:
    """report.md and report.html from the manifest and results held in memory; the context
    they were rendered from, for what the command prints."""
    run = run_in_memory(store.path, store.manifest, document)
    return write_run_reports(run, say=reporter.message)[1]


def measure_keys(
    store: RunStore,
    scheduler: Scheduler,
    keys: list[SuiteKey],
    reporter: Reporter,
    suite: list[SuiteKey] | None = None,
    pairs: PairKeys | None = None,
) -> tuple[SequentialState, str]:
    """Measure ``keys`` round by round until the plan says stop.

    The one entry point of measurement. ``suite`` is every key the ``--bench`` regexes select;
    when ``keys`` is only a part of it (one shard's keys), a first round that has not started
    yet is planned for those keys alone. ``pairs``: a variant run's keys and the JMH keys of
    both variants of each (its steps are pair steps).
    """
    plan = store.plan
    started = any(store.is_finished(s) for s in plan.steps)
    if suite is not None and set(keys) != set(suite) and not started:
        plan = restrict_first_round(plan, group_keys(keys))
        store.init_steps(plan)
    if not started:
        first_round = sum(scheduler.estimate(s) for s in plan.steps if s.round == 1)
        warning = budget_shortfall(plan, first_round)
        if warning:
            reporter.message(f"warning: {warning}")
    loop = RoundLoop(
        store,
        scheduler.run_steps,
        scheduler.estimate,
        keys,
        looker_for(plan, ab_reach.run_reach(store)),
        reporter,
        last=frozenset(str(b) for b in store.manifest.options.measure_last or ()),
        pairs=pairs,
    )
    return loop.run()


def compare_run(store: RunStore, options: CompareOptions | None = None) -> CompareResult:
    """Compare the finished raw files of both sides with the default statistics."""
    base = store.finished_result_files("base")
    head = store.finished_result_files("head")
    return compare_sides(read_results(base), read_results(head), options or CompareOptions())


def overhead_seconds(manifest: RunManifest, wall_s: float) -> dict[str, float]:
    """Split a run's wall time into builds, JMH, waits for another JMH's lock and perfproof's
    own share (git, JMH's benchmark listing, checks, manifest writes, statistics, report)."""
    builds = sum((b.duration_s or 0.0 for b in manifest.builds), 0.0)
    jmh = sum((s.jmh_seconds or 0.0 for s in manifest.steps), 0.0)
    lock_wait = sum((s.lock_wait_s or 0.0 for s in manifest.steps), 0.0)
    own = max(wall_s - builds - jmh - lock_wait, 0.0)
    return {
        "wall_s": round(wall_s, 3),
        "build_s": round(builds, 3),
        "jmh_s": round(jmh, 3),
        "lock_wait_s": round(lock_wait, 3),
        "perfproof_s": round(own, 3),
        "perfproof_share": round(own / wall_s, 4) if wall_s > 0 else 0.0,
    }
