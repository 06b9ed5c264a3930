"""The ``perfproof.hunt/1`` document: a workload, its recordings, and ranked hypotheses.

Written to ``hunt.json`` by ``perfproof hunt`` and read back by ``hunt --compare``. Every
hypothesis carries a stable id (a hash of the project method it names), so hunts on later
commits can say which hypotheses are new, gone or changed. Numbers that do not exist (no
interval from one fork, no operation count for a command) are null, never a string.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from pydantic import Field

from perfproof.errors import InputError
from perfproof.model import benchmark_of_label
from perfproof.model.documents import json_safe, read_document, schema_id
from perfproof.model.documents.codec import Document, ValidationError, problem_line

NAME = "hunt"
MAJOR = 1
SCHEMA = schema_id(NAME, MAJOR)

WorkloadKind = Literal["jmh", "command", "recordings"]
UNNAMED_GROUPS = ("recordings", "command")
"""The one group of a workload that is not JMH: it names no benchmark."""
Measure = Literal["ns/op", "ceiling"]


def hypothesis_id(frame: str) -> str:
    """The same project method gets the same id on every commit and every machine."""
    return "H" + hashlib.sha256(frame.encode("utf-8")).hexdigest()[:10]


@dataclass(frozen=True)
class ForkMean:
    """A cost's mean over forks (recordings), its interval and standard error.

    Not :class:`perfproof.model.Estimate` (a JMH side's score, always with an interval): a
    hunt's cost from one recording may have no interval, and its standard error is what
    discounts the expected gain that ranks hypotheses."""

    mean: float
    lo: float | None
    hi: float | None
    forks: int
    se: float | None = None
    """Standard error of the mean (across forks; of the counts for one recording)."""

    def to_json(self) -> dict[str, Any]:
        return {"mean": self.mean, "lo": self.lo, "hi": self.hi, "se": self.se, "forks": self.forks}


@dataclass(frozen=True)
class GroupCost:
    """What one hypothesis costs in one part of the workload (one benchmark, or the command).

    Shares are of the group's CPU samples or allocated bytes; ``ns_per_op`` and
    ``bytes_per_op`` need operation counts (JMH), ``bytes_per_s`` a recording's duration.
    ``ceiling`` is the Amdahl ceiling of the mean CPU share (the most the group can gain if
    the cost vanished); ``ceiling_discounted`` that of the mean less one standard error, the
    figure hypotheses rank by.
    """

    group: str
    cpu_share: ForkMean | None
    alloc_share: ForkMean | None
    ns_per_op: ForkMean | None = None
    bytes_per_op: ForkMean | None = None
    bytes_per_s: ForkMean | None = None
    ceiling: float | None = None
    ceiling_discounted: float | None = None

    def to_json(self) -> dict[str, Any]:
        def est(e: ForkMean | None) -> dict[str, Any] | None:
            return None if e is None else e.to_json()

        return {
            "group": self.group,
            "cpu_share": est(self.cpu_share),
            "alloc_share": est(self.alloc_share),
            "ns_per_op": est(self.ns_per_op),
            "bytes_per_op": est(self.bytes_per_op),
            "bytes_per_s": est(self.bytes_per_s),
            "ceiling": self.ceiling,
            "ceiling_discounted": self.ceiling_discounted,
        }


@dataclass(frozen=True)
class Pattern:
    """A ``scan`` rule that matches inside the method, and the rewrite it suggests."""

    rule: str
    title: str
    line: int
    rewrite: str


@dataclass(frozen=True)
class Callers:
    """Production call sites of the method, as ``perfproof callers`` counts them."""

    production: int
    distinct: int
    primitive: bool


@dataclass(frozen=True)
class Hypothesis:
    id: str
    rank: int
    method: str
    """``Class.method`` as a reader knows it."""
    frame: str
    """The profile's name for it: ``package.Outer$Inner.method``."""
    file: str
    line: int
    end_line: int
    expected_gain: float
    """The largest :attr:`GroupCost.ceiling_discounted` over the groups: what ranks it."""
    costs: tuple[GroupCost, ...]
    fact: str
    """One sentence: what the method costs and where (the allocating call and its line)."""
    classes: tuple[tuple[str, float], ...] = ()
    """Allocated classes with their share of the method's bytes, largest first."""
    via: tuple[str, ...] = ()
    """The JDK or library calls the cost lands in, heaviest first."""
    pattern: Pattern | None = None
    callers: Callers | None = None
    path: tuple[str, ...] = ()
    """The project methods that called it on the heaviest stacks, nearest first (the fix is
    often one or two calls up: the method choosing an algorithm, not the algorithm)."""
    benchmarks: tuple[str, ...] = ()
    """JMH benchmarks that reach the method (call graph)."""
    prove: str | None = None
    """A ready ``perfproof prove`` command line for the fix."""

    @property
    def profiled_benchmarks(self) -> tuple[str, ...]:
        """The JMH benchmarks whose recordings showed the cost (@Param values and mode left
        out): evidence that they run the method, where the call graph may see no path (a
        call through a JDK interface, reflection)."""
        named = (c.group for c in self.costs if c.group not in UNNAMED_GROUPS)
        return tuple(dict.fromkeys(benchmark_of_label(g) for g in named))

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "rank": self.rank,
            "method": self.method,
            "frame": self.frame,
            "file": self.file,
            "line": self.line,
            "end_line": self.end_line,
            "expected_gain": self.expected_gain,
            "costs": [c.to_json() for c in self.costs],
            "fact": self.fact,
            "classes": [{"class": c, "share": s} for c, s in self.classes],
            "via": list(self.via),
            "pattern": None if self.pattern is None else vars(self.pattern).copy(),
            "callers": None if self.callers is None else vars(self.callers).copy(),
            "path": list(self.path),
            "benchmarks": list(self.benchmarks),
            "prove": self.prove,
        }


