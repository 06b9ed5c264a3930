"""The profile stage of ``prove``: forks of their own recorded with JFR after the timing
forks, their diff focused on the changed classes, the Amdahl rows, each reached benchmark's
share in the changed code, bytes per operation by site, and the hunt's hypothesis beside them.

No timing comes from these forks: the flight recorder's events cost time inside the measured
loop, so they run apart from the A/B, with the same keys, builds and JMH settings.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from perfproof.errors import InputError
from perfproof.measure.jfr_args import side_recordings
from perfproof.measure.progress import make_reporter
from perfproof.model.documents.compare_wire import ComparisonDoc
from perfproof.model.documents.prove_measured import (
    AbStageResult,
    AmdahlRow,
    ProfileResult,
)
from perfproof.model.documents.prove_reach import KeyShare
from perfproof.model.documents.prove_stages import (
    ChangesResult,
    ReachedBenchmark,
)
from perfproof.model.enums import Direction
from perfproof.pipeline.ab.options import AbOptions
from perfproof.pipeline.ab.run import resume_ab, start_ab
from perfproof.pipeline.prove.alloc import alloc_per_op
from perfproof.pipeline.prove.bundle import Bundle
from perfproof.pipeline.prove.hypothesis import focus_of, hunt_benchmark, hypothesis_focus
from perfproof.pipeline.prove.share import key_share, recordings_by_benchmark
from perfproof.profile.stacks import source_name
from perfproof.report.rundir import read_manifest
from perfproof.stats.amdahl import amdahl_ceiling

if TYPE_CHECKING:
    from perfproof.model.documents.hunt import Hypothesis
    from perfproof.profile.census import Census
    from perfproof.profile.diff import DiffRow


PROFILE_ROUNDS = 3
"""Rounds of profile forks: each round runs every key once a side, and a round's step (all
its keys' forks added up) is one replicate of the diff; two are the fewest that give a change
an interval, three give it two degrees of freedom instead of one."""


def timing_rounds(run_dir: str) -> int:
    """How many rounds the timing run measured (``--jfr every`` profiles as many)."""
    manifest = read_manifest(Path(run_dir) / "manifest.json")
    done = {s.round for s in manifest.steps if s.done}
    return len(done) or PROFILE_ROUNDS


def _step(recording: Path) -> str:
    """A recording's replicate: its step folder, ``r<round>-<side>``."""
    return recording.parent.name


def profile_forks(bundle: Bundle, ab: AbOptions, regexes: Sequence[str], rounds: int) -> Path:
    """The recorded forks, a fixed design of their own in ``profile/forks``: the same keys,
    builds and JMH settings as the timing run, every fork recorded, none of them timed."""
    folder = bundle.folder("profile") / "forks"
    if (folder / "manifest.json").is_file():
        outcome = resume_ab(folder, make_reporter(), explain=False)
    else:
        folder.parent.mkdir(parents=True, exist_ok=True)
        opts = dataclasses.replace(
            ab,
            bench=tuple(regexes),
            out=str(folder),
            jfr=True,
            rounds=rounds,
            max_rounds=None,
            budget=None,
            futility=None,
        )
        outcome = start_ab(opts, make_reporter(), explain=False)
    return Path(outcome.jfr_dir or folder / "jfr")


def per_call_gain(comparison: ComparisonDoc) -> float | None:
    """The benchmark's own speed-up, base time / feature time − 1, from its A/B ratio."""
    ratio = comparison.ratio
    if ratio is None or not math.isfinite(ratio) or ratio <= 0:
        return None
    return 1.0 / ratio - 1.0 if comparison.direction is Direction.LOWER else ratio - 1.0


