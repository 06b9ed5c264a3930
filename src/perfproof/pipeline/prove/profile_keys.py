"""Which keys ``prove``'s profile forks record, and how many forks a side each.

A profile is evidence for a verdict: it shows where the time or the bytes went. A key whose
A/B verdict the PR body explains (``improved`` or ``regressed``, in time or in bytes/op) is
recorded; a key stopped for futility with no such verdict, or left without one, has nothing
for a profile to explain and costs forks for nothing. A key whose time stopped for futility
while its bytes/op moved is recorded for its bytes: the body says it allocates less, and the
recording is what shows which allocation went. Keys of one benchmark that end the same way
(the same verdicts, the same bytes/op on both sides: the change did the same thing to them)
differ only by ``@Param`` values the change did not tell apart, so one of them, the first by
label, is recorded for all of them.

Two forks a side are the fewest that give a row of the diff an interval across forks (one
degree of freedom); a reach round's fork of a key counts as one of them when that round
recorded both sides with the same builds and JMH settings (``reusable_reach``; the reach round
of this version records the baseline alone, so it gives none).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from perfproof.model import ALLOC_NORM, PRIMARY, BenchKey
from perfproof.model.diagnostics import Diagnostics
from perfproof.model.documents.codec import decode_value
from perfproof.model.documents.compare_wire import ComparisonDoc
from perfproof.model.documents.prove_profile import ProfileDesign, RecordedKey
from perfproof.model.enums import Verdict

PROFILE_FORKS = 2
"""Recorded forks a side of each key: two give a change an interval (one degree of freedom)."""
MOVED = (Verdict.IMPROVED, Verdict.REGRESSED)


@dataclass
class _Key:
    """What the A/B found for one suite key."""

    benchmark: str
    params: tuple[tuple[str, str], ...]
    time: Verdict | None = None
    alloc: Verdict | None = None
    bytes: tuple[float | None, float | None] = (None, None)
    futile: bool = False
    mode: str = ""

    @property
    def label(self) -> str:
        if not self.params:
            return self.benchmark
        return self.benchmark + "(" + ", ".join(f"{k}={v}" for k, v in self.params) + ")"

    def why(self) -> tuple[str, ...]:
        out = []
        if self.time in MOVED:
            out.append(f"time {self.time}")
        if self.alloc in MOVED:
            out.append(f"bytes/op {self.alloc}")
        return tuple(out)

    def shape(self) -> tuple[object, ...]:
        """What the change did to this key, as far as the verdicts tell."""
        rounded = tuple(None if b is None else round(b) for b in self.bytes)
        return (self.benchmark, self.mode, self.time, self.alloc, rounded)


def _futile(c: ComparisonDoc) -> bool:
    look = decode_value(Diagnostics, dict(c.diagnostics)).sequential
    return bool(look is not None and look.futile)


_Id = tuple[str, tuple[tuple[str, str], ...]]


def _keys(comparisons: Iterable[ComparisonDoc]) -> dict[_Id, _Key]:
    out: dict[_Id, _Key] = {}
    for c in comparisons:
        key: BenchKey = c.key
        k = out.setdefault((key.benchmark, key.params), _Key(key.benchmark, key.params))
        k.mode = k.mode or key.mode
        if key.metric == PRIMARY:
            k.time = Verdict(c.verdict)
            k.futile = k.futile or _futile(c)
        elif key.metric == ALLOC_NORM:
            k.alloc = Verdict(c.verdict)
            k.bytes = (c.base.estimate, c.head.estimate)
    return out


def choose_keys(
    comparisons: Sequence[ComparisonDoc],
    reusable: Mapping[str, int] | None = None,
    every: bool = False,
) -> ProfileDesign:
    """The keys to record: one per shape among those with a verdict to explain, never a key
    stopped for futility without one (``every``: each measured key, ``--jfr every``).
    ``reusable`` maps a key's label to the forks a side the reach round recorded of it with
    the same builds and settings; each counts towards its :data:`PROFILE_FORKS`."""
    keys = sorted(_keys(comparisons).values(), key=lambda k: k.label)
    reusable = reusable or {}
    futile = sum(1 for k in keys if k.futile and not k.why())
    if every:
        recorded = tuple(RecordedKey(key=k.label, benchmark=k.benchmark, params=dict(k.params),
                                     why=k.why()) for k in keys)  # fmt: skip
        return ProfileDesign(recorded=recorded, measured=len(keys), futile=futile, every=True)
    explained = [k for k in keys if k.why()]
    shapes: dict[tuple[object, ...], list[_Key]] = {}
    for k in explained:
        shapes.setdefault(k.shape(), []).append(k)
    chosen: list[RecordedKey] = []
    for group in shapes.values():
        # a key the reach round already recorded stands for its shape when there is one
        first = max(group, key=lambda k: min(reusable.get(k.label, 0), PROFILE_FORKS))
        chosen.append(
            RecordedKey(
                key=first.label,
                benchmark=first.benchmark,
                params=dict(first.params),
                why=first.why(),
                stands_for=tuple(k.label for k in group if k is not first),
                reused=min(reusable.get(first.label, 0), PROFILE_FORKS),
            )
        )
    return ProfileDesign(
        recorded=tuple(sorted(chosen, key=lambda r: r.key)),
        forks=PROFILE_FORKS,
        measured=len(keys),
        futile=futile,
        no_verdict=len(keys) - len(explained) - futile,
    )


def still_to_record(design: ProfileDesign) -> dict[int, tuple[str, ...]]:
    """Forks a side still to record → the keys that need that many (the reused forks left
    out); every key of an ``every`` design needs the A/B's rounds, which the caller knows."""
    out: dict[int, list[str]] = {}
    for k in design.recorded:
        need = design.forks - k.reused
        if need > 0:
            out.setdefault(need, []).append(k.key)
    return {n: tuple(v) for n, v in sorted(out.items(), reverse=True)}
