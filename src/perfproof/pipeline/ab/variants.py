"""``perfproof ab --ref C --pair X=XOpt``: one commit, built once and measured once, its two
variants made the sides.

Real benchmark classes carry both implementations (``decode`` and ``decodeOpt``, an ``@Param
optimized`` of ``false`` and ``true``); the comparison a pull request quotes is between them.
Each round is one JMH process running both variants, so every variant gets its own forks in
every round (a fork runs one benchmark and one @Param combination, so the forks stay the
independent replicates the statistics need), and the raw file holds both: ``jmh/NN-pair.json``,
never rewritten. The comparison splits it with :mod:`perfproof.compare.variants`, so the two
variants get the same fork-level statistics, family procedure and report as two commits.

The design is fixed (``--rounds``, default :data:`perfproof.defaults.VARIANT_ROUNDS`): the
sequential looks of ``ab`` decide per key and side, and here one process measures both sides.
"""

from __future__ import annotations

import re
import time
from dataclasses import replace
from pathlib import Path

from perfproof import __version__, defaults
from perfproof.compare import compare_sides
from perfproof.compare import document as compare_document
from perfproof.compare.variants import Variants, split
from perfproof.env.cache import cache_root
from perfproof.env.java import java_info
from perfproof.errors import ExternalError, InputError
from perfproof.jmh.reader import read_results
from perfproof.measure import environment, lock
from perfproof.measure.argv import step_argv
from perfproof.measure.progress import Reporter
from perfproof.measure.sides import SideBuilder, list_side
from perfproof.measure.store import RunStore, default_runs_dir, new_run_id
from perfproof.model.documents.run import RunManifest, SideRef
from perfproof.pipeline.ab.options import AbOptions, check_options
from perfproof.pipeline.ab.run import AbOutcome
from perfproof.pipeline.lifecycle import attempt, finish_attempt
from perfproof.process import ProcessResult, run
from perfproof.report import FILE_NAMES, write_run_reports
from perfproof.report.rundir import PAIR, run_in_memory
from perfproof.workspace.git import require_repo, resolve_ref


def start_variants(opts: AbOptions, variants: Variants, reporter: Reporter) -> AbOutcome:
    """Build ``opts.base`` once, run its benchmarks ``rounds`` times, compare the variants."""
    repo = require_repo(Path(opts.repo).resolve())
    opts.repo = str(repo)
    check_options(opts)
    sha = resolve_ref(repo, opts.base)
    rounds = opts.rounds or defaults.VARIANT_ROUNDS
    jdk = java_info(opts.build.java)
    run_dir = Path(opts.out).resolve() if opts.out else default_runs_dir(repo) / new_run_id()
    ref = SideRef(ref=opts.base, sha=sha)
    manifest = RunManifest(id=run_dir.name, perfproof_version=__version__, repo=str(repo))
    manifest.refs = {"base": ref, "head": ref}
    manifest.options = opts.to_document()
    manifest.command = reproduce_argv(opts, variants)
    manifest.build_spec = opts.build.to_block()
    manifest.variants = variants.to_block()
    store = RunStore.create(run_dir, manifest)
    store.manifest.environment = environment.capture(
        jdk=jdk.to_block(), jmh_version=None, shas={"base": sha, "head": sha}
    )
    reporter.message(f"run folder: {run_dir} ({variants.describe()} at {sha[:12]})")
    try:
        with store.exclusive():
            store.add_event("started")
            with attempt(store):
                return _measure(store, opts, variants, sha, rounds, jdk.path, reporter)
    except InputError:
        if store.discard_if_unused():
            reporter.message(f"nothing was measured: removed the run folder {run_dir}")
        raise
    finally:
        reporter.close()


