"""Allocation per operation of each reached benchmark, site by site, baseline → feature.

A profile diff in bytes per second moves when a benchmark merely runs faster, and a share of
a recording grows when the rest of it shrinks (the demo's ``Arrays.copyOf`` "grew +191,813 %"
once the benchmark's own allocation was gone). JMH's ``-prof gc`` measured every profile
fork's bytes per operation, and each fork has a recording of its own: a site's share of the
recording's bytes times the fork's bytes per operation is what the site costs per operation,
with an interval across forks. These are the absolute figures a reviewer compares with the
B/op column of the results.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from perfproof.errors import InputError
from perfproof.jmh.reader import read_file
from perfproof.model import ALLOC_NORM, PRIMARY
from perfproof.model.documents.prove_measured import AllocPerOp
from perfproof.report.rundir import read_manifest

TOP_SITES = 8
"""Sites shown per benchmark: the largest changes in bytes per operation."""


@dataclass(frozen=True)
class ForkRecording:
    """One profile fork: its recording and the bytes per operation JMH measured in it."""

    path: Path
    bytes_per_op: float | None


def fork_recordings(run_dir: Path) -> dict[str, dict[str, list[ForkRecording]]]:
    """Benchmark entry (label) → side → its forks' recordings with their bytes per operation,
    from the run's manifest and its JMH results (a step lists one recording per fork, in the
    order JMH ran the forks)."""
    out: dict[str, dict[str, list[ForkRecording]]] = {}
    for step in read_manifest(run_dir / "manifest.json").steps:
        recordings = step.recordings or []
        try:
            samples = read_file(run_dir / str(step.result))
        except (InputError, OSError):
            continue
        alloc = {s.key.entry(): s for s in samples if s.key.metric == ALLOC_NORM}
        forks: list[tuple[str, float | None]] = []
        for s in samples:
            if s.key.metric != PRIMARY:
                continue
            per_op = [float(v) for v in alloc[s.key].fork_means()] if s.key in alloc else []
            forks += [(s.key.label(), per_op[i] if i < len(per_op) else None)
                      for i in range(len(s.fork_means()))]  # fmt: skip
        if len(forks) != len(recordings):
            continue  # forks that cannot be told apart are attributed to no benchmark
        side = str(step.side)
        for (label, fork_per_op), rel in zip(forks, recordings, strict=True):
            out.setdefault(label, {}).setdefault(side, []).append(
                ForkRecording(run_dir / str(rel), fork_per_op)
            )
    return out


def alloc_per_op(
    forks: Mapping[str, Mapping[str, Sequence[ForkRecording]]],
    benchmarks: Sequence[str],
    focus: tuple[str, ...],
    java: str | None,
) -> tuple[AllocPerOp, ...]:
    """Per entry (label → side → its recorded forks) of a reached benchmark whose every fork
    has a recording and a B/op figure on both sides: its allocation sites in bytes per
    operation."""
    from perfproof.profile.diff import diff_per_operation
    from perfproof.profile.load import load_profiles
    from perfproof.profile.render import diff_doc, shown_doc
    from perfproof.profile.stacks import normalize_prefix

    prefixes = tuple(p for p in (normalize_prefix(x) for x in focus) if p)
    wanted = tuple(benchmarks)
    out = []
    for label, sides in sorted(forks.items()):
        if not label.startswith(tuple(b + "(" for b in wanted) + tuple(b + " " for b in wanted)):
            continue
        base, head = list(sides.get("base", [])), list(sides.get("head", []))
        known = [f for f in (*base, *head) if f.bytes_per_op is not None]
        if not base or not head or len(known) != len(base) + len(head):
            continue
        profiles = load_profiles([f.path for f in (*base, *head)], java)
        per_op = ([f.bytes_per_op or 0.0 for f in base], [f.bytes_per_op or 0.0 for f in head])
        d = diff_per_operation(profiles[: len(base)], profiles[len(base) :], per_op, prefixes)
        out.append(
            AllocPerOp(
                benchmark=label, diff=diff_doc(d, top=TOP_SITES), tables=shown_doc(d, TOP_SITES)
            )
        )
    return tuple(out)
