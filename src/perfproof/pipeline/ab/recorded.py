"""Recorded rounds of an A/B: the same builds and JMH settings as the timing run, the flight
recorder on, nothing timed; a recorded fork of one side alone; and ``ab``'s recorder, which
asks a round of the decided keys no static call path leads to.

``ab`` asks a round of a decided key with no static path before its report is written (the
head's recording alone may show an added helper running); ``prove`` records the forks its
profile stage needs as rounds, and asks one side, the baseline, of the benchmarks only dynamic
dispatch reaches before its A/B: whether the change runs there is read from the baseline
alone, so a head fork would cost a JMH step for nothing. What a recording says of a benchmark
is judged by :mod:`perfproof.pipeline.reach.recorded`.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence
from pathlib import Path

from perfproof import __version__
from perfproof.env.cache import cache_root
from perfproof.env.java import java_info
from perfproof.measure import environment
from perfproof.measure.plan import FIXED, make_plan
from perfproof.measure.progress import Reporter
from perfproof.measure.rounds import measuring_seconds
from perfproof.measure.scheduler import Scheduler, SideTarget
from perfproof.measure.sides import SideBuilder, list_side
from perfproof.measure.store import MANIFEST, RunStore
from perfproof.model.documents.reach import RunReach
from perfproof.model.documents.run import RunManifest, SideRef
from perfproof.pipeline.ab.options import AbOptions
from perfproof.pipeline.ab.run import resume_ab, start_ab
from perfproof.pipeline.cluster import Executor
from perfproof.pipeline.lifecycle import attempt, finish_attempt
from perfproof.pipeline.reach.changes import changes_stage
from perfproof.pipeline.reach.recorded import recorded_reach
from perfproof.report.rundir import read_manifest
from perfproof.workspace.git import resolve_ref

EXPLAIN_FOLDER = "explain"
"""The recorded run's folder inside an ``ab`` run folder."""


def recorded_round(
    folder: Path,
    ab: AbOptions,
    regexes: Sequence[str],
    reporter: Reporter,
    rounds: int = 1,
    keys: Sequence[str] = (),
    forks: int = 1,
) -> Path:
    """``rounds`` recorded rounds (a fixed design) of the given benchmarks, of only ``keys``
    (suite labels) when given, ``forks`` forks a side a round, in ``folder`` (resumed when a
    stopped run already started it): the same builds and other JMH settings as the timing
    run, the flight recorder on, nothing timed."""
    if (folder / "manifest.json").is_file():
        return resume_ab(folder, reporter, explain=False).run_dir
    folder.parent.mkdir(parents=True, exist_ok=True)
    opts = dataclasses.replace(
        ab,
        bench=tuple(regexes),
        keys=tuple(keys),
        out=str(folder),
        jfr=True,
        jmh_args=ab.jmh_args.with_forks(forks),
        rounds=rounds,
        max_rounds=None,
        budget=None,
        futility=None,
        shard=None,
        executor=Executor.LOCAL,
        ray_address=None,
        measure_last=(),
    )
    return start_ab(opts, reporter, explain=False).run_dir


