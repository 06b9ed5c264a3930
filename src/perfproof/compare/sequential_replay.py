"""Replay the sequential design over recorded rounds: what would an adaptive run have said?

Users with one JMH file per side per round (from CI, or an ``ab`` run's ``jmh/`` folder) can
see at which round each entry would have stopped and with which verdict, and tests can drive
the design from recorded data. Round r is the r-th file of each side in natural order
(``2-base.json`` before ``10-base.json``). The schedule is read off the files: with f forks
per round, the first look is at the first round where each side has at least
``FIRST_LOOK_FORKS`` forks (3, the design's default), and each later round is one look with f
more forks. Forks that an entry gathered after it stopped are
ignored: the adaptive run would not have measured them.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from perfproof.compare.match import match
from perfproof.compare.result import CompareOptions
from perfproof.compare.sequential import KeyDecision, look
from perfproof.compare.sequential_design import SequentialDesign
from perfproof.compare.sequential_method import methodology
from perfproof.errors import InputError
from perfproof.jmh.reader import ForkLedger, expand_spec, read_file
from perfproof.model import PRIMARY, BenchKey, SideSamples, Unmatched
from perfproof.model.documents.replay import ReplayEntryDoc, ReplaySummaryDoc
from perfproof.stats import sequential as seq

FIRST_LOOK_FORKS = 3


@dataclass
class Replay:
    """The decisions after the last look replayed, and how the rounds mapped to looks."""

    design: SequentialDesign
    decisions: dict[BenchKey, KeyDecision]
    rounds: int
    first_look_round: int
    looks: int
    unmatched: list[Unmatched] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def stopped_at_round(self, d: KeyDecision) -> int:
        return self.first_look_round + d.look - 1


@dataclass(frozen=True)
class ReplaySettings:
    """What the user chose; the schedule itself comes from the files."""

    verdict: CompareOptions = field(default_factory=CompareOptions)
    """How each look judges (confidence, threshold, family, metrics)."""
    max_looks: int | None = None
    futility: float = 0.0
    reach: Mapping[str, bool] | None = None
    """Benchmark → whether the change reaches it, as the run knew before its first look (None:
    files without a repository, where nothing is known and a clean split by side is held)."""


def read_rounds(
    base_files: Sequence[Path], head_files: Sequence[Path]
) -> list[tuple[SideSamples, SideSamples]]:
    """One (base, head) pair of results per round; both sides need the same number of files."""
    shared = set(map(Path.resolve, map(Path, base_files))) & set(
        map(Path.resolve, map(Path, head_files))
    )
    if shared:
        raise InputError(
            f"{sorted(shared)[0]}: named as both a base and a head round; give each side its "
            "own files (e.g. 'run/jmh/*-base.json' 'run/jmh/*-head.json')"
        )
    if len(base_files) != len(head_files):
        raise InputError(
            f"--sequential needs one file per side per round: {len(base_files)} base file(s) "
            f"({base_files[0] if base_files else 'none'} …) but {len(head_files)} head file(s)"
        )
    ledgers = (ForkLedger(), ForkLedger())
    return [
        (_side(b, ledgers[0]), _side(h, ledgers[1]))
        for b, h in zip(base_files, head_files, strict=True)
    ]


def _side(path: Path, ledger: ForkLedger) -> SideSamples:
    out: SideSamples = {}
    for s in read_file(path):
        ledger.add(s, str(path))
        out.setdefault(s.key, s)
    return out


def _round_forks(round_: tuple[SideSamples, SideSamples]) -> set[int]:
    return {
        len(s.forks)
        for side in round_
        for s in side.values()
        if s.key.metric == PRIMARY and s.forks
    }


def schedule_of(rounds: list[tuple[SideSamples, SideSamples]], source: str) -> tuple[int, int, int]:
    """(first look round, forks per side at the first look, forks per side added per look),
    read off the primary metric's fork counts: the first look is at the first round where
    each side has ``FIRST_LOOK_FORKS`` forks; a later round adds the forks its files hold
    (the fewest of any entry: an entry may hold re-runs of forks left out before)."""
    counts = _round_forks(rounds[0])
    if len(counts) != 1:
        raise InputError(
            f"{source}: the first round's entries have {sorted(counts)} forks; a replay needs "
            "the same number of forks per entry and side in a round"
        )
    per_round = counts.pop()
    first_round = math.ceil(FIRST_LOOK_FORKS / per_round)
    step = per_round
    if len(rounds) > first_round:
        later = _round_forks(rounds[first_round])
        step = min(later) if later else per_round
    return first_round, first_round * per_round, step


def replay(
    rounds: list[tuple[SideSamples, SideSamples]], settings: ReplaySettings, source: str
) -> Replay:
    """Run the looks of the sequential design over the rounds, in order."""
    if not rounds:
        raise InputError(f"{source}: no rounds to replay")
    first_round, first_forks, step = schedule_of(rounds, source)
    available = len(rounds) - first_round + 1
    if available < 1:
        raise InputError(
            f"{source}: {len(rounds)} round(s) of {first_forks // first_round} fork(s) per "
            f"side: the first look needs {FIRST_LOOK_FORKS} forks per side, so there is "
            "nothing to replay"
        )
    max_looks = settings.max_looks or available
    try:
        schedule = seq.Schedule(max_looks, first_forks=first_forks, forks_per_look=step)
        design = SequentialDesign.judging_as(settings.verdict, schedule, settings.futility)
    except ValueError as exc:
        raise InputError(f"{source}: {exc}") from None
    metrics = settings.verdict.normalised_metrics()
    base: SideSamples = {}
    head: SideSamples = {}
    decisions: dict[BenchKey, KeyDecision] = {}
    notes: list[str] = []
    unmatched: list[Unmatched] = []
    looks = 0
    for r, (b, h) in enumerate(rounds, start=1):
        _append(base, b, decisions)
        _append(head, h, decisions)
        if r < first_round:
            continue
        if looks == max_looks:
            notes.append(
                f"rounds {r}…{len(rounds)} ignored: the design ends after {max_looks} looks"
            )
            break
        looks += 1
        pairs, unmatched = match(base, head, metrics)
        decisions = look(pairs, looks, design, decisions, settings.reach)
        if all(d.decided for d in decisions.values()):
            if r < len(rounds):
                notes.append(
                    f"every entry was decided at round {r}; rounds {r + 1}…{len(rounds)} "
                    "would not have run"
                )
            break
    if not decisions:
        raise InputError(f"{source}: no entry (benchmark, mode, params) is in both sides")
    if looks < max_looks and not all(d.decided for d in decisions.values()):
        notes.append(f"the files end after look {looks} of {max_looks}: undecided entries remain")
    return Replay(design, decisions, len(rounds), first_round, looks, unmatched, notes)


def _append(side: SideSamples, new: SideSamples, decisions: dict[BenchKey, KeyDecision]) -> None:
    """Add a round's forks to a side, except for entries that already stopped."""
    for key, s in new.items():
        d = decisions.get(key.entry())
        if d is not None and d.decided:
            continue
        have = side.get(key)
        if have is None:
            side[key] = replace(s, forks=list(s.forks), jmh=list(s.jmh), sources=list(s.sources))
        elif have.unit != s.unit:
            raise InputError(
                f"{s.sources[0]}: {key.label()} is in {s.unit}, earlier in {have.unit}"
            )
        else:
            have.extend(s)


