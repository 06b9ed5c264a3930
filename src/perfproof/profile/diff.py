"""Before/after comparison of profiles: per frame, the mean over recordings on each side.

Recordings, not samples, are the unit: samples inside one JVM share its JIT decisions and
heap, so the interval for a change is Welch's t on the per-recording totals (at least two
recordings a side); with one recording a side the change is reported without an interval.
A row is called ``grew``, ``shrank``, ``vanished`` or ``appeared`` only when that interval
excludes zero: a word the numbers beside it do not bear out is worse than none.

Values are per recording, a share of each recording's total, or per second of recording. Shares
mislead on their own: when the benchmark's own allocation falls to nothing, the JVM's class
loading becomes "most" of what is left and seems to grow. The JVM's and the harness's own
stacks (:mod:`perfproof.profile.outside`) are therefore one row of their own, kept last.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import numpy as np

from perfproof.profile.census import alloc_rows, cpu_rows
from perfproof.profile.outside import ROW_LABEL, outside
from perfproof.profile.stacks import Profile, Stack
from perfproof.stats.welch import welch

NO_CLEAR_CHANGE = "no clear change"
OUTSIDE_STACK: Stack = (ROW_LABEL,)
OUTSIDE_CLASS = "(any class)"

RowKey = tuple[str, str, str | None, str | None]  # kind, frame, focus frame, class


@dataclass(frozen=True)
class DiffRow:
    kind: str
    frame: str
    focus_frame: str | None
    cls: str | None
    before: tuple[float, ...]
    after: tuple[float, ...]
    before_mean: float
    after_mean: float
    change: float
    ci: tuple[float, float] | None
    p_value: float | None
    shares: tuple[float, float] | None = None
    """Mean percentage of each recording's total, before and after, shown beside absolute
    values (never instead of them)."""

    @property
    def outside(self) -> bool:
        """The one row of the JVM's and the harness's own work."""
        return self.frame == ROW_LABEL

    @property
    def status(self) -> str:
        if self.ci is None or self.ci[0] <= 0 <= self.ci[1]:
            return NO_CLEAR_CHANGE
        if self.before_mean == 0 and self.after_mean > 0:
            return "appeared"
        if self.after_mean == 0 and self.before_mean > 0:
            return "vanished"
        if self.change == 0:
            return "same"
        return "grew" if self.change > 0 else "shrank"

    @property
    def change_pct(self) -> float | None:
        return None if self.before_mean == 0 else 100.0 * self.change / self.before_mean


@dataclass
class ProfileDiff:
    before_sources: list[str]
    after_sources: list[str]
    focus: tuple[str, ...]
    kinds: tuple[str, ...]
    normalized: bool
    confidence: float
    rows: list[DiffRow]
    warnings: list[str]
    per_second: bool = False
    """Values are per second of recording (set only when every recording knows its length)."""
    per_operation: bool = False
    """Allocation in bytes per benchmark operation (:func:`diff_per_operation`)."""

    @property
    def with_shares(self) -> bool:
        """Absolute values, with each recording's share of its total beside them."""
        return self.per_second or self.per_operation


def apart(p: Profile) -> tuple[dict[Stack, int], dict[tuple[Stack, str], int]]:
    """The recording's CPU and allocation stacks with every stack of the JVM's or the
    harness's own work folded into the one "outside the benchmark" stack."""
    cpu: dict[Stack, int] = {}
    for stack, w in p.cpu.items():
        key = OUTSIDE_STACK if outside(stack) else stack
        cpu[key] = cpu.get(key, 0) + w
    alloc: dict[tuple[Stack, str], int] = {}
    for (stack, cls), w in p.alloc.items():
        site = (OUTSIDE_STACK, OUTSIDE_CLASS) if outside(stack) else (stack, cls)
        alloc[site] = alloc.get(site, 0) + w
    return cpu, alloc


def _values(
    p: Profile, focus: tuple[str, ...], kinds: tuple[str, ...], norm: bool, per_s: bool
) -> dict:
    out: dict[RowKey, float] = {}
    cpu, alloc = apart(p)
    seconds = p.duration_s if per_s and p.duration_s else 1.0
    if "cpu" in kinds and cpu:
        n = p.cpu_samples if norm else seconds
        for r in cpu_rows(cpu, focus):
            out[("cpu", r.frame, r.focus_frame, None)] = r.self / n
    if "alloc" in kinds and alloc:
        n = p.alloc_bytes if norm else seconds
        for a in alloc_rows(alloc, focus):
            out[("alloc", a.frame, a.focus_frame, a.cls)] = a.bytes / n
            frame_key = ("alloc", a.frame, a.focus_frame, None)
            out[frame_key] = out.get(frame_key, 0.0) + a.bytes / n
    if norm:
        out = {k: 100.0 * v for k, v in out.items()}
    return out


