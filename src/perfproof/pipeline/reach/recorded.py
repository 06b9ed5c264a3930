"""Reach from a recording: does a benchmark run the changed code, asked of the benchmark itself.

A static call path is a hypothesis and its absence is no evidence (reflection, lambdas,
dynamic dispatch and field types hide paths); what runs is in the recording. One JFR-recorded
fork a side of the benchmarks in question (a fixed design of its own, in a folder of its own,
never among the timing forks, run by :mod:`perfproof.pipeline.ab.recorded`) answers it: a CPU
sample or an allocation in a changed method says the change runs there; a baseline recording
with enough samples and none there says it does not. Fewer samples say nothing, and the words
say so.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

from perfproof.model.documents.reach import BenchReach
from perfproof.model.reach import Reach
from perfproof.pipeline.reach.share import key_share, recordings_by_benchmark, upper_share
from perfproof.units import percent

SHARE_SEEN = 0.05
"""The smallest share of a benchmark's time the changed code could take and still go unseen
in a recording called "enough": with :data:`SHARE_CONFIDENCE`, a recording without a sample
in it bounds its share below this."""
SHARE_CONFIDENCE = 0.95
MIN_SAMPLES = 59
"""Baseline CPU samples a recording needs before "none in the changed code" means something:
the fewest n with (1 − 5%)^n ≤ 1 − 95%, i.e. a share of 5% would have shown a sample 95% of
the time."""


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
            return BenchReach(benchmark=static.benchmark, kind=Reach.RECORDED, why=why)
    base = shares.get("base")
    if base is not None and base.samples >= MIN_SAMPLES:
        bound = percent(upper_share(0, base.samples, SHARE_CONFIDENCE) * 100, 2, sign=False)
        why = (
            f"its baseline recording has {base.samples} CPU samples and none in the changed code "
            f"(a share below {bound} at {SHARE_CONFIDENCE:.0%} confidence; {where})"
        )
        return BenchReach(benchmark=static.benchmark, kind=Reach.NOT_RECORDED, why=why)
    n = base.samples if base is not None else 0
    more = (
        f"its baseline recording has {n} CPU samples, none in the changed code: too few to "
        f"tell (it takes {MIN_SAMPLES})"
        if base is not None
        else "no usable recording of it"
    )
    return static.model_copy(update={"why": f"{static.why}; {more}"})


def recorded_reach(
    run_dir: Path,
    statics: Iterable[BenchReach],
    frames: frozenset[str],
    java: str | None,
) -> list[BenchReach]:
    """Each of ``statics`` judged by its recordings in the recorded run ``run_dir``."""
    by_bench = recordings_by_benchmark(run_dir)
    return [judged(s, by_bench.get(s.benchmark, {}), frames, java, run_dir) for s in statics]
