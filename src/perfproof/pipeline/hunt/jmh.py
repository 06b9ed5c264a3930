"""The JMH workload of ``hunt``: the repository's benchmarks at one ref, built as ``ab``
builds them, a few forks per benchmark, every fork recorded by JFR after its warm-up.

It is one side of an ``ab`` run: the same worktree, build cache, benchmark listing and
scheduler (with JMH's lock), one round, the ``head`` side only, in a run folder inside the
hunt's. JMH's gc profiler is on, so each fork's bytes per operation are JMH's own count and a
method's bytes/op is its share of them; its time per operation comes from the fork's score.
"""

from __future__ import annotations

import dataclasses
import math
from pathlib import Path

from perfproof import __version__
from perfproof.env.cache import cache_root
from perfproof.env.java import java_info
from perfproof.errors import ExternalError
from perfproof.jmh.reader import read_file
from perfproof.measure.argv import with_forks
from perfproof.measure.plan import FIXED, make_plan
from perfproof.measure.progress import Reporter
from perfproof.measure.scheduler import Scheduler, SideTarget
from perfproof.measure.sides import SideBuilder, list_side
from perfproof.measure.store import RunStore
from perfproof.model import ALLOC_NORM, PRIMARY, BenchKey, Samples
from perfproof.model.documents.run import Overlay, RunManifest, SideRef
from perfproof.model.documents.run_plan import JmhSettings
from perfproof.pipeline.ab.options import AbOptions, check_options
from perfproof.pipeline.hunt.rank import ForkOps
from perfproof.pipeline.hunt.run import Workload
from perfproof.profile.load import load_profiles
from perfproof.workspace.git import require_repo, resolve_ref
from perfproof.workspace.worktree import ensure_worktree

SIDE = "head"


def with_gc_profiler(options: tuple[str, ...]) -> tuple[str, ...]:
    for i, token in enumerate(options[:-1]):
        if token == "-prof" and options[i + 1].split(":")[0] == "gc":
            return options
    return (*options, "-prof", "gc")


def warmup_delay(s: JmhSettings) -> float | None:
    """Seconds from a fork's start to the end of its warm-up iterations, in whole seconds
    (JFR refuses a delay under one): the recording's delay. The JVM's own start comes
    before the first warm-up iteration, so the recording starts a little before warm-up
    ends and never after measurement begins. None when warm-up is under a second."""
    whole = math.floor(s.warmup_iterations * s.warmup_s)
    return float(whole) if whole >= 1 else None


def _ns_per_op(value: float, unit: str) -> float | None:
    if unit == "ns/op":
        return value
    if unit == "ops/s" and value > 0:
        return 1e9 / value
    return None


def fork_ops(result: Path) -> list[tuple[BenchKey, list[ForkOps], float | None, str, float | None]]:
    """Per benchmark entry, in JMH's order: each fork's time/op and bytes/op, the score."""
    samples = read_file(result)
    by_entry: dict[BenchKey, dict[str, Samples]] = {}
    for s in samples:
        by_entry.setdefault(s.key.entry(), {})[s.key.metric] = s
    out = []
    for key, metrics in by_entry.items():
        primary = metrics.get(PRIMARY)
        alloc = metrics.get(ALLOC_NORM)
        if primary is None:
            continue
        p_means = list(primary.fork_means())
        a_means = list(alloc.fork_means()) if alloc is not None else []
        unit = primary.unit
        ops = [
            ForkOps(_ns_per_op(float(v), unit), float(a_means[i]) if i < len(a_means) else None)
            for i, v in enumerate(p_means)
        ]
        score = sum(p_means) / len(p_means) if p_means else None
        bpo = sum(a_means) / len(a_means) if a_means else None
        out.append((key, ops, score, unit, bpo))
    return out


