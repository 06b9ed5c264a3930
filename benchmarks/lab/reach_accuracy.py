"""How well the call graph's reach predicts what runs: static reach against recordings.

``prove`` picks its benchmarks from the call graph and ``ab`` calls a verdict the graph does
not reach unexplained, so the graph is an estimator like any other and is measured like one.
The truth for "does benchmark B run changed method M" is B's recording: a CPU sample or an
allocation sample with M on its stack. Each benchmark of a suite is recorded once (one JFR
fork per key, on the head commit, whose call graph the reach is computed on) and compared
with its static reach:

* recall: of the benchmarks whose recording shows a changed method, those the graph reaches;
* precision: of the benchmarks the graph reaches, those whose recording shows one, given
  apart for the ones reached only through dynamic dispatch (which ``prove`` confirms by a
  recorded round before measuring them).

A benchmark with no recording, or a recording without a sample of its own work, is neither:
it is counted apart ("not judged") so a failed recording never reads as a miss.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from perfproof import defaults
from perfproof.code.reach import benchmark_methods
from perfproof.model import benchmark_of_label
from perfproof.model.documents.codec import Document
from perfproof.model.documents.prove_stages import BenchmarksResult, ChangesResult
from perfproof.profile.outside import outside
from perfproof.profile.stacks import Profile, source_name

Reach = Literal["direct", "via dispatch", "none"]
DIRECT: Reach = "direct"
DISPATCH: Reach = "via dispatch"
NONE: Reach = "none"


@dataclass(frozen=True)
class Seen:
    """What one benchmark's recordings hold: its own CPU samples (the JVM's and the harness's
    work left out) and the samples and bytes with a changed method on the stack."""

    samples: int
    changed_samples: int = 0
    changed_bytes: int = 0
    methods: tuple[str, ...] = ()
    """The changed methods (as frames) the recordings show."""

    @property
    def runs(self) -> bool:
        """The recording is evidence that the benchmark runs the change."""
        return self.changed_samples > 0 or self.changed_bytes > 0

    @property
    def judged(self) -> bool:
        """Enough to say either way: it shows the change, or it sampled the benchmark."""
        return self.runs or self.samples > 0


def seen_in(profiles: Iterable[Profile], frames: Iterable[str]) -> Seen:
    """Count one benchmark's samples and bytes, and those under a changed frame."""
    wanted = {source_name(f) for f in frames}
    samples = changed = changed_bytes = 0
    methods: set[str] = set()

    def hit(stack: Sequence[str]) -> bool:
        names = {source_name(f) for f in stack} & wanted
        methods.update(names)
        return bool(names)

    for p in profiles:
        for stack, n in p.cpu.items():
            if outside(stack):
                continue
            samples += n
            changed += n if hit(stack) else 0
        for (stack, _cls), b in p.alloc.items():
            if not outside(stack) and hit(stack):
                changed_bytes += b
    return Seen(samples, changed, changed_bytes, tuple(sorted(methods)))


@dataclass(frozen=True)
class Row:
    """One benchmark: what the call graph says and what its recording shows."""

    benchmark: str
    reach: Reach
    path: tuple[str, ...] = ()
    """One call path, benchmark first, changed method last (empty when unreached)."""
    dispatch: str = ""
    """With ``via dispatch``: the call through a supertype's declaration."""
    seen: Seen | None = None
    """None: the benchmark was not recorded."""

    @property
    def reached(self) -> bool:
        return self.reach != NONE

    @property
    def judged(self) -> bool:
        return self.seen is not None and self.seen.judged

    @property
    def runs(self) -> bool:
        return self.seen is not None and self.seen.runs

    def document(self) -> RowDoc:
        seen = self.seen
        recording = (
            None if seen is None else RecordingDoc(**dataclasses.asdict(seen), runs=seen.runs)
        )
        return RowDoc(
            benchmark=self.benchmark,
            reach=self.reach,
            path=self.path,
            dispatch=self.dispatch,
            recording=recording,
        )


def _share(hits: int, of: int) -> float | None:
    return hits / of if of else None


