"""Reach from a recording: does a benchmark run the changed code, asked of the benchmark itself.

A static call path is a hypothesis and its absence is no evidence (reflection, lambdas,
dynamic dispatch and field types hide paths); what runs is in the recording. One JFR-recorded
fork a side of the benchmarks in question (a fixed design of its own, in a folder of its own,
never among the timing forks) answers it: a CPU sample or an allocation in a changed method
says the change runs there; a baseline recording with enough samples and none there says it
does not. Fewer samples say nothing, and the words say so.

``ab`` asks it of a decided key with no static path before its report is written; ``prove``
asks it of the benchmarks only dynamic dispatch reaches before its A/B.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

from perfproof.measure.progress import Reporter
from perfproof.measure.rounds import measuring_seconds
from perfproof.measure.store import RunStore
from perfproof.model.reach import BenchReach, Reach, RunReach
from perfproof.pipeline.ab.options import AbOptions
from perfproof.pipeline.ab.run import resume_ab, start_ab
from perfproof.pipeline.cluster import Executor
from perfproof.pipeline.prove.share import key_share, recordings_by_benchmark, upper_share
from perfproof.report.rundir import read_manifest
from perfproof.units import percent

EXPLAIN_FOLDER = "explain"
"""The recorded run's folder inside an ``ab`` run folder."""
SHARE_SEEN = 0.05
"""The smallest share of a benchmark's time the changed code could take and still go unseen
in a recording called "enough": with :data:`SHARE_CONFIDENCE`, a recording without a sample
in it bounds its share below this."""
SHARE_CONFIDENCE = 0.95
MIN_SAMPLES = 59
"""Baseline CPU samples a recording needs before "none in the changed code" means something:
the fewest n with (1 − 5%)^n ≤ 1 − 95%, i.e. a share of 5% would have shown a sample 95% of
the time."""


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


def judged(
    static: BenchReach,
    recordings: Mapping[str, Sequence[Path]],
    frames: frozenset[str],
    java: str | None,
    folder: Path,
) -> BenchReach:
    """``static`` confirmed or denied by the benchmark's recordings (side → files): seen on
    either side, it reaches; absent from a baseline of enough samples, it is shown not to
    run there; anything less leaves ``static`` as it was, saying why."""
    from perfproof.profile.load import load_profiles

    shares = {
        side: key_share(static.benchmark, load_profiles(list(files), java), frames, None)
        for side, files in recordings.items()
        if files
    }
    where = ", ".join(str(p.relative_to(folder.parent)) for fs in recordings.values() for p in fs)
    for side in ("base", "head"):
        s = shares.get(side)
        if s is not None and (s.cpu_share or s.alloc_share):
            cpu = f"{percent((s.cpu_share or 0) * 100, 2, sign=False)} of {s.samples} CPU samples"
            alloc = (
                f", {percent(s.alloc_share * 100, 2, sign=False)} of bytes" if s.alloc_share else ""
            )
            why = (
                f"its {side} recording runs the changed code ({cpu}{alloc or ''} in it, {where}); "
                "no static call path was found"
            )
            return BenchReach(static.benchmark, Reach.RECORDED, why)
    base = shares.get("base")
    if base is not None and base.samples >= MIN_SAMPLES:
        bound = percent(upper_share(0, base.samples, SHARE_CONFIDENCE) * 100, 2, sign=False)
        why = (
            f"its baseline recording has {base.samples} CPU samples and none in the changed code "
            f"(a share below {bound} at {SHARE_CONFIDENCE:.0%} confidence; {where})"
        )
        return BenchReach(static.benchmark, Reach.NOT_RECORDED, why)
    n = base.samples if base is not None else 0
    more = (
        f"its baseline recording has {n} CPU samples, none in the changed code: too few to "
        f"tell (it takes {MIN_SAMPLES})"
        if base is not None
        else "no usable recording of it"
    )
    return dataclasses.replace(static, why=f"{static.why}; {more}")


def record_unreached(
    store: RunStore,
    opts: AbOptions,
    reach: RunReach,
    benchmarks: Sequence[str],
    reporter: Reporter,
) -> RunReach:
    """``ab``'s recorder: one recorded fork a side of ``benchmarks`` (keys decided with no
    static path) in ``RUN/explain``, and ``reach`` with what the recordings showed."""
    from perfproof.pipeline.prove.code import changes_stage

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


def recorded_reach(
    run_dir: Path,
    statics: Iterable[BenchReach],
    frames: frozenset[str],
    java: str | None,
) -> list[BenchReach]:
    """Each of ``statics`` judged by its recordings in the recorded run ``run_dir``."""
    by_bench = recordings_by_benchmark(run_dir)
    return [judged(s, by_bench.get(s.benchmark, {}), frames, java, run_dir) for s in statics]
