"""The ``perfproof.hunt/1`` document: a workload, its recordings, and ranked hypotheses.

Written to ``hunt.json`` by ``perfproof hunt`` and read back by ``hunt --compare``. Every
hypothesis carries a stable id (a hash of the project method it names), so hunts on later
commits can say which hypotheses are new, gone or changed. Numbers that do not exist (no
interval from one fork, no operation count for a command) are null, never a string.

The hunt's own types are the document's: the codec (:mod:`.codec`) writes them and reads
them back as they are, so there is no second description of the file to keep in step.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Literal

from pydantic import Field, JsonValue

from perfproof.errors import InputError
from perfproof.model import benchmark_of_label
from perfproof.model.documents import json_safe, read_document, schema_id
from perfproof.model.documents.codec import (
    Document,
    ValidationError,
    decode_json,
    problem_line,
)

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
class ClassShare:
    """An allocated class and its share of the method's bytes."""

    name: Annotated[str, Field(alias="class")]
    share: float


@dataclass(frozen=True)
class CalleeShare:
    """A production method a hypothesis calls, and its share of the group's CPU samples."""

    method: str
    share: float


@dataclass(frozen=True)
class InclusiveShare:
    """For a hypothesis ranked by inclusive cost, in one group: its own share (self) and the
    callees that hold the rest, heaviest first."""

    group: str
    self_share: ForkMean | None
    callees: tuple[CalleeShare, ...] = ()


Ranking = Literal["self", "inclusive"]
"""What a hypothesis's costs are: the method's own samples, or every sample of the stacks it
is on (itself and all it calls)."""


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
    classes: tuple[ClassShare, ...] = ()
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
    ranked_by: Ranking = "self"
    """``inclusive``: ``costs`` hold the method with all it calls (its callees hold most of
    it: a fix there changes what they are asked to do), and ``inclusive`` what is whose."""
    inclusive: tuple[InclusiveShare, ...] = ()
    under: str | None = None
    """The hypothesis ranked by inclusive cost, above this one, whose stacks hold most of
    this method's samples: listed after the rest so the first few name different costs."""

    @property
    def profiled_benchmarks(self) -> tuple[str, ...]:
        """The JMH benchmarks whose recordings showed the cost (@Param values and mode left
        out): evidence that they run the method, where the call graph may see no path (a
        call through a JDK interface, reflection)."""
        named = (c.group for c in self.costs if c.group not in UNNAMED_GROUPS)
        return tuple(dict.fromkeys(benchmark_of_label(g) for g in named))


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


class Workload(Document):
    """What was run, where, and its parts."""

    kind: WorkloadKind
    description: str
    repo: str
    ref: str | None
    sha: str | None
    groups: list[Group]


class HuntDocument(Document):
    """``hunt.json`` as written; reading needs only the hypotheses (``--compare``,
    ``prove --hypothesis``), so the other entries may be absent from a file made by hand."""

    schema_: str = Field(SCHEMA, alias="schema")
    workload: Workload | None = None
    hypotheses: list[Hypothesis]
    other: list[OtherCost] = Field(default_factory=list)
    warnings: list[str] = Field(default_factory=list)
    flamegraph: str | None = None
    compared_with: str | None = None
    changes: list[Change] | None = None


class HuntResult(HuntDocument):
    """A finished hunt, every entry known: what :mod:`perfproof.pipeline.hunt.run` returns,
    the renderers turn into text and :func:`hunt_document` writes as it is."""

    workload: Workload


def hunt_document(h: HuntResult) -> dict[str, JsonValue]:
    """The strict JSON document of a hunt (no NaN, no infinity; unknown numbers null)."""
    safe: dict[str, JsonValue] = json_safe(h.model_dump(mode="json", by_alias=True))
    return safe


def read_hunt(path: Path) -> list[Hypothesis]:
    """The hypotheses of an earlier ``hunt.json`` (``--compare``); a bad file exits 2 with
    one line naming the field."""
    doc = read_document(path, NAME, MAJOR)
    try:
        return decode_json(HuntDocument, doc).hypotheses
    except ValidationError as exc:
        raise InputError(f"{path}: malformed {SCHEMA} document: {problem_line(exc)}") from None