@dataclass(frozen=True)
class OtherCost:
    """Cost that is no hypothesis: the JVM and harness, once-only work, the driver's code."""

    kind: str
    """outside, once, driver or unattributed."""
    label: str
    cpu_share: float | None
    alloc_share: float | None


@dataclass(frozen=True)
class Group:
    """One part of the workload: a benchmark with its score, or the whole command."""

    name: str
    recordings: tuple[str, ...]
    score: float | None = None
    unit: str | None = None
    bytes_per_op: float | None = None


@dataclass(frozen=True)
class Change:
    """How a hypothesis moved against an earlier hunt."""

    id: str
    method: str
    status: Literal["new", "gone", "fell", "changed", "same"]
    before: float | None
    after: float | None
    measure: Measure = "ceiling"
    """What ``before`` and ``after`` are: time per operation when both hunts ran JMH (shares
    of a workload whose other costs moved would mislead), else the ceiling of the mean share."""

    @property
    def label(self) -> str:
        """The status as a reader takes it: ``fell ×12`` says by how much a listed cost fell."""
        if self.status == "fell" and self.before and self.after:
            return f"fell ×{self.before / self.after:.3g}"
        return self.status


@dataclass
class HuntResult:
    kind: WorkloadKind
    workload: str
    """What was run: the JMH selection and ref, the command, or the files given."""
    repo: str
    ref: str | None
    sha: str | None
    groups: list[Group]
    hypotheses: list[Hypothesis]
    other: list[OtherCost]
    warnings: list[str] = field(default_factory=list)
    flamegraph: str | None = None
    changes: list[Change] | None = None
    compared_with: str | None = None


