"""``prove --reach profile`` (the default): look before measuring a benchmark only dynamic
dispatch reaches.

The call graph reaches such a benchmark through a call to a supertype's declaration (an
interface method the changed class implements); which override runs is decided at run time,
so the benchmark may never run the changed code at all, and measuring it spends the A/B's
time on a key the change cannot move. Before the A/B, the reach round, one recorded baseline
fork of each of just those benchmarks (in ``BUNDLE/reach``, one JMH step of the baseline's
build with the other JMH settings of the A/B, JFR on), shows which ones do: a benchmark whose
baseline recording has CPU samples but none of them, and no allocation, in a changed method
is left out of the A/B, and so is one whose few samples there bound the speed-up removing the
changed code could give below the A/B's threshold (:func:`negligible`); the report says so with
the counts. A benchmark with no usable recording, an allocation in the change, or a share the
samples cannot bound below the threshold is measured as usual. The head is not recorded: the
decision reads the baseline alone (the code the change replaces either runs there or not),
and a head fork would cost a second JMH step as long as the first for nothing.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path

from perfproof.measure.progress import format_duration, make_reporter
from perfproof.model.changes import baseline_frames
from perfproof.model.documents.prove_stages import (
    BenchmarksResult,
    ChangesResult,
    DispatchSkip,
)
from perfproof.pipeline.ab.options import AbOptions
from perfproof.pipeline.ab.recorded import recorded_side
from perfproof.pipeline.prove.bundle import Bundle
from perfproof.pipeline.prove.eta import reach_estimate
from perfproof.pipeline.prove.profile_forks import REACH
from perfproof.pipeline.reach.share import key_share, negligible, recordings_by_benchmark


def reach_forks(bundle: Bundle, ab: AbOptions, regexes: Sequence[str]) -> Path:
    """One recorded baseline fork of each of the given benchmarks, one JMH step, in
    ``BUNDLE/reach`` (:func:`perfproof.pipeline.ab.recorded.recorded_side`); said first with
    what it costs at least, since no stage's ETA counts it before the A/B has listed its keys
    (a benchmark's @Param product is known only once JMH lists it: on kryo 8 benchmarks were
    31 keys, 130 s where one key each would be 39 s)."""
    reporter = make_reporter()
    seconds = reach_estimate(ab.jmh_args.with_forks(1).settings, len(regexes))
    reporter.message(
        f"prove: the reach round: one recorded baseline fork of each of the {len(regexes)} "
        f"benchmark(s) only dynamic dispatch reaches, in 1 JMH step (at least "
        f"{format_duration(seconds)}, a fork of one key each; the step's own estimate follows "
        "once JMH has listed their @Param keys), to leave out of the A/B those that never run "
        "the change or run it too rarely to move them by the threshold"
    )
    return recorded_side(bundle.folder(REACH), ab, regexes, "base", reporter)


def probe_dispatch(
    bundle: Bundle, ab: AbOptions, benchmarks: BenchmarksResult | None, changes: ChangesResult
) -> tuple[tuple[str, ...], tuple[DispatchSkip, ...]]:
    """The dispatch-only benchmarks the reach round recorded (none when it had nothing to
    look at), and those of them whose baseline recording never sampled a changed method, or
    sampled it too rarely for the change to move them by the A/B's threshold."""
    from perfproof.profile.load import load_profiles

    if benchmarks is None or benchmarks.source != "call graph":
        return (), ()  # the user's --bench is measured as asked
    only = [r for r in benchmarks.reached if r.via_dispatch]
    frames = baseline_frames(changes.methods)
    if not only or not frames:
        return (), ()
    by_bench = recordings_by_benchmark(reach_forks(bundle, ab, [r.regex for r in only]))
    skipped = []
    for r in only:
        recordings = by_bench.get(r.benchmark, {}).get("base", [])
        if not recordings:
            continue  # nothing recorded to judge by: measure it
        profiles = load_profiles(recordings, ab.build.java)
        share = key_share(r.benchmark, profiles, frames, None, ab.confidence)
        bounded = negligible(share, ab.threshold, ab.confidence)
        never = share.samples and not share.cpu_share and not share.alloc_share
        if never or bounded is not None:
            rel = str(recordings[0].relative_to(bundle.path))
            skipped.append(DispatchSkip.of(r.benchmark, r.dispatch, share.samples, rel, bounded))
    return tuple(r.benchmark for r in only), tuple(skipped)


def measured(regexes: Sequence[str], skipped: Sequence[DispatchSkip]) -> tuple[str, ...]:
    """The A/B's regexes less those of the benchmarks left out."""
    out = {f"^{re.escape(s.benchmark)}$" for s in skipped}
    return tuple(r for r in regexes if r not in out)