def diff(
    before: list[Profile],
    after: list[Profile],
    focus: tuple[str, ...] = (),
    kinds: tuple[str, ...] = ("cpu", "alloc"),
    normalize: bool = False,
    confidence: float = 0.95,
    per_second: bool = False,
) -> ProfileDiff:
    """Rows for every frame (and frame+class for allocations) seen on either side.

    Values are CPU samples and allocated bytes per recording, with ``per_second`` per second
    of each recording (when every recording knows its length), or with ``normalize`` the
    percentage of each recording's total.
    """
    per_s = per_second and not normalize and all(p.duration_s for p in [*before, *after])
    b = [_values(p, focus, kinds, normalize, per_s) for p in before]
    a = [_values(p, focus, kinds, normalize, per_s) for p in after]
    keys = set().union(*b, *a)
    warnings: list[str] = []
    if len(before) < 2 or len(after) < 2:
        warnings.append(
            "fewer than two recordings on a side: changes have no interval; record at least "
            "two (better three) per side"
        )
    rows = [
        _row(k, [v.get(k, 0.0) for v in b], [v.get(k, 0.0) for v in a], confidence) for k in keys
    ]
    if per_s:
        rows = _with_shares(rows, before, after, focus, kinds)
    _sort(rows)
    for kind in kinds:
        sides = [("before", before), ("after", after)]
        for name, profiles in sides:
            if profiles and all(not (p.cpu if kind == "cpu" else p.alloc) for p in profiles):
                warnings.append(f"no {kind} events in the {name} recordings")
    return ProfileDiff(
        before_sources=[p.source for p in before],
        after_sources=[p.source for p in after],
        focus=focus,
        kinds=kinds,
        normalized=normalize,
        confidence=confidence,
        rows=rows,
        warnings=warnings,
        per_second=per_s,
    )


def _sort(rows: list[DiffRow]) -> None:
    """Largest change first (relative to the kind's scale), the outside row last."""
    scale = _kind_scale(rows)
    rows.sort(
        key=lambda r: (
            r.outside,
            -abs(r.change) / scale[r.kind],
            r.kind,
            r.frame,
            r.focus_frame or "",
            r.cls or "",
        )
    )


def diff_per_operation(
    before: list[Profile],
    after: list[Profile],
    bytes_per_op: tuple[list[float], list[float]],
    focus: tuple[str, ...] = (),
    confidence: float = 0.95,
) -> ProfileDiff:
    """Allocation sites in bytes per operation, with an interval across forks.

    Each recording is one fork of one benchmark, and JMH's ``-prof gc`` measured that fork's
    bytes per operation; a site's share of the recording's allocated bytes times that figure
    is the site's bytes per operation. Unlike bytes per second, it does not move when the
    benchmark merely runs faster, and unlike shares it does not grow when the rest shrinks.
    """
    per_op_before, per_op_after = bytes_per_op

    def scaled(profiles: list[Profile], per_op: list[float]) -> list[dict[RowKey, float]]:
        shares = [_values(p, focus, ("alloc",), True, False) for p in profiles]
        pairs = zip(shares, per_op, strict=True)
        return [{k: v / 100.0 * n for k, v in s.items()} for s, n in pairs]

    b, a = scaled(before, per_op_before), scaled(after, per_op_after)
    keys = set().union(*b, *a)
    rows = [
        _row(k, [v.get(k, 0.0) for v in b], [v.get(k, 0.0) for v in a], confidence) for k in keys
    ]
    rows = _with_shares(rows, before, after, focus, ("alloc",))
    _sort(rows)
    warnings = []
    if len(before) < 2 or len(after) < 2:
        warnings.append("fewer than two forks on a side: changes have no interval")
    return ProfileDiff(
        before_sources=[p.source for p in before],
        after_sources=[p.source for p in after],
        focus=focus,
        kinds=("alloc",),
        normalized=False,
        confidence=confidence,
        rows=rows,
        warnings=warnings,
        per_operation=True,
    )


def _with_shares(
    rows: list[DiffRow],
    before: list[Profile],
    after: list[Profile],
    focus: tuple[str, ...],
    kinds: tuple[str, ...],
) -> list[DiffRow]:
    b = [_values(p, focus, kinds, True, False) for p in before]
    a = [_values(p, focus, kinds, True, False) for p in after]

    def mean(values: list[dict], key: RowKey) -> float:
        return float(np.mean([v.get(key, 0.0) for v in values])) if values else 0.0

    out = []
    for r in rows:
        key = (r.kind, r.frame, r.focus_frame, r.cls)
        out.append(replace(r, shares=(mean(b, key), mean(a, key))))
    return out


def _kind_scale(rows: list[DiffRow]) -> dict[str, float]:
    """Per kind, the larger of the before and after totals: samples and bytes differ in unit,
    so rows of both kinds are ordered by their change as a fraction of their kind's total."""
    scale: dict[str, float] = {"cpu": 0.0, "alloc": 0.0}
    for kind in scale:
        frame_rows = [r for r in rows if r.kind == kind and r.cls is None]
        before = sum(r.before_mean for r in frame_rows)
        after = sum(r.after_mean for r in frame_rows)
        scale[kind] = max(before, after) or 1.0
    return scale


def _row(key: RowKey, x: list[float], y: list[float], confidence: float) -> DiffRow:
    kind, frame, ff, cls = key
    bm = float(np.mean(x)) if x else 0.0
    am = float(np.mean(y)) if y else 0.0
    ci: tuple[float, float] | None = None
    p: float | None = None
    if len(x) >= 2 and len(y) >= 2:
        w = welch(np.asarray(x), np.asarray(y), confidence)
        ci = (w.lo, w.hi)
        p = w.p_value if math.isfinite(w.p_value) else None
    return DiffRow(kind, frame, ff, cls, tuple(x), tuple(y), bm, am, am - bm, ci, p)


def mean_stacks(profiles: list[Profile], kind: str) -> dict[Stack, float]:
    """Mean weight per stack over recordings (allocation stacks end in their class)."""
    out: dict[Stack, float] = {}
    if not profiles:
        return out
    for p in profiles:
        items = p.cpu.items() if kind == "cpu" else (((*s, c), w) for (s, c), w in p.alloc.items())
        for s, w in items:
            out[s] = out.get(s, 0.0) + w
    return {s: w / len(profiles) for s, w in out.items()}
