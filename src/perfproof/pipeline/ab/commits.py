"""``perfproof ab --base B --head H``: both commits built and listed, the scheduler of their
steps (one JMH process a side a round).

One build serves both sides when nothing that reaches the jar differs between them
(:func:`perfproof.measure.sides.reuse_reason`); the keys compared are those both sides list.
A variant run of one commit has its own (:mod:`perfproof.pipeline.ab.variants`).
"""

from __future__ import annotations

from pathlib import Path

from perfproof.env.cache import cache_root
from perfproof.env.java import java_info
from perfproof.measure.progress import Reporter
from perfproof.measure.rounds import sides_present
from perfproof.measure.scheduler import Scheduler, SideTarget
from perfproof.measure.sides import SideBuilder, list_side, reuse_reason
from perfproof.measure.store import RunStore
from perfproof.model import SIDES
from perfproof.model.documents.suite import SuiteKey
from perfproof.pipeline.ab import reach as ab_reach
from perfproof.pipeline.ab.options import AbOptions


def commit_scheduler(
    store: RunStore, opts: AbOptions, reporter: Reporter, explain: bool
) -> tuple[Scheduler, list[SuiteKey], dict[str, SideBuilder]]:
    """Both commits built (one build serving both when nothing differs) and listed: the
    scheduler of their steps and the keys both sides list."""
    plan = store.plan
    repo = Path(opts.repo)
    shas = {side: str(store.manifest.side(side).sha) for side in SIDES}
    spec = opts.build
    jdk = java_info(opts.build.java)
    cache_dir = cache_root(Path(opts.cache_dir) if opts.cache_dir else None)
    builders = {
        side: SideBuilder(
            side=side,
            repo=repo,
            sha=shas[side],
            spec=spec,
            java=jdk.path,
            store=store,
            reporter=reporter,
            cache_dir=cache_dir,
            fresh=opts.fresh_builds,
            overlay_from=shas["head"] if side == "base" and opts.overlay else None,
            overlay_paths=opts.overlay if side == "base" else (),
        )
        for side in SIDES
    }
    why = reuse_reason(
        repo, shas, spec, cache_dir, fresh=opts.fresh_builds, overlay=bool(opts.overlay)
    )
    if why is not None:
        builders["head"].serves = (builders["base"], why)
    pending = store.pending_steps()
    first_round = min((s.round for s in pending), default=1)
    targets: dict[str, SideTarget] = {}
    listed = {}
    for side in SIDES:
        builder = builders[side]
        builder.prepare(first_round if opts.fresh_builds else None)
        overlay = store.manifest.overlay
        if side == "base" and opts.overlay and overlay is not None:
            overlay.files = list(builder.overlaid)
            store.save()
        names, count, listed[side] = list_side(
            builder, plan.benchmarks, plan.jmh_options, shas[side]
        )
        targets[side] = SideTarget(side, builder.launcher, names, count)
    env = store.manifest.environment
    versions = {side: builders[side].jmh_version() for side in SIDES}
    env.jmh_versions = dict(versions)
    env.jmh_version = " / ".join(sorted({v for v in versions.values() if v})) or None
    store.manifest.benchmarks = {side: list(targets[side].benchmarks) for side in SIDES}
    if explain and store.manifest.reach is None:
        ab_reach.reach_before_run(store, opts, reporter)
    store.save()
    scheduler = Scheduler(
        store,
        targets,
        reporter,
        settings=plan.settings,
        lock_timeout_s=opts.lock_timeout,
        java_home=jdk.home,
        jfr_dir=store.jfr_dir() if opts.jfr else None,
    )
    return scheduler, sides_present(listed["base"], listed["head"]), builders
