"""The data types every perfproof module shares.

Modules talk to each other only through these types (and the JSON documents rendered from
them), so the JMH reader, the statistics, the runner and the reports can change independently.
Samples are always in one canonical unit per dimension so that a baseline recorded in us/op
compares with a head recorded in ns/op.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Annotated

import numpy as np
import numpy.typing as npt
from pydantic import AliasChoices, BeforeValidator, Field, JsonValue

from perfproof.model.bounds import RatioBounds, bounds_of, interval_of, null_is_nan
from perfproof.model.diagnostics import ComparisonMethod, Diagnostics, JmhScores
from perfproof.model.enums import SIDE_WORDS, SIDES, DecidedFamily, Direction, Side, Verdict

Floats = npt.NDArray[np.float64]
"""An array of measurements (one fork's iterations, a side's fork means)."""

Number = Annotated[float, BeforeValidator(null_is_nan)]
"""A number a document may hold as null (unknown): NaN once read."""

__all__ = [
    "ALLOC_NORM",
    "PRIMARY",
    "SIDES",
    "SIDE_WORDS",
    "BenchKey",
    "Comparison",
    "ComparisonMethod",
    "Counted",
    "Diagnostics",
    "Direction",
    "Estimate",
    "JmhScore",
    "JmhScores",
    "RatioBounds",
    "Samples",
    "Side",
    "SideSamples",
    "Unmatched",
    "Verdict",
    "benchmark_of_label",
]

PRIMARY = "primary"
"""The metric name used for a benchmark's primary score."""

ALLOC_NORM = "gc.alloc.rate.norm"
"""Normalised name of JMH's allocation-per-operation metric (B/op)."""


@dataclass(frozen=True, order=True)
class BenchKey:
    """Identifies one measured quantity: a benchmark at one mode and @Param set, one metric.

    ``params`` is sorted by name so that keys from different JMH versions and runs compare
    equal; ``metric`` is ``"primary"`` or a normalised secondary name such as
    ``gc.alloc.rate.norm`` (whatever the JMH version's ``·``/``@`` prefix was).
    """

    benchmark: str
    mode: str
    params: tuple[tuple[str, str], ...] = ()
    metric: str = PRIMARY

    def entry(self) -> BenchKey:
        """The same benchmark entry with the primary metric (what JMH prints as one row)."""
        return BenchKey(self.benchmark, self.mode, self.params, PRIMARY)

    def with_metric(self, metric: str) -> BenchKey:
        return BenchKey(self.benchmark, self.mode, self.params, metric)

    @property
    def params_dict(self) -> dict[str, str]:
        return dict(self.params)

    def label(self) -> str:
        """Human label: ``fx.Codes.sum(n=16) [avgt]`` plus the metric when not primary."""
        text = self.benchmark
        if self.params:
            text += "(" + ", ".join(f"{k}={v}" for k, v in self.params) + ")"
        text += f" [{self.mode}]"
        if self.metric != PRIMARY:
            text += f" {self.metric}"
        return text


def benchmark_of_label(label: str) -> str:
    """The JMH benchmark a :meth:`BenchKey.label` (or a bare benchmark name) is of: what a
    JMH include regex can select (it never sees the @Param values or the mode)."""
    return label.split("(", 1)[0].split(" ", 1)[0]


@dataclass(frozen=True)
class JmhScore:
    """JMH's own summary of one result file's entry, in the canonical unit.

    JMH's ``scoreError`` is the half-width of a 99.9% interval computed from all iterations
    pooled across forks; perfproof shows it only as "JMH's" for reference.
    """

    score: float
    error: float
    source: str = ""


@dataclass
class Counted:
    """The events behind a cost counted per operation (collections behind GC time and count per
    op): per fork, each iteration's events and its operations, forks × iterations like the
    cost's own forks. What a rate comparison needs when a side counted none."""

    events: list[Floats]
    operations: list[Floats]

    def joined(self, other: Counted | None) -> Counted | None:
        """Both sides' forks, in order; None when ``other`` does not know its events."""
        if other is None:
            return None
        return Counted([*self.events, *other.events], [*self.operations, *other.operations])