@dataclass(frozen=True)
class Accuracy:
    """The figures of one suite and change: recall and precision of the static reach."""

    rows: tuple[Row, ...]

    @property
    def judged(self) -> tuple[Row, ...]:
        return tuple(r for r in self.rows if r.judged)

    @property
    def not_judged(self) -> tuple[Row, ...]:
        return tuple(r for r in self.rows if not r.judged)

    @property
    def running(self) -> tuple[Row, ...]:
        """Benchmarks whose recording shows a changed method: the truth."""
        return tuple(r for r in self.judged if r.runs)

    @property
    def missed(self) -> tuple[Row, ...]:
        """Recall's losses: the recording shows the change, the graph does not reach it."""
        return tuple(r for r in self.running if not r.reached)

    @property
    def over(self) -> tuple[Row, ...]:
        """Precision's losses: reached, but the recording never shows the change."""
        return tuple(r for r in self.judged if r.reached and not r.runs)

    def reached(self, reach: Reach | None = None) -> tuple[Row, ...]:
        """Judged benchmarks the graph reaches (directly, through dispatch, or either)."""
        return tuple(r for r in self.judged if r.reached and (reach is None or r.reach == reach))

    @property
    def recall(self) -> float | None:
        return _share(sum(r.reached for r in self.running), len(self.running))

    def precision(self, reach: Reach | None = None) -> float | None:
        rows = self.reached(reach)
        return _share(sum(r.runs for r in rows), len(rows))

    @property
    def precision_confirmed(self) -> float | None:
        """Precision of what ``prove`` measures when the benchmarks only dispatch reaches are
        confirmed by a recording first (``--reach profile``): the direct ones, and the
        dispatch-only ones whose recording shows the change. It stands on the confirming
        round's recording agreeing with this one."""
        rows = [r for r in self.reached() if r.reach == DIRECT or r.runs]
        return _share(sum(r.runs for r in rows), len(rows))

    def document(self) -> AccuracyDoc:
        """The figures and the rows as ``accuracy.json`` writes them (:meth:`AccuracyDoc.dump`)."""
        return AccuracyDoc(
            benchmarks=len(self.rows),
            judged=len(self.judged),
            running_the_change=len(self.running),
            reached=len(self.reached()),
            recall=self.recall,
            precision=self.precision(),
            precision_direct=self.precision(DIRECT),
            precision_dispatch=self.precision(DISPATCH),
            precision_dispatch_confirmed=self.precision_confirmed,
            missed=[r.benchmark for r in self.missed],
            reached_not_running=[r.benchmark for r in self.over],
            not_judged=[r.benchmark for r in self.not_judged],
            rows=[r.document() for r in self.rows],
        )


class RecordingDoc(Document):
    """What a benchmark's recordings hold (:class:`Seen`) and whether they show the change."""

    samples: int
    changed_samples: int
    changed_bytes: int
    methods: tuple[str, ...]
    runs: bool


class RowDoc(Document):
    """One benchmark's row: a call path and a dispatch only when there is one, the recording
    only when it was recorded."""

    benchmark: str
    reach: Reach
    path: tuple[str, ...] = ()
    dispatch: str = ""
    recording: RecordingDoc | None = None


class AccuracyDoc(Document):
    """The figures of one suite and change, with the rows (a figure with nothing to judge is
    null)."""

    benchmarks: int
    judged: int
    running_the_change: int
    reached: int
    recall: float | None
    precision: float | None
    precision_direct: float | None
    precision_dispatch: float | None
    precision_dispatch_confirmed: float | None
    missed: list[str]
    reached_not_running: list[str]
    not_judged: list[str]
    rows: list[RowDoc]

    def dump(self) -> dict[str, object]:
        return self.model_dump(mode="json", exclude_defaults=True)


def accuracy(
    benchmarks: Iterable[str],
    found: BenchmarksResult,
    seen: Mapping[str, Seen],
) -> Accuracy:
    """Put the graph's reach of every benchmark beside what its recording shows."""
    by_name = {r.benchmark: r for r in found.reached}
    rows = []
    for name in sorted(set(benchmarks) | set(by_name)):
        r = by_name.get(name)
        if r is None:
            rows.append(Row(name, NONE, seen=seen.get(name)))
        else:
            reach = DISPATCH if r.via_dispatch else DIRECT
            rows.append(Row(name, reach, r.path, r.dispatch, seen.get(name)))
    return Accuracy(tuple(rows))


def seen_by_benchmark(
    groups: Iterable[tuple[str, Sequence[Profile]]], frames: Iterable[str]
) -> dict[str, Seen]:
    """Each benchmark's recordings, all its ``@Param`` keys together, against the frames."""
    wanted = tuple(frames)
    by_bench: dict[str, list[Profile]] = {}
    for label, profiles in groups:
        by_bench.setdefault(benchmark_of_label(label), []).extend(profiles)
    return {b: seen_in(ps, wanted) for b, ps in by_bench.items()}


@dataclass(frozen=True)
class StaticReach:
    """What the call graph of the head commit says about one change."""

    changes: ChangesResult
    found: BenchmarksResult
    benchmarks: tuple[str, ...]
    """Every benchmark of the head checkout, by JMH's name."""
    frames: tuple[str, ...]
    """The frames a recording names the changed methods by (removed ones cannot run)."""
    overloaded: tuple[str, ...] = ()
    """Changed methods' frames an unchanged overload shares: a recording names a frame
    without its parameters, so a sample there is no evidence that the changed one ran, and
    these are left out of the truth."""


def static_reach(
    repo: Path, base_sha: str, head_sha: str, head_tree: Path, depth: int = defaults.DEPTH
) -> StaticReach:
    """The change's methods, the benchmarks the call graph reaches from them (as ``prove``
    and ``ab`` compute them) and every benchmark of the head checkout."""
    from perfproof.pipeline.reach.changes import benchmarks_reaching, changes_stage, head_project

    changes = changes_stage(repo, base_sha, head_sha)
    project = head_project(head_tree)
    found = benchmarks_reaching(project, head_tree, changes, (), depth)
    names = tuple(sorted(set(benchmark_methods(project, head_tree).values())))
    live = [m for m in changes.methods if m.kind != "removed"]
    changed = {m.key for m in live}
    overloaded = {
        m.frame
        for m in live
        if m.owner in project.types
        and any(
            o.name == m.name and (o.owner, o.name, o.params) not in changed
            for o in project.methods_of(m.owner)
        )
    }
    frames = tuple(sorted({m.frame for m in live} - overloaded))
    return StaticReach(changes, found, names, frames, tuple(sorted(overloaded)))