def replay_specs(
    base_spec: str,
    head_spec: str,
    options: CompareOptions,
    max_looks: int | None = None,
    futility: float = 0.0,
) -> Replay:
    """``perfproof compare --sequential BASE HEAD``: each side a glob or folder of round files."""
    if max_looks is not None and max_looks < 1:
        raise InputError(f"--max-looks {max_looks}: must be at least 1")
    rounds = read_rounds(expand_spec(base_spec), expand_spec(head_spec))
    settings = ReplaySettings(options, max_looks=max_looks, futility=futility)
    return replay(rounds, settings, f"{base_spec} vs {head_spec}")


def replay_summary(r: Replay) -> ReplaySummaryDoc:
    """The sequential part of the JSON document: design, per entry the stopping look/round."""
    s = r.design.schedule
    return ReplaySummaryDoc(
        max_looks=r.design.schedule.max_looks,
        first_forks=s.first_forks,
        forks_per_look=s.forks_per_look,
        family=r.design.verdict.family,
        futility=r.design.futility,
        per_look_level=r.design.per_look_level(),
        rounds=r.rounds,
        first_look_round=r.first_look_round,
        looks=r.looks,
        entries=[
            ReplayEntryDoc(
                benchmark=d.key.benchmark,
                mode=d.key.mode,
                params=d.key.params_dict,
                decided=d.settled,
                stopped=d.decided,
                look=d.look,
                round=r.stopped_at_round(d),
                verdicts={c.key.metric: str(c.verdict) for c in d.comparisons},
                excluded_forks=d.excluded,
                trimmed_forks={
                    side: {str(i): k for i, k in cut.items()} for side, cut in d.trimmed.items()
                },
                note=d.note,
            )
            for d in r.decisions.values()
        ],
        methodology=methodology(r.design, r.decisions),
        notes=list(r.notes),
    )
