"""Recorded rounds of an A/B: the same builds and JMH settings as the timing run, the flight
recorder on, nothing timed; and ``ab``'s recorder, which asks them of the decided keys no
static call path leads to.

``ab`` asks it of a decided key with no static path before its report is written; ``prove``
asks it of the benchmarks only dynamic dispatch reaches before its A/B, and records the forks
its profile stage needs. What a recording says of a benchmark is judged by
:mod:`perfproof.pipeline.reach.recorded`.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence
from pathlib import Path

from perfproof.measure.progress import Reporter
from perfproof.measure.rounds import measuring_seconds
from perfproof.measure.store import RunStore
from perfproof.model.reach import RunReach
from perfproof.pipeline.ab.options import AbOptions
from perfproof.pipeline.ab.run import resume_ab, start_ab
from perfproof.pipeline.cluster import Executor
from perfproof.pipeline.reach.changes import changes_stage
from perfproof.pipeline.reach.recorded import recorded_reach
from perfproof.report.rundir import read_manifest

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
    return dataclasses.replace(
        reach.with_recordings(found), recorded=EXPLAIN_FOLDER, recorded_s=round(seconds, 3)
    )
