"""``prove --reach profile`` (the default): look before measuring a benchmark only dynamic
dispatch reaches.

The call graph reaches such a benchmark through a call to a supertype's declaration (an
interface method the changed class implements); which override runs is decided at run time,
so the benchmark may never run the changed code at all, and measuring it spends the A/B's
time on a key the change cannot move. Before the A/B, one recorded fork a side of just those
benchmarks (in ``BUNDLE/reach``, the same builds and other JMH settings, JFR on) shows which ones
do: a benchmark whose baseline recording has CPU samples but none of them, and no allocation,
in a changed method is left out of the A/B, and the report says so with the counts. A
benchmark with no usable recording, or any sample in the change, is measured as usual.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path

from perfproof.measure.progress import make_reporter
from perfproof.model.documents.prove_stages import (
    BenchmarksResult,
    ChangesResult,
    DispatchSkip,
)
from perfproof.pipeline.ab.options import AbOptions
from perfproof.pipeline.ab.recorded import recorded_round
from perfproof.pipeline.prove.bundle import Bundle
from perfproof.pipeline.reach.share import key_share, recordings_by_benchmark


def reach_forks(bundle: Bundle, ab: AbOptions, regexes: Sequence[str]) -> Path:
    """One recorded round of the given benchmarks on both sides, one fork a side, in
    ``BUNDLE/reach`` (:func:`perfproof.pipeline.ab.recorded.recorded_round`)."""
    return recorded_round(bundle.folder("reach"), ab, regexes, make_reporter())


def probe_dispatch(
    bundle: Bundle, ab: AbOptions, benchmarks: BenchmarksResult | None, changes: ChangesResult
) -> tuple[DispatchSkip, ...]:
    """The dispatch-only benchmarks whose baseline recording never sampled a changed method."""
    from perfproof.profile.load import load_profiles

    if benchmarks is None or benchmarks.source != "call graph":
        return ()  # the user's --bench is measured as asked
    only = [r for r in benchmarks.reached if r.via_dispatch]
    frames = frozenset(m.frame for m in changes.methods if m.kind != "removed")
    if not only or not frames:
        return ()
    by_bench = recordings_by_benchmark(reach_forks(bundle, ab, [r.regex for r in only]))
    skipped = []
    for r in only:
        recordings = by_bench.get(r.benchmark, {}).get("base", [])
        if not recordings:
            continue  # nothing recorded to judge by: measure it
        share = key_share(r.benchmark, load_profiles(recordings, ab.build.java), frames, None)
        if share.samples and not share.cpu_share and not share.alloc_share:
            rel = [str(p.relative_to(bundle.path)) for p in recordings]
            skipped.append(DispatchSkip.of(r.benchmark, r.dispatch, share.samples, rel[0]))
    return tuple(skipped)


def measured(regexes: Sequence[str], skipped: Sequence[DispatchSkip]) -> tuple[str, ...]:
    """The A/B's regexes less those of the benchmarks left out."""
    out = {f"^{re.escape(s.benchmark)}$" for s in skipped}
    return tuple(r for r in regexes if r not in out)
