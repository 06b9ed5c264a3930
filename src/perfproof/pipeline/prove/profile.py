"""The profile stage of ``prove``: forks of their own recorded with JFR after the timing
forks, their diff focused on the changed classes, the Amdahl rows, each reached benchmark's
share in the changed code, bytes per operation by site, and the hunt's hypothesis beside them.

No timing comes from these forks: the flight recorder's events cost time inside the measured
loop, so they run apart from the A/B, with the same builds and JMH settings, for the keys
whose verdicts the report explains (:mod:`perfproof.pipeline.prove.profile_keys`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from perfproof.errors import InputError
from perfproof.model.changes import baseline_frames
from perfproof.model.documents.prove_measured import AbStageResult, ProfileResult
from perfproof.model.documents.prove_profile import ProfileDesign
from perfproof.model.documents.prove_reach import KeyShare
from perfproof.model.documents.prove_stages import ChangesResult, ReachedBenchmark
from perfproof.pipeline.ab.options import AbOptions
from perfproof.pipeline.prove.alloc import alloc_per_op
from perfproof.pipeline.prove.amdahl import amdahl_row
from perfproof.pipeline.prove.bundle import Bundle
from perfproof.pipeline.prove.hypothesis import focus_of, hunt_benchmark, hypothesis_focus
from perfproof.pipeline.prove.jit import jit_accounts
from perfproof.pipeline.prove.profile_forks import record, reusable_reach, runs_read
from perfproof.pipeline.prove.profile_keys import PROFILE_FORKS, choose_keys
from perfproof.pipeline.reach.share import key_share
from perfproof.profile.stacks import source_name
from perfproof.report.rundir import read_manifest
from perfproof.stats.amdahl_gains import benchmark_gains

if TYPE_CHECKING:
    from perfproof.model.documents.hunt import Hypothesis
    from perfproof.profile.census import Census
    from perfproof.profile.diff import DiffRow


def timing_rounds(run_dir: str) -> int:
    """How many rounds the timing run measured (``--jfr every`` profiles as many)."""
    manifest = read_manifest(Path(run_dir) / "manifest.json")
    done = {s.round for s in manifest.steps if s.done}
    return len(done) or PROFILE_FORKS


def planned(
    bundle: Bundle, ab_result: AbStageResult, ab: AbOptions, when: str = "after"
) -> tuple[ProfileDesign, int]:
    """The profile forks' design for this A/B's verdicts, and the rounds they run."""
    every = when != "after"
    reuse = {} if every else reusable_reach(bundle, ab, Path(ab_result.run_dir))
    design = choose_keys(ab_result.comparisons, reuse, every=every)
    rounds = max(timing_rounds(ab_result.run_dir), 2) if every else design.forks
    return design, rounds


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
    """Stage 5b: profile forks of the keys whose verdicts the report explains (every key with
    ``--jfr every``), their diff focused on the changed classes (the hunt's hypothesis's class
    first, with ``--hypothesis``), Amdahl from the verdicts, and the JIT's account of the
    calls on each benchmark's path to the change."""
    from perfproof.profile.api import run_census, run_diff
    from perfproof.profile.render import census_json, diff_doc, shown_doc

    java = ab.build.java
    design, rounds = planned(bundle, ab_result, ab, when)
    if not design.recorded:
        raise InputError("no key has a verdict for a profile to explain")
    recorded = record(bundle, ab, design, regexes, rounds)
    design = design.model_copy(update={"runs": runs_read(bundle, design), "forks": rounds})
    before, after = recorded.side("base"), recorded.side("head")
    if not before or not after:
        raise InputError(f"{recorded.folder}: no JFR recordings of both sides to compare")
    focus = focus_of(hypothesis[0] if hypothesis else None, changes.classes)
    graph = bundle.folder("profile") / "diff-flamegraph.html"
    graph.parent.mkdir(parents=True, exist_ok=True)
    diff, written = run_diff(before, after, focus, java=java, per_second=True, flamegraph=graph,
                             replicate=recorded.replicate())  # fmt: skip
    diff = dataclasses.replace(diff, rows=[r for r in diff.rows if not _harness(r, reached)])
    frames = tuple(dict.fromkeys(m.frame for m in changes.methods if m.kind != "removed"))
    sampled = (*frames, hypothesis[0].frame) if hypothesis else frames
    census, _ = run_census(before, sampled, java=java) if sampled else (None, [])
    gains = benchmark_gains(ab_result.comparisons)
    amdahl = [
        amdahl_row(
            m,
            _share(census, "cpu", m.frame, census.cpu_samples),
            _share(census, "alloc", m.frame, census.alloc_bytes),
            reached,
            ab_result.comparisons,
        )
        for m in changes.methods
        if m.kind != "removed" and census is not None
    ]
    reached_keys = [k.benchmark for k in ab_result.reach if k.reached]
    base_by_bench = recorded.by_benchmark("base")
    keys = _key_shares(base_by_bench, reached_keys, baseline_frames(changes.methods), gains, java)
    per_op = alloc_per_op(recorded.forks, reached_keys, focus, java)
    jit = jit_accounts(recorded, reached, changes.methods, java)
    return ProfileResult(
        before=tuple(str(p) for p in before),
        after=tuple(str(p) for p in after),
        focus=focus,
        diff=diff_doc(diff, top=15),
        tables=shown_doc(diff, top=15),
        census=census_json(census, top=10) if census is not None else None,
        flamegraph=str(written[0]) if written else None,
        amdahl=tuple(amdahl),
        forks_run=str(recorded.folder),
        keys=keys,
        per_op=per_op,
        design=design,
        jit=jit,
        hypothesis=(
            hypothesis_focus(
                hypothesis[0],
                hypothesis[1],
                census,
                gains,
                frames,
                _own_share(base_by_bench, hypothesis[0], gains, java),
            )
            if hypothesis
            else None
        ),
    )


def _key_shares(
    by_bench: Mapping[str, Sequence[Path]],
    benchmarks: Sequence[str],
    frames: frozenset[str],
    gains: Mapping[str, float | None],
    java: str | None,
) -> tuple[KeyShare, ...]:
    """Per reached benchmark, its own baseline recordings' share in the changed methods."""
    from perfproof.profile.load import load_profiles

    wanted = {b: list(by_bench.get(b, ())) for b in dict.fromkeys(benchmarks)}
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
    by_bench: Mapping[str, Sequence[Path]],
    h: Hypothesis,
    gains: Mapping[str, float | None],
    java: str | None,
) -> KeyShare | None:
    """The hypothesis method's share of the hunt's own benchmark's baseline profile forks."""
    bench, _ = hunt_benchmark(h, gains)
    if bench is None:
        return None
    shares = _key_shares(by_bench, [bench], frozenset({h.frame}), gains, java)
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