def profile_stage(
    bundle: Bundle,
    ab_result: AbStageResult,
    changes: ChangesResult,
    reached: Sequence[ReachedBenchmark],
    ab: AbOptions,
    regexes: Sequence[str],
    when: str = "after",
    hypothesis: tuple[Hypothesis, str] | None = None,
) -> ProfileResult:
    """Stage 5b: profile forks of both sides, their diff focused on the changed classes (the
    hunt's hypothesis's class first, with ``--hypothesis``), and Amdahl."""
    from perfproof.profile.api import run_census, run_diff
    from perfproof.profile.render import census_json, diff_doc, diff_text, shown_doc

    java = ab.build.java
    rounds = PROFILE_ROUNDS if when == "after" else max(timing_rounds(ab_result.run_dir), 2)
    jfr_dir = profile_forks(bundle, ab, regexes, rounds)
    before, after = side_recordings(jfr_dir, "base"), side_recordings(jfr_dir, "head")
    if not before or not after:
        raise InputError(f"{jfr_dir}: no JFR recordings of both sides to compare")
    focus = focus_of(hypothesis[0] if hypothesis else None, changes.classes)
    graph = bundle.folder("profile") / "diff-flamegraph.html"
    graph.parent.mkdir(parents=True, exist_ok=True)
    diff, written = run_diff(
        before, after, focus, java=java, per_second=True, flamegraph=graph, replicate=_step
    )
    diff = dataclasses.replace(diff, rows=[r for r in diff.rows if not _harness(r, reached)])
    frames = tuple(dict.fromkeys(m.frame for m in changes.methods if m.kind != "removed"))
    sampled = (*frames, hypothesis[0].frame) if hypothesis else frames
    census, _ = run_census(before, sampled, java=java) if sampled else (None, [])
    gains = {c.benchmark: per_call_gain(c) for c in ab_result.comparisons
             if c.metric == "primary"}  # fmt: skip
    amdahl = []
    for m in changes.methods:
        if m.kind == "removed" or census is None:
            continue
        frame = m.frame
        cpu = _share(census, "cpu", frame, census.cpu_samples)
        alloc = _share(census, "alloc", frame, census.alloc_bytes)
        bench = next((r.benchmark for r in reached if r.changed == m.label), None)
        gain = gains.get(bench) if bench else None
        ceiling = amdahl_ceiling(cpu, gain) if cpu and gain is not None and gain > -1 else None
        amdahl.append(
            AmdahlRow(
                method=m.label,
                frame=frame,
                cpu_share=cpu,
                alloc_share=alloc,
                benchmark=bench,
                per_call_gain=gain,
                ceiling_speedup=ceiling.speedup if ceiling else None,
            )
        )
    reached_keys = [k.benchmark for k in ab_result.reach if k.reached]
    keys = _key_shares(jfr_dir.parent, reached_keys, frozenset(frames), gains, java)
    per_op = alloc_per_op(jfr_dir.parent, reached_keys, focus, java)
    return ProfileResult(
        before=tuple(str(p) for p in before),
        after=tuple(str(p) for p in after),
        focus=focus,
        diff=diff_doc(diff, top=15),
        diff_md=diff_text(diff, top=15, md=True),
        tables=shown_doc(diff, top=15),
        census=census_json(census, top=10) if census is not None else None,
        flamegraph=str(written[0]) if written else None,
        amdahl=tuple(amdahl),
        forks_run=str(jfr_dir.parent),
        keys=keys,
        per_op=per_op,
        hypothesis=(
            hypothesis_focus(
                hypothesis[0],
                hypothesis[1],
                census,
                gains,
                frames,
                _own_share(jfr_dir.parent, hypothesis[0], gains, java),
            )
            if hypothesis
            else None
        ),
    )


def _key_shares(
    run_dir: Path,
    benchmarks: Sequence[str],
    frames: frozenset[str],
    gains: Mapping[str, float | None],
    java: str | None,
) -> tuple[KeyShare, ...]:
    """Per reached benchmark, its own baseline recordings' share in the changed methods."""
    from perfproof.profile.load import load_profiles

    by_bench = recordings_by_benchmark(run_dir)
    wanted = {b: by_bench.get(b, {}).get("base", []) for b in benchmarks}
    paths = [p for recs in wanted.values() for p in recs]
    if not frames or not paths:
        return ()
    loaded = dict(zip(paths, load_profiles(paths, java), strict=True))
    return tuple(
        key_share(b, [loaded[p] for p in recs], frames, gains.get(b))
        for b, recs in wanted.items()
        if recs
    )


def _own_share(
    run_dir: Path, h: Hypothesis, gains: Mapping[str, float | None], java: str | None
) -> KeyShare | None:
    """The hypothesis method's share of the hunt's own benchmark's baseline profile forks."""
    bench, _ = hunt_benchmark(h, gains)
    if bench is None:
        return None
    shares = _key_shares(run_dir, [bench], frozenset({h.frame}), gains, java)
    return shares[0] if shares else None


def _harness(row: DiffRow, reached: Sequence[ReachedBenchmark]) -> bool:
    """A frame of the benchmark or of JMH's generated stubs: their share only mirrors what the
    change did below them, and naming a benchmark beside a profile number would read as a
    claim about the benchmark's score."""
    classes = {r.benchmark.rsplit(".", 1)[0] for r in reached}
    for frame in (row.frame, row.focus_frame or ""):
        if ".jmh_generated." in frame or frame.startswith("org.openjdk.jmh."):
            return True
        if any(frame.replace("$", ".").startswith(c + ".") for c in classes):  # JMH: Outer.Inner
            return True
    return False


def _share(census: Census, kind: str, frame: str, total: float) -> float | None:
    """Share of the baseline's samples (or bytes) spent in or below ``frame``."""
    if not total:
        return None
    name = source_name(frame)  # JFR spells a nested class Outer$Inner, the change Outer.Inner
    below = sum(
        r.total for r in census.focus_rows if r.kind == kind and source_name(r.frame) == name
    )
    return min(below / total, 1.0) if below else 0.0
