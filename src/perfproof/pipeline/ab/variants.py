"""``perfproof ab --ref C --pair X=XOpt``: one commit, built once, its two variants the sides.

Real benchmark classes carry both implementations (``decode`` and ``decodeOpt``, an ``@Param
optimized`` of ``false`` and ``true``); the comparison a pull request quotes is between them.
A variant run is an ``ab`` run like any other — the same plan, scheduler, sequential looks,
budget, ``--resume`` and ``--jfr`` — whose steps are *pair* steps: one JMH process running
both variants, kept as ``jmh/NN-pair.json`` (never rewritten). JMH forks every benchmark and
@Param combination separately, so each variant gets its own forks in every step, the forks
stay the independent replicates the statistics need, and the raw file splits into the two
sides (:mod:`perfproof.measure.pair`). The looks stop a key when its verdict is in; the next
round asks JMH only for both variants of the keys still undecided.
"""

from __future__ import annotations

import re
from pathlib import Path

from perfproof.env.cache import cache_root
from perfproof.env.java import java_info
from perfproof.errors import InputError
from perfproof.measure.keys import group_keys
from perfproof.measure.pair import PairKeys, pair_keys
from perfproof.measure.plan import Plan, Step, round_steps
from perfproof.measure.progress import Reporter
from perfproof.measure.scheduler import Scheduler, SideTarget
from perfproof.measure.sides import SideBuilder, list_side
from perfproof.measure.store import RunStore
from perfproof.model.documents.run_plan import PAIR
from perfproof.model.documents.variants import Variants
from perfproof.pipeline.ab.options import AbOptions


def pair_scheduler(
    store: RunStore, opts: AbOptions, reporter: Reporter
) -> tuple[Scheduler, PairKeys]:
    """The commit built once (or found in the build cache) and listed: the scheduler of its
    pair steps and the keys the run decides about, each with the JMH keys of its variants."""
    plan = store.plan
    sha = str(store.manifest.side("base").sha)
    variants = _variants(store)
    jdk = java_info(opts.build.java)
    cache_dir = cache_root(Path(opts.cache_dir) if opts.cache_dir else None)
    builder = SideBuilder(
        side="base", repo=Path(opts.repo), sha=sha, spec=opts.build, java=jdk.path,
        store=store, reporter=reporter, cache_dir=cache_dir,
    )  # fmt: skip
    builder.prepare()
    names, count, listed = list_side(builder, plan.benchmarks, plan.jmh_options, sha)
    pairs = pair_keys(listed, variants)
    if not pairs.keys:
        raise InputError(
            f"no benchmark the run selects has both variants of {variants.describe()} "
            f"(listed: {', '.join(k.label() for k in listed[:4]) or 'none'})"
        )
    store.manifest.benchmarks = {"base": names, "head": names}
    store.manifest.environment.jmh_version = builder.jmh_version()
    wanted = pairs.jmh_keys(pairs.keys)
    if set(wanted) != set(listed) and not any(store.is_finished(s) for s in plan.steps):
        store.init_steps(_only(plan, wanted))  # keys no rule pairs would run for nothing
    store.save()
    reporter.message(f"{variants.describe()} at {sha[:12]}: {len(pairs.keys)} key(s) compared")
    target = SideTarget(PAIR, builder.launcher, names, count)
    scheduler = Scheduler(
        store,
        {PAIR: target},
        reporter,
        settings=store.plan.settings,
        lock_timeout_s=opts.lock_timeout,
        java_home=jdk.home,
        jfr_dir=store.jfr_dir() if opts.jfr else None,
    )
    return scheduler, pairs


def _only(plan: Plan, keys: list) -> Plan:
    """``plan`` with every planned round asking JMH for ``keys`` alone."""
    steps: list[Step] = []
    for round_no in sorted({s.round for s in plan.steps}):
        so_far = plan.model_copy(update={"steps": steps})
        steps += round_steps(so_far, round_no, group_keys(keys))
    return plan.model_copy(update={"steps": steps})


def _variants(store: RunStore) -> Variants:
    variants = store.manifest.variants
    if variants is None:
        raise RuntimeError(f"{store.path}: not a variant run")
    return variants


def variant_note(store: RunStore) -> str:
    """The comparison's first note: what the sides are, and that one build measured both."""
    sha = str(store.manifest.side("base").sha)
    return f"{_variants(store).describe()} (one build of {sha[:12]}, both in one JMH process)"


def variant_regexes(variants: Variants) -> tuple[str, ...]:
    """The JMH regexes that select both variants of a pair rule (all benchmarks otherwise)."""
    names = [name for pair in variants.pairs for name in pair]
    return tuple(f"(^|\\.){re.escape(n)}$" for n in names)


def reproduce_argv(opts: AbOptions, variants: Variants) -> list[str]:
    """The ``perfproof ab --ref`` command line that repeats this run."""
    argv = opts.reproduce_argv()
    i = argv.index("--base")
    argv[i : i + 4] = ["--ref", opts.base]
    for flag in ("--order", "--seed"):  # a pair step's order is JMH's own
        if flag in argv:
            j = argv.index(flag)
            del argv[j : j + 2]
    for base, head in variants.pairs:
        argv += ["--pair", f"{base}={head}"]
    if variants.suffix:
        argv += ["--pair-suffix", variants.suffix]
    if variants.param:
        name, b, h = variants.param
        argv += ["--sides-by-param", f"{name}={b},{h}"]
    return argv