def jmh_workload(
    opts: AbOptions,
    forks: int,
    out_dir: Path,
    reporter: Reporter,
    lock_timeout: float,
    overlay_from: str | None = None,
) -> Workload:
    """Build the ref, run the selected benchmarks with ``forks`` recorded forks each;
    ``overlay_from`` is the commit ``opts.overlay`` is copied from before the build."""
    repo = require_repo(Path(opts.repo).resolve())
    opts = dataclasses.replace(opts, repo=str(repo))
    sha = resolve_ref(repo, opts.head)
    check_options(opts)
    options = with_gc_profiler(with_forks(opts.jmh_args.options, forks))
    settings = opts.jmh_args.settings.model_copy(update={"forks": forks})
    jdk = java_info(opts.build.java)
    run_dir = out_dir / "run"
    jfr_dir = run_dir / "jfr"
    plan = make_plan(1, "abab", None, opts.bench, options, stopping=FIXED, settings=settings)
    plan = plan.model_copy(update={"steps": [s for s in plan.steps if s.side == SIDE]})
    store = RunStore.create(
        run_dir,
        RunManifest(
            id="hunt",
            perfproof_version=__version__,
            repo=str(repo),
            refs={SIDE: SideRef(ref=opts.head, sha=sha)},
            options=opts.to_document(),
            build_spec=opts.build.to_block(),
        ),
    )
    store.init_steps(plan)
    cache_dir = cache_root(Path(opts.cache_dir) if opts.cache_dir else None)
    builder = SideBuilder(
        SIDE,
        repo,
        sha,
        opts.build,
        jdk.path,
        store,
        reporter,
        cache_dir,
        fresh=opts.fresh_builds,
        overlay_from=overlay_from,
        overlay_paths=opts.overlay if overlay_from else (),
    )
    builder.prepare(plan.steps[0].round if opts.fresh_builds else None)
    if builder.overlaid:
        store.manifest.overlay = Overlay(
            paths=list(opts.overlay), source=overlay_from or "", onto=SIDE,
            files=list(builder.overlaid),
        )  # fmt: skip
        store.save()
    names, count, _keys = list_side(builder, plan.benchmarks, plan.jmh_options, sha)
    delay = warmup_delay(settings)
    scheduler = Scheduler(
        store,
        {SIDE: SideTarget(SIDE, builder.launcher, names, count)},
        reporter,
        settings=settings,
        lock_timeout_s=lock_timeout,
        java_home=jdk.home,
        jfr_dir=jfr_dir,
        jfr_delay_s=delay,
    )
    try:
        scheduler.run_pending()
    finally:
        reporter.close()
    return recorded_workload(store, opts.build.java, cache_dir)


def recorded_workload(store: RunStore, java: str | None, cache_dir: Path) -> Workload:
    """The workload of a hunt's run folder whose JMH step has run: each benchmark's recorded
    forks with their time and bytes per operation (also what re-reads an earlier hunt's
    recordings without building or running anything again)."""
    plan = store.plan
    step = plan.steps[0]
    jfr_dir = store.jfr_dir()
    entries = fork_ops(store.result_path(step))
    recordings = sorted(
        (jfr_dir / f"r{step.round}-{step.jfr_side}").glob("fork-*.jfr"),
        key=lambda p: int(p.stem.split("-")[1]),
    )
    expected = sum(len(ops) for _, ops, *_ in entries)
    if len(recordings) != expected:
        raise ExternalError(
            f"JMH ran {expected} forks but {len(recordings)} JFR recordings were written "
            f"in {jfr_dir}"
        )
    profiles = load_profiles(recordings, java)
    groups = []
    scores = {}
    at = 0
    for key, ops, score, unit, bpo in entries:
        name = key.label() if key.params else key.benchmark
        groups.append((name, profiles[at : at + len(ops)], ops))
        scores[name] = (score, unit, bpo)
        at += len(ops)
    side = store.manifest.side(SIDE)
    sha = str(side.sha)
    worktree = ensure_worktree(Path(str(store.manifest.repo)), sha, cache_dir)
    selection = " ".join(plan.benchmarks) or "all benchmarks"
    forks = plan.settings.forks
    delay = warmup_delay(plan.settings)
    return Workload(
        "jmh",
        f"JMH {selection}, {forks} forks each, {' '.join(plan.jmh_options)}",
        groups,
        scores,
        ref=side.ref,
        sha=sha,
        root=worktree,
        warnings=[]
        if delay
        else [
            "warm-up is under a second, so the recordings include it (JFR cannot start later "
            "than one second in): interpreted and half-compiled code is in the profile"
        ],
    )
