"""Judging a guard: does every @Param tell the baseline from the feature? (pure)

The guard passes only if, at every @Param, the baseline/feature ratio of the chosen metric —
oriented so that > 1 means the feature is better — is at least ``--min-ratio`` and its interval
excludes 1. Every @Param must pass on its own (an intersection–union test), so no multiplicity
adjustment is needed: requiring all of k tests to reject at level α keeps the overall error at α.
A key a side of which runs as fast as an empty benchmark fails whatever its ratio: it measures
JMH's loop, so it cannot guard the change.

Off-heap bytes and GC time per operation never fail ``compare``'s gate, but a guard asked for
them (``--metric offheap``, ``--metric gctime``) judges them like the others: a change that cuts
direct-buffer churn is guarded only by a benchmark that shows the cut. Of the two off-heap
metrics a key is judged on those it has on some side; a key with none has nothing to guard.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import asdict, dataclass

from perfproof import defaults
from perfproof.compare import CompareResult
from perfproof.errors import InputError
from perfproof.model import ALLOC_NORM, PRIMARY, BenchKey, Comparison, Direction
from perfproof.model.diagnostics import Kind
from perfproof.model.documents.guard import PROTECTS, GuardResult, GuardRow
from perfproof.model.documents.run import GuardBlock
from perfproof.model.enums import GuardKind
from perfproof.model.metrics import DIRECT_NORM, GC_TIME_NORM, NATIVE_NORM, OFF_HEAP
from perfproof.stats.verdict import check_confidence

KIND_GROUPS: dict[GuardKind, tuple[tuple[str, ...], ...]] = {
    GuardKind.TIME: ((PRIMARY,),),
    GuardKind.ALLOC: ((ALLOC_NORM,),),
    GuardKind.BOTH: ((PRIMARY,), (ALLOC_NORM,)),
    GuardKind.OFFHEAP: (OFF_HEAP,),
    GuardKind.GCTIME: ((GC_TIME_NORM,),),
}
"""Each kind's groups of metrics: every group must be judged at every @Param; of a group of
more than one, a key is judged on the members it has something of on some side."""
METRIC_LABEL = {
    PRIMARY: "time",
    ALLOC_NORM: "alloc",
    DIRECT_NORM: "direct",
    NATIVE_NORM: "native",
    GC_TIME_NORM: "gctime",
}
GROUP_LABEL = {(PRIMARY,): "time", (ALLOC_NORM,): "alloc", OFF_HEAP: "off-heap",
               (GC_TIME_NORM,): "GC time"}  # fmt: skip
_HINT = {
    (ALLOC_NORM,): " (run with -prof gc)",
    (GC_TIME_NORM,): " (run with -prof gc)",
    OFF_HEAP: " (ab's forks count them with perfproof's off-heap profiler)",
}


def _inverse(x: float) -> float:
    if x == 0:
        return math.inf
    return 1.0 / x


def oriented(c: Comparison) -> tuple[float, tuple[float, float]]:
    """The ratio and interval turned so that > 1 means the feature is better.

    Lower-is-better metrics (time per op, bytes per op) give baseline/feature; throughput gives
    feature/baseline. A feature that allocates nothing gives an infinite ratio.
    """
    lo, hi = c.ratio_ci
    if c.direction is Direction.LOWER:
        return _inverse(c.ratio), (_inverse(hi), _inverse(lo))
    return c.ratio, (lo, hi)


def judge(c: Comparison, min_ratio: float) -> GuardRow:
    ratio, (lo, hi) = oriented(c)
    empty = [n.text for n in c.diagnostics.notes or () if n.kind is Kind.NEAR_FLOOR]
    if empty:
        passed, reason = False, empty[0]
    elif c.base.value == 0 and c.head.value == 0:
        passed, reason = False, "zero on both sides: nothing to guard"
    elif math.isinf(lo) and lo > 0:
        passed, reason = True, "the feature side is exactly zero"
    elif (math.isnan(ratio) or math.isnan(lo)) and 0 in (c.base.value, c.head.value):
        passed, reason = False, "one side is zero and the other varies: no ratio interval"
    elif math.isnan(ratio) or math.isnan(lo):
        passed, reason = False, "no ratio could be computed"
    elif hi < 1.0:
        passed, reason = False, "the feature is worse: its whole interval is below 1"
    elif lo <= 1.0:
        passed, reason = False, "the interval includes 1"
    elif ratio < min_ratio:
        passed = False
        reason = f"ratio {ratio:.3g} is below --min-ratio {min_ratio:g}"
    elif lo == hi:
        passed, reason = True, f"ratio ≥ {min_ratio:g}, compared exactly (bytes/op)"
    else:
        passed, reason = True, f"ratio ≥ {min_ratio:g} and interval above 1"
    return GuardRow(
        benchmark=c.key.benchmark,
        mode=c.key.mode,
        params=c.key.params_dict,
        metric=METRIC_LABEL.get(c.key.metric, c.key.metric),
        unit=c.unit,
        base=c.base.value,
        head=c.head.value,
        ratio=ratio,
        ci=(lo, hi),
        passed=passed,
        reason=reason,
    )


def evaluate(
    result: CompareResult, kind: GuardKind, min_ratio: float, bench: Sequence[str] = ()
) -> GuardResult:
    """Judge every compared key of the guard's metric(s); keys on one side only fail."""
    groups = KIND_GROUPS[kind]
    metrics = {m for g in groups for m in g}
    patterns = [re.compile(b) for b in bench]

    def selected(name: str) -> bool:
        return not patterns or any(p.search(name) for p in patterns)

    chosen = [
        c for c in result.comparisons if c.key.metric in metrics and selected(c.key.benchmark)
    ]
    rows = [judge(c, min_ratio) for c in _judged(chosen, groups)]
    for u in result.unmatched:
        if u.key.metric in metrics and selected(u.key.benchmark):
            rows.append(
                GuardRow(u.key.benchmark, u.key.mode, u.key.params_dict,
                         METRIC_LABEL.get(u.key.metric, u.key.metric), "", None, None,
                         math.nan, (math.nan, math.nan), False, u.reason)
            )  # fmt: skip
    notes = []
    seen = {c.key.metric for c in chosen} | {u.key.metric for u in result.unmatched}
    for g in groups:
        if not seen.intersection(g):
            notes.append(
                f"no {GROUP_LABEL[g]} results to judge{_HINT.get(g, '')}: the guard cannot pass"
            )
    return GuardResult(kind, min_ratio, result.options.confidence, rows, notes=notes)


