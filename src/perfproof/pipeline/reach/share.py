"""Each reached benchmark's share in the changed code, and the ceiling that share sets.

The recorded forks of ``prove`` are split by benchmark (JMH runs a step's benchmarks one after
another, fork by fork, and names its recordings in that order), so a share is that of one
benchmark's own baseline, never diluted by another benchmark's samples. The ceiling is the
speed-up removing the changed code entirely would give (Amdahl), taken at the upper
Clopper–Pearson bound of the share: a share near 100 % measured from few samples must not set
a ceiling the data cannot support. An improvement an order of magnitude beyond that ceiling,
measured on enough samples, is one the change cannot explain.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from scipy import special

from perfproof import defaults
from perfproof.jmh.entries import read_entry_file
from perfproof.model.documents.prove_reach import KeyShare
from perfproof.model.documents.prove_stages import Bounded
from perfproof.profile.outside import outside
from perfproof.profile.stacks import Profile, source_name
from perfproof.report.rundir import read_manifest

FAR_BEYOND = 10.0
"""An improvement this many times its ceiling is one the change cannot explain. Not less: a
change can let the JIT simplify the code around it too (on the demo, a publish that returns
early made its benchmark 268× as fast on a share whose ceiling is 46×)."""
MIN_SAMPLES = 200
"""Fewer baseline samples than this judge no improvement: a stray sample or two outside the
changed code would set a ceiling the code never had (on the demo, 15 of 16 samples)."""


def recordings_by_benchmark(run_dir: Path) -> dict[str, dict[str, list[Path]]]:
    """Benchmark → side → its recordings, from the run's manifest and JMH results."""
    out: dict[str, dict[str, list[Path]]] = {}
    for entry in read_manifest(run_dir / "manifest.json").steps:
        recordings = entry.recordings or []
        try:
            results = read_entry_file(run_dir / str(entry.result)) or []
        except (OSError, ValueError):
            continue
        names = [str(r.benchmark) for r in results for _ in range(int(r.forks or 1))]
        if len(names) != len(recordings):
            continue  # a step whose forks cannot be told apart attributes nothing
        side = str(entry.side)
        for name, rel in zip(names, recordings, strict=True):
            out.setdefault(name, {}).setdefault(side, []).append(run_dir / rel)
    return out


def _inside(stack: Sequence[str], frames: frozenset[str]) -> bool:
    """Whether a stack holds one of ``frames`` (spelled by :func:`source_name`)."""
    return any(source_name(f) in frames for f in stack)


def upper_share(inside: int, total: int, confidence: float = defaults.CONFIDENCE) -> float:
    """The one-sided upper Clopper–Pearson bound of a share of ``inside`` in ``total``."""
    if total <= 0 or inside >= total:
        return 1.0
    return float(special.betaincinv(inside + 1, total - inside, confidence))


def key_share(
    benchmark: str,
    profiles: Sequence[Profile],
    frames: frozenset[str],
    gain: float | None,
    confidence: float = defaults.CONFIDENCE,
) -> KeyShare:
    """The changed frames' share of one benchmark's baseline samples and bytes (the JVM's and
    the harness's own work left out), its ceiling, and whether ``gain`` is far beyond it."""
    frames = frozenset(source_name(f) for f in frames)
    total = inside = 0
    bytes_total = bytes_inside = 0
    for p in profiles:
        for stack, w in p.cpu.items():
            if outside(stack):
                continue
            total += w
            inside += w if _inside(stack, frames) else 0
        for (stack, _cls), b in p.alloc.items():
            if outside(stack):
                continue
            bytes_total += b
            bytes_inside += b if _inside(stack, frames) else 0
    cpu = inside / total if total else None
    alloc = bytes_inside / bytes_total if bytes_total else None
    bound = upper_share(inside, total, confidence) if total else None
    ceiling = None if bound is None or bound >= 1.0 else 1.0 / (1.0 - bound) - 1.0
    beyond = (
        gain is not None
        and ceiling is not None
        and total >= MIN_SAMPLES
        and gain > FAR_BEYOND * ceiling
    )
    return KeyShare(benchmark=benchmark, cpu_share=cpu, alloc_share=alloc, samples=total,
                    ceiling=ceiling, gain=gain, beyond=beyond)  # fmt: skip


def negligible(share: KeyShare, threshold: float, confidence: float) -> Bounded | None:
    """A share in the changed code some samples have, whose upper bound still caps the speed-up
    below ``threshold``: the A/B could not find an effect worth reporting there. Asked of a
    bound, not of "any sample": one benchmark's one or four samples in 2,000 come and go from
    one recording to the next (kryo's ``FieldSerializerBenchmark.tagged`` had 0 of 2,257 and
    4 of 2,238 on two runs, ceilings of 0.20 % and 0.52 %), while the bound keeps both below
    a 1 % threshold."""
    if share.alloc_share or not share.cpu_share or share.ceiling is None:
        return None
    if share.ceiling >= threshold:
        return None
    inside = round(share.cpu_share * share.samples)
    return Bounded(inside=inside, ceiling=share.ceiling, threshold=threshold,
                   confidence=confidence)  # fmt: skip