@dataclass
class Samples:
    """All measurements of one key on one side: a list of forks, each an iteration array.

    Rounds append forks. ``unit`` is canonical (``ns/op`` for time, ``ops/s`` for throughput,
    ``B/op`` for bytes per op; other metrics keep JMH's unit).
    """

    key: BenchKey
    unit: str
    direction: Direction
    forks: list[Floats] = field(default_factory=list)
    jmh: list[JmhScore] = field(default_factory=list)
    sources: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    """Facts about the data the reader had to work around (dropped NaN values, no rawData)."""
    counted: Counted | None = None
    """The events each iteration counted, for a cost per operation built from them (GC time
    and collections per op); None for every other metric."""

    def extend(self, other: Samples) -> None:
        """Append ``other``'s forks (a later round or file of the same key)."""
        if self.counted is not None:
            self.counted = self.counted.joined(other.counted)
        self.forks.extend(other.forks)
        self.jmh.extend(other.jmh)
        self.sources.extend(other.sources)

    @property
    def fork_count(self) -> int:
        return len(self.forks)

    def fork_means(self) -> Floats:
        return np.array([float(np.mean(f)) for f in self.forks if len(f)], dtype=float)


SideSamples = dict[BenchKey, Samples]
"""Everything one side measured: the samples of each key."""


def _said(value: object) -> object:
    """An empty entry (``""``, ``{}``) says nothing: None."""
    return value or None


def _texts(value: object) -> object:
    """Sentences a document lists, each read as text."""
    return [str(v) for v in value] if isinstance(value, list) else value


@dataclass(frozen=True)
class Estimate:
    """One side's estimate (mean of fork means) with its interval.

    ``forks`` is the number of forks and ``iterations`` the total number of measurement
    iterations on that side (all forks together).
    """

    value: Annotated[Number, Field(validation_alias=AliasChoices("value", "estimate"))]
    """What ``results.json`` calls ``estimate``."""
    ci: Annotated[tuple[float, float], BeforeValidator(interval_of)]
    """A null end (or a null interval) is unknown: NaN."""
    forks: int
    iterations: int


@dataclass(frozen=True)
class Unmatched:
    """A key present on one side only (or unusable), listed rather than dropped.

    ``side`` is None only for a ``results.json`` of an older writer that listed labels alone.
    """

    key: BenchKey
    side: Side | None
    reason: str


@dataclass
class Comparison:
    """Baseline vs head for one key: the effect, its interval, the verdict and diagnostics.

    ``ratio`` is head/base in the metric's own terms; ``delta_pct`` is ``(ratio - 1) * 100``.
    Whether that is good depends on ``direction``. ``warnings`` are sentences that tell the
    user what to do; ``diagnostics`` holds the numbers behind them.
    """

    key: BenchKey
    unit: str
    direction: Direction
    base: Estimate
    head: Estimate
    ratio: Number
    ratio_ci: Annotated[RatioBounds, BeforeValidator(bounds_of)]
    """head/base's interval, unbounded on a side the data cannot bound (0 or ``inf``)."""
    delta_pct: Number
    delta_ci_pct: Annotated[tuple[float, float], BeforeValidator(interval_of)]
    verdict: Verdict
    p_value: Number
    p_holm: float | None = None
    mde_pct: float | None = None
    p_adjusted: Annotated[float | None, BeforeValidator(null_is_nan)] = None
    """The p-value adjusted by the family procedure (``family``); equals ``p_value`` without one."""
    family: DecidedFamily = ""
    """The family procedure the verdict was decided with (``exact`` outside every family)."""
    interval_confidence: float | None = None
    """Level of ``ratio_ci``: the interval the verdict was decided on (family-adjusted)."""
    forks_needed: int | None = None
    method: Annotated[ComparisonMethod | None, BeforeValidator(_said)] = None
    """None only for a ``results.json`` of an older writer that did not say."""
    warnings: Annotated[list[str], BeforeValidator(_texts)] = field(default_factory=list)
    diagnostics: Diagnostics = field(default_factory=Diagnostics)
    jmh: Annotated[JmhScores | None, BeforeValidator(_said)] = None
    """None: JMH's scores were not shown (an empty object in a document)."""
    extra: dict[str, JsonValue] = field(default_factory=dict)
    """What other writers add to a comparison's row (``merge``: the ``machine`` that measured
    it; ``ab``: the change's ``reach``), kept on a round trip."""

    @property
    def decided_level(self) -> float | None:
        """The level the shown interval was decided at: a sequential look's own level (an
        older ``results.json`` wrote the run's nominal confidence beside a look's interval),
        else ``interval_confidence``; None for an exact comparison."""
        look = self.diagnostics.sequential
        if look is not None and look.per_look_level is not None:
            return 1.0 - look.per_look_level
        return self.interval_confidence