def _judged(chosen: list[Comparison], groups: Sequence[tuple[str, ...]]) -> list[Comparison]:
    """The comparisons to judge: all of a one-metric group; of a wider group, a key's members
    that are not zero on both sides, or its first member when all are (to fail it)."""
    wide = {m: g for g in groups if len(g) > 1 for m in g}
    by_entry: dict[tuple[BenchKey, tuple[str, ...]], list[Comparison]] = {}
    out = []
    for c in chosen:
        group = wide.get(c.key.metric)
        if group is None:
            out.append(c)
        else:
            by_entry.setdefault((c.key.entry(), group), []).append(c)
    for members in by_entry.values():
        some = [c for c in members if c.base.value != 0 or c.head.value != 0]
        out.extend(some or members[:1])
    return out


@dataclass(frozen=True)
class GuardSettings:
    """What the guard judges: its kind, the smallest passing ratio and the confidence level."""

    kind: GuardKind = GuardKind.TIME
    min_ratio: float = defaults.GUARD_MIN_RATIO
    confidence: float = defaults.CONFIDENCE

    def __post_init__(self) -> None:
        check_settings(self.min_ratio, self.confidence)

    def to_block(self, passed: bool | None, command: list[str]) -> GuardBlock:
        """The manifest's ``guard`` block: these settings, what their kind protects and the
        run's outcome. Not one type with the block: the settings are fixed and checked before
        the run starts, the block adds what only the run knows (``passed``: None while it has
        not judged, or when it stopped before judging; the command that ran it), and a resumed
        guard takes from it only the settings no flag gives again (``resume_guard``)."""
        return GuardBlock(
            **asdict(self), protects=PROTECTS[self.kind], passed=passed, command=command
        )

    def argv(self) -> list[str]:
        return ["--metric", self.kind.value, "--min-ratio", f"{self.min_ratio:g}",
                "--confidence", f"{self.confidence:g}"]  # fmt: skip


def check_settings(min_ratio: float, confidence: float) -> None:
    """The guard's numbers, checked alike from the flags and from a resumed run's manifest
    (the kind is a :class:`GuardKind` by then: the door's click type or the manifest's
    codec refused any other word)."""
    if not (min_ratio >= 1.0 and math.isfinite(min_ratio)):
        raise InputError(
            f"--min-ratio {min_ratio:g}: must be at least 1 and finite (1 = any real difference)"
        )
    check_confidence(confidence)
