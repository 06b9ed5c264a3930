"""The pair step of a variant run: one JMH process measuring both variants of one commit, and
how its keys, forks and recordings become the two sides.

A variant run (``ab --ref C --pair X=XOpt``) decides about keys under the names both sides
share (the base's: ``X``, or ``X`` without the @Param that splits the sides), but JMH is asked
for its own keys: ``X`` and ``XOpt``, or ``X(optimized=false)`` and ``X(optimized=true)``. The
round loop plans rounds, catch-up forks and warm-ups in shared names; :class:`PairKeys` turns
them into the JMH keys a pair step runs. Each JMH fork runs one benchmark at one @Param
combination, so a pair step's forks are independent replicates of one variant each, and the
step's raw file splits into the two sides (:func:`pair_forks`), its recordings too
(:func:`split_recordings`).
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from perfproof.jmh.console import fork_keys
from perfproof.jmh.reader import read_results
from perfproof.measure.jfr_args import step_folder
from perfproof.measure.plan import Step
from perfproof.model import SIDES, SideSamples
from perfproof.model.documents.suite import SuiteKey
from perfproof.model.documents.variants import Variants
from perfproof.model.variants import split


@dataclass(frozen=True)
class PairKeys:
    """The keys a variant run decides about, each with the JMH key of either side."""

    members: dict[SuiteKey, dict[str, SuiteKey]]
    """Shared key → side → the JMH key that measures that side."""

    @property
    def keys(self) -> list[SuiteKey]:
        return sorted(self.members)

    def jmh_keys(self, keys: Iterable[SuiteKey], side: str | None = None) -> list[SuiteKey]:
        """The JMH keys that measure ``keys`` (on one side, or on both)."""
        sides = SIDES if side is None else (side,)
        return sorted({self.members[k][s] for k in keys for s in sides})

    def jmh_benchmarks(self) -> dict[str, str]:
        """JMH benchmark name → the benchmark name both sides share."""
        return {m.benchmark: key.benchmark for key, by in self.members.items() for m in by.values()}


def pair_keys(listed: Sequence[SuiteKey], variants: Variants) -> PairKeys:
    """The keys JMH listed, paired by the rule; a key whose other variant is not listed (or
    that no rule names) is left out, as :func:`split` leaves out its entries."""
    members: dict[SuiteKey, dict[str, SuiteKey]] = {}
    for key in listed:
        placed = variants.place(key.benchmark, key.params)
        if placed is not None:
            side, benchmark, params = placed
            members.setdefault(SuiteKey(benchmark=benchmark, params=params), {})[side] = key
    return PairKeys({k: by for k, by in members.items() if set(by) == set(SIDES)})


def pair_forks(files: Sequence[Path], variants: Variants) -> tuple[SideSamples, SideSamples]:
    """Base and head of the pair steps' raw files, all of them read together (a catch-up
    step may hold one variant only)."""
    return split(read_results(list(files)), variants)


def side_folder(step: Step, side: str) -> str:
    """The recordings folder's side name of one variant of a pair step (``base``, ``head-p2``)."""
    return side if step.part == 1 else f"{side}-p{step.part}"


def clear_side_folders(jfr_dir: Path, step: Step) -> None:
    """Empty a pair step's per-side folders before it runs (again): what is there comes from
    an attempt whose numbers were not kept."""
    for side in SIDES:
        folder = step_folder(jfr_dir, step.round, side_folder(step, side))
        if folder.is_dir():
            shutil.rmtree(folder)


def split_recordings(
    jfr_dir: Path, step: Step, recordings: list[Path], log: Iterable[str], variants: Variants
) -> list[Path]:
    """Move a pair step's ``fork-N.jfr`` into one folder per side (``r<round>-base``,
    ``r<round>-head``), numbered per side in the order the forks ran.

    The JMH log names every fork's benchmark and @Param values in the order the JVMs started,
    which is the order of ``recordings``. When the two do not line up (a fork the log does
    not show), the recordings stay together in the step's own folder rather than risk giving
    a recording to the wrong side.
    """
    forks = fork_keys(log)
    sides = [variants.place(bench, params) for bench, params in forks]
    if len(forks) != len(recordings) or any(s is None for s in sides):
        return recordings
    moved: list[Path] = []
    counts = dict.fromkeys(SIDES, 0)
    for recording, placed in zip(recordings, sides, strict=True):
        side = placed[0] if placed else ""
        counts[side] += 1
        folder = step_folder(jfr_dir, step.round, side_folder(step, side))
        folder.mkdir(parents=True, exist_ok=True)
        target = folder / f"fork-{counts[side]}.jfr"
        os.replace(recording, target)
        moved.append(target)
    with_nothing = recordings[0].parent if recordings else None
    if with_nothing is not None and with_nothing.is_dir() and not any(with_nothing.iterdir()):
        with_nothing.rmdir()
    return moved