def recorded_side(
    folder: Path, ab: AbOptions, regexes: Sequence[str], side: str, reporter: Reporter
) -> Path:
    """One recorded fork of each of the given benchmarks on ``side`` alone, in ``folder``: one
    JMH step of the same build (the cache's, as the A/B will take it) and other JMH settings
    as the timing run, the flight recorder on, nothing timed and nothing compared (there is no
    other side). The manifest names ``side``'s ref alone, and its plan holds that one step,
    so ``--resume`` runs it again only when it did not finish. A folder an earlier perfproof
    began as a round of both sides is resumed as that round. No overlay: ``prove``'s A/B
    options carry none."""
    if (folder / MANIFEST).is_file():
        store = RunStore.open(folder)
        if set(store.manifest.refs) != {side}:
            return resume_ab(folder, reporter, explain=False).run_dir
    else:
        store = _side_store(folder, ab, regexes, side)
    if not store.pending_steps():
        return folder
    jdk = java_info(ab.build.java)
    cache_dir = cache_root(Path(ab.cache_dir) if ab.cache_dir else None)
    sha = str(store.manifest.side(side).sha)
    builder = SideBuilder(side, Path(ab.repo), sha, ab.build, jdk.path, store, reporter,
                          cache_dir, fresh=ab.fresh_builds)  # fmt: skip
    plan = store.plan
    with store.exclusive(), attempt(store):
        builder.prepare(1 if ab.fresh_builds else None)
        names, count, _keys = list_side(builder, plan.benchmarks, plan.jmh_options, sha)
        store.manifest.environment.jmh_versions = {side: builder.jmh_version()}
        store.manifest.environment.jmh_version = builder.jmh_version()
        store.manifest.benchmarks = {side: names}
        store.save()
        scheduler = Scheduler(
            store,
            {side: SideTarget(side, builder.launcher, names, count)},
            reporter,
            settings=plan.settings,
            lock_timeout_s=ab.lock_timeout,
            java_home=jdk.home,
            jfr_dir=store.jfr_dir(),
        )
        try:
            scheduler.run_pending()
        finally:
            reporter.close()
        finish_attempt(store)
    return folder


def _side_store(folder: Path, ab: AbOptions, regexes: Sequence[str], side: str) -> RunStore:
    """A new run folder for :func:`recorded_side`: a fixed plan of one round, its one step
    ``side``'s, one fork a benchmark."""
    ref = ab.base if side == "base" else ab.head
    sha = resolve_ref(Path(ab.repo), ref)
    one = ab.jmh_args.with_forks(1)
    plan = make_plan(1, "abab", None, tuple(regexes), one.options, stopping=FIXED,
                     settings=one.settings)  # fmt: skip
    steps = [s.model_copy(update={"index": i})
             for i, s in enumerate(s for s in plan.steps if s.side == side)]  # fmt: skip
    opts = dataclasses.replace(ab, bench=tuple(regexes), out=str(folder), jfr=True,
                               jmh_args=one, rounds=1, max_rounds=None, budget=None)  # fmt: skip
    folder.parent.mkdir(parents=True, exist_ok=True)
    store = RunStore.create(
        folder,
        RunManifest(
            id=folder.name,
            perfproof_version=__version__,
            repo=str(ab.repo),
            refs={side: SideRef(ref=ref, sha=sha)},
            options=opts.to_document(),
            build_spec=ab.build.to_block(),
        ),
    )
    store.init_steps(plan.model_copy(update={"steps": steps}))
    store.manifest.environment = environment.capture(
        jdk=java_info(ab.build.java), jmh_version=None, shas={side: sha}
    )
    store.save()
    return store


def record_unreached(
    store: RunStore,
    opts: AbOptions,
    reach: RunReach,
    benchmarks: Sequence[str],
    reporter: Reporter,
) -> RunReach:
    """``ab``'s recorder: one recorded fork a side of ``benchmarks`` (keys decided with no
    static path) in ``RUN/explain``, and ``reach`` with what the recordings showed."""
    if not benchmarks:
        return reach
    shas = {side: str(store.manifest.side(side).sha) for side in ("base", "head")}
    changes = changes_stage(Path(opts.repo), shas["base"], shas["head"])
    frames = frozenset(m.frame for m in changes.methods)
    regexes = [f"^{re.escape(b)}$" for b in benchmarks]
    reporter.message(
        f"recording one fork a side of {len(benchmarks)} benchmark(s) with no static call path "
        "to the change, to see whether it runs there (--explain off skips this)"
    )
    run_dir = recorded_round(store.path / EXPLAIN_FOLDER, opts, regexes, reporter)
    found = recorded_reach(run_dir, [reach.of(b) for b in benchmarks], frames, opts.build.java)
    steps = read_manifest(run_dir / "manifest.json").steps
    seconds = measuring_seconds(steps)
    update = {"recorded": EXPLAIN_FOLDER, "recorded_s": round(seconds, 3)}
    return reach.with_recordings(found).model_copy(update=update)
