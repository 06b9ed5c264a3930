"""The census: where CPU samples and allocated bytes go, by frame, class and focus frame.

Every row names the true top frame (where the work happens) and the leaf-most frame inside
the focus packages (the user's own code that asked for it), because the top frame is often a
JDK method that no PR can change. Share is of the whole profile; the Amdahl ceiling is the
gain of the whole program if that row's cost went to zero, ``1 / (1 - share) - 1``: an upper
bound on what removing it can buy end to end.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Annotated

from pydantic import Field

from perfproof.profile.stacks import Profile, Stack, focus_frame, frame_matches
from perfproof.stats.amdahl import ceiling_if_removed

Weight = int | float
"""Samples or bytes: a count, or the fractional weight a foreign tool's collapsed stacks
carry, kept as it is (and written as it is: ``7`` stays ``7``, ``2.5`` stays ``2.5``)."""

# The rows are also the rows of ``profile census --format json`` (:class:`CensusDoc`): the
# codec writes each one from its fields, in this order, ``cls`` as ``class``.


@dataclass(frozen=True)
class CpuRow:
    frame: str
    focus_frame: str | None
    self: Weight
    total: Weight
    share: float
    amdahl_ceiling: float | None
    """Finite or None (:func:`ceiling_if_removed`): JSON can hold it as it is."""


@dataclass(frozen=True)
class AllocRow:
    frame: str
    focus_frame: str | None
    cls: Annotated[str, Field(alias="class")]
    """What was allocated."""
    bytes: Weight
    share: float
    amdahl_ceiling: float | None


@dataclass(frozen=True)
class FocusRow:
    """One focus frame with everything attributed to it (``self``) and below it (``total``)."""

    kind: str
    frame: str
    self: Weight
    total: Weight
    share: float
    amdahl_ceiling: float | None


@dataclass
class Census:
    sources: list[str]
    focus: tuple[str, ...]
    cpu_samples: int
    alloc_bytes: int
    alloc_source: str | None
    cpu: list[CpuRow]
    alloc: list[AllocRow]
    focus_rows: list[FocusRow]
    warnings: list[str] = field(default_factory=list)


def merge(profiles: Sequence[Profile]) -> Profile:
    """All recordings as one profile: the census of several runs counts them together."""
    out = Profile(source="+")
    sources: list[str] = []
    alloc_sources: set[str] = set()
    for p in profiles:
        sources.append(p.source)
        for s, w in p.cpu.items():
            out.cpu[s] = out.cpu.get(s, 0) + w
        for k, w in p.alloc.items():
            out.alloc[k] = out.alloc.get(k, 0) + w
        out.alloc_events += p.alloc_events
        out.recorder_alloc_bytes += p.recorder_alloc_bytes
        out.truncated_stacks += p.truncated_stacks
        out.max_depth = max(out.max_depth, p.max_depth)
        if p.alloc_source:
            alloc_sources.add(p.alloc_source)
    out.source = ", ".join(sources)
    out.alloc_source = " / ".join(sorted(alloc_sources)) or None
    lengths = [p.duration_s for p in profiles]
    if lengths and all(d is not None for d in lengths):
        out.duration_s = sum(d for d in lengths if d is not None)
    return out


def cpu_rows(cpu: dict[Stack, int], focus: tuple[str, ...]) -> list[CpuRow]:
    """Self samples per (top frame, focus frame); total = samples with the frame anywhere."""
    n = sum(cpu.values())
    if n <= 0:  # no CPU sample at all: no frame has a share
        return []
    selfs: dict[tuple[str, str | None], int] = {}
    totals: dict[str, int] = {}
    for stack, w in cpu.items():
        if not stack:
            continue
        key = (stack[-1], focus_frame(stack, focus))
        selfs[key] = selfs.get(key, 0) + w
        for frame in set(stack):
            totals[frame] = totals.get(frame, 0) + w
    rows = [
        CpuRow(frame, ff, w, totals[frame], w / n, ceiling_if_removed(w / n))
        for (frame, ff), w in selfs.items()
    ]
    rows.sort(key=lambda r: (-r.self, r.frame, r.focus_frame or ""))
    return rows


def alloc_rows(alloc: dict[tuple[Stack, str], int], focus: tuple[str, ...]) -> list[AllocRow]:
    """Bytes per (allocating frame, focus frame, allocated class)."""
    n = sum(alloc.values())
    sums: dict[tuple[str, str | None, str], int] = {}
    for (stack, cls), w in alloc.items():
        frame = stack[-1] if stack else "(no stack)"
        key = (frame, focus_frame(stack, focus), cls)
        sums[key] = sums.get(key, 0) + w
    rows = [
        AllocRow(frame, ff, cls, w, w / n, ceiling_if_removed(w / n))
        for (frame, ff, cls), w in sums.items()
    ]
    rows.sort(key=lambda r: (-r.bytes, r.frame, r.cls))
    return rows


def focus_rows(
    kind: str, weights: Iterable[tuple[Stack, float]], focus: tuple[str, ...]
) -> list[FocusRow]:
    """Per focus frame: cost attributed to it as the leaf-most focus frame, and cost below it."""
    if not focus:
        return []
    total = 0.0
    selfs: dict[str, float] = {}
    below: dict[str, float] = {}
    for stack, w in weights:
        total += w
        ff = focus_frame(stack, focus)
        if ff is None:
            continue
        selfs[ff] = selfs.get(ff, 0) + w
        for frame in {f for f in stack if frame_matches(f, focus)}:
            below[frame] = below.get(frame, 0) + w
    if total <= 0:
        return []
    rows = [
        FocusRow(kind, f, s, below.get(f, s), s / total, ceiling_if_removed(s / total))
        for f, s in selfs.items()
    ]
    rows.sort(key=lambda r: (-r.self, r.frame))
    return rows


def census(
    profiles: list[Profile], focus: tuple[str, ...] = (), kinds: tuple[str, ...] = ("cpu", "alloc")
) -> Census:
    """The census of one or more recordings counted together."""
    p = merge(profiles)
    warnings: list[str] = []
    events = p.stack_events
    if p.truncated_stacks and events:
        pct = 100.0 * p.truncated_stacks / events
        warnings.append(
            f"{pct:.1f}% of stacks were cut at the recording's stack depth ({p.max_depth} "
            "frames), so callers near the root are missing; record with "
            "-XX:FlightRecorderOptions:stackdepth=256 (perfproof record --stack-depth 256)"
        )
    if p.recorder_alloc_bytes and "alloc" in kinds:
        warnings.append(
            f"{p.recorder_alloc_bytes / 2**20:.1f} MiB sampled in JFR's own recorder "
            "(jdk.jfr.internal.*, mostly start-up allocation its first sample stands for) "
            "are left out"
        )
    if "alloc" in kinds and p.alloc_source and not p.alloc:
        warnings.append(
            f"no allocation sampled outside JFR's own recorder ({p.alloc_source} was on): "
            "the program allocated too little to be sampled"
        )
    cpu = cpu_rows(p.cpu, focus) if "cpu" in kinds else []
    alloc = alloc_rows(p.alloc, focus) if "alloc" in kinds else []
    frows: list[FocusRow] = []
    if "cpu" in kinds:
        frows += focus_rows("cpu", p.cpu.items(), focus)
    if "alloc" in kinds:
        frows += focus_rows("alloc", ((s, w) for (s, _c), w in p.alloc.items()), focus)
    framed = [r.focus_frame for r in cpu] + [r.focus_frame for r in alloc]
    if focus and not any(framed) and (cpu or alloc):
        warnings.append(
            f"no stack goes through the focus packages ({', '.join(focus)}): check the prefixes"
        )
    return Census(
        sources=[q.source for q in profiles],
        focus=focus,
        cpu_samples=p.cpu_samples,
        alloc_bytes=p.alloc_bytes,
        alloc_source=p.alloc_source,
        cpu=cpu,
        alloc=alloc,
        focus_rows=frows,
        warnings=warnings,
    )


# ---- the census as ``profile census --format json`` writes it (profile.render.census_json)


@dataclass(frozen=True)
class CensusDoc:
    """``perfproof.profile/1``: what ``profile census --format json`` prints, written by the
    codec from these fields and the rows' own (``codec.as_written``)."""

    schema: str
    recordings: list[str]
    focus: list[str]
    totals: Totals
    alloc: list[AllocRow]
    cpu: list[CpuRow]
    focus_frames: list[FocusRow]
    warnings: list[str]


@dataclass(frozen=True)
class Totals:
    """The whole census's CPU samples and allocated bytes, and where the bytes were sampled."""

    cpu_samples: Weight
    alloc_bytes: Weight
    alloc_source: str | None