def _measure(
    store: RunStore,
    opts: AbOptions,
    variants: Variants,
    sha: str,
    rounds: int,
    java: str,
    reporter: Reporter,
) -> AbOutcome:
    cache_dir = cache_root(Path(opts.cache_dir) if opts.cache_dir else None)
    builder = SideBuilder(
        side="base", repo=Path(opts.repo), sha=sha, spec=opts.build, java=java,
        store=store, reporter=reporter, cache_dir=cache_dir,
    )  # fmt: skip
    artifact = builder.prepare()
    benchmarks = opts.bench or _regexes(variants)
    names, _, _ = list_side(builder, benchmarks, opts.jmh_args.options, sha)
    store.manifest.benchmarks = {"base": names, "head": names}
    store.manifest.environment.jmh_version = builder.jmh_version()
    store.save()
    files = []
    for round_no in range(1, rounds + 1):
        name = f"{round_no:02d}-{PAIR}"
        result_file = store.path / "jmh" / f"{name}.json"
        argv = step_argv(
            artifact.jmh_argv(java), benchmarks, opts.jmh_args.options, str(result_file)
        )
        reporter.message(f"round {round_no}/{rounds}: both variants of {sha[:12]}")
        log_path = store.path / "logs" / f"{name}.log"
        res = _run_when_free(argv, log_path, f"JMH round {round_no}", opts.lock_timeout, reporter)
        if not res.ok or not result_file.is_file():
            raise ExternalError(
                f"JMH failed in round {round_no} of {sha[:12]} (exit {res.returncode})", log_path
            )
        files.append(result_file)
        store.add_event("round", pending=[name])
    store.manifest.environment.load_after = environment.load_average()
    base, head = split(read_results(files), variants)
    result = compare_sides(base, head, opts.compare_options())
    if not result.comparisons:
        raise InputError(f"no key of {variants.describe()} was measured on both sides")
    result.notes.insert(0, f"{variants.describe()} (one build of {sha[:12]}, measured once)")
    document = replace(compare_document(result), extra={"run_dir": str(store.path)})
    store.write_results(document.to_json())
    context = write_run_reports(
        run_in_memory(store.path, store.manifest, document), say=reporter.message
    )[1]
    finish_attempt(store)
    report = store.path / FILE_NAMES["md"]
    return AbOutcome(store.path, result, document, report, context=context)


def _run_when_free(
    argv: list[str], log_path: Path, what: str, lock_timeout: float, reporter: Reporter
) -> ProcessResult:
    """Run one round once no other JMH holds the machine-wide lock (``--lock-timeout``).

    JMH refuses to start while another instance holds its lock; a round that waits instead of
    failing keeps a variant run usable on a shared runner, and a JMH that still finds the lock
    taken (a race with another starting) is started again until the deadline.
    """
    deadline = time.monotonic() + lock_timeout
    path = lock.lock_path_for()
    while True:
        left = max(deadline - time.monotonic(), 0.0)
        if lock.wait_for_lock(path, left, on_wait=reporter.message) < 0:
            break
        res = run(argv, log_path=log_path, capture=True, what=what)
        if not lock.refused_by_lock(res.output):
            return res
        path = lock.lock_path_from_output(res.output)
        if time.monotonic() >= deadline:
            break
        time.sleep(min(2.0, max(0.0, deadline - time.monotonic())))
    raise ExternalError(
        f"{what}: another JMH instance still holds {path} after {lock_timeout:.0f}s "
        "(--lock-timeout); not forcing past it",
        log_path,
    )


def _regexes(variants: Variants) -> tuple[str, ...]:
    """The JMH regexes that select both variants of a pair rule (all benchmarks otherwise)."""
    names = [name for pair in variants.pairs for name in pair]
    return tuple(f"(^|\\.){re.escape(n)}$" for n in names)


def reproduce_argv(opts: AbOptions, variants: Variants) -> list[str]:
    """The ``perfproof ab --ref`` command line that repeats this run."""
    argv = opts.reproduce_argv()
    i = argv.index("--base")
    argv[i : i + 4] = ["--ref", opts.base]
    if "--max-rounds" in argv:  # a variant run's design is fixed
        j = argv.index("--max-rounds")
        argv[j : j + 2] = ["--rounds", str(opts.rounds or defaults.VARIANT_ROUNDS)]
    for base, head in variants.pairs:
        argv += ["--pair", f"{base}={head}"]
    if variants.suffix:
        argv += ["--pair-suffix", variants.suffix]
    if variants.param:
        name, b, h = variants.param
        argv += ["--sides-by-param", f"{name}={b},{h}"]
    return argv