def hunt_document(h: HuntResult) -> dict[str, Any]:
    """The strict JSON document of a hunt (no NaN, no infinity)."""
    doc: dict[str, Any] = {
        "schema": SCHEMA,
        "workload": {
            "kind": h.kind,
            "description": h.workload,
            "repo": h.repo,
            "ref": h.ref,
            "sha": h.sha,
            "groups": [vars(g) | {"recordings": list(g.recordings)} for g in h.groups],
        },
        "hypotheses": [x.to_json() for x in h.hypotheses],
        "other": [vars(o).copy() for o in h.other],
        "warnings": list(h.warnings),
        "flamegraph": h.flamegraph,
        "compared_with": h.compared_with,
        "changes": None if h.changes is None else [vars(c).copy() for c in h.changes],
    }
    safe: dict[str, Any] = json_safe(doc)
    return safe


def read_hunt(path: Path) -> list[Hypothesis]:
    """The hypotheses of an earlier ``hunt.json`` (``--compare``); a bad file exits 2 with
    one line naming the field."""
    doc = read_document(path, NAME, MAJOR)
    try:
        wire = _HuntDoc.model_validate(doc)
    except ValidationError as exc:
        raise InputError(f"{path}: malformed {SCHEMA} document: {problem_line(exc)}") from None
    return [_hypothesis(h) for h in wire.hypotheses]


# -------------------------------------------------------------- the document as it is read


class _ForkMeanDoc(Document):
    mean: float
    lo: float | None = None
    hi: float | None = None
    forks: int
    se: float | None = None


class _GroupCostDoc(Document):
    group: str
    cpu_share: _ForkMeanDoc | None = None
    alloc_share: _ForkMeanDoc | None = None
    ns_per_op: _ForkMeanDoc | None = None
    bytes_per_op: _ForkMeanDoc | None = None
    bytes_per_s: _ForkMeanDoc | None = None
    ceiling: float | None = None
    ceiling_discounted: float | None = None


class _ClassShareDoc(Document):
    name: str = Field(alias="class")
    share: float


class _PatternDoc(Document):
    rule: str
    title: str
    line: int
    rewrite: str


class _CallersDoc(Document):
    production: int
    distinct: int
    primitive: bool


class _HypothesisDoc(Document):
    id: str
    rank: int
    method: str
    frame: str
    file: str
    line: int
    end_line: int
    expected_gain: float
    costs: list[_GroupCostDoc]
    fact: str
    classes: list[_ClassShareDoc] = Field(default_factory=list)
    via: list[str] = Field(default_factory=list)
    pattern: _PatternDoc | None = None
    callers: _CallersDoc | None = None
    path: list[str] = Field(default_factory=list)
    benchmarks: list[str] = Field(default_factory=list)
    prove: str | None = None


class _HuntDoc(Document):
    hypotheses: list[_HypothesisDoc]


def _mean(doc: _ForkMeanDoc | None) -> ForkMean | None:
    return None if doc is None else ForkMean(doc.mean, doc.lo, doc.hi, doc.forks, doc.se)


def _hypothesis(h: _HypothesisDoc) -> Hypothesis:
    return Hypothesis(
        id=h.id,
        rank=h.rank,
        method=h.method,
        frame=h.frame,
        file=h.file,
        line=h.line,
        end_line=h.end_line,
        expected_gain=h.expected_gain,
        costs=tuple(
            GroupCost(
                c.group,
                _mean(c.cpu_share),
                _mean(c.alloc_share),
                _mean(c.ns_per_op),
                _mean(c.bytes_per_op),
                _mean(c.bytes_per_s),
                c.ceiling,
                c.ceiling_discounted,
            )
            for c in h.costs
        ),
        fact=h.fact,
        classes=tuple((c.name, c.share) for c in h.classes),
        via=tuple(h.via),
        pattern=Pattern(h.pattern.rule, h.pattern.title, h.pattern.line, h.pattern.rewrite)
        if h.pattern is not None
        else None,
        callers=Callers(h.callers.production, h.callers.distinct, h.callers.primitive)
        if h.callers is not None
        else None,
        path=tuple(h.path),
        benchmarks=tuple(h.benchmarks),
        prove=h.prove,
    )
