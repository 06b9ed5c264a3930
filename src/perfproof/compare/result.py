"""What a comparison run is asked (``CompareOptions``) and what it returns (``CompareResult``)."""

from __future__ import annotations

from dataclasses import dataclass, field

from perfproof import defaults
from perfproof.errors import InputError
from perfproof.jmh.names import normalise_metric
from perfproof.model import ALLOC_NORM, PRIMARY, Comparison, Unmatched, Verdict
from perfproof.model.diagnostics import ComparisonMethod
from perfproof.model.enums import Family
from perfproof.model.metrics import GC_COSTS, OFF_HEAP, is_gc_cost
from perfproof.stats.verdict import check_confidence, check_threshold

DEFAULT_METRICS: tuple[str, ...] = (PRIMARY, ALLOC_NORM, *OFF_HEAP, *GC_COSTS)
"""Time (or throughput), heap bytes/op, off-heap bytes/op and GC time and collections per
operation: each compared where the results hold it."""


@dataclass(frozen=True)
class CompareOptions:
    """How to compare: confidence 1 − α, practical threshold θ, metrics, family procedure.

    ``family`` is ``bh`` (Benjamini–Hochberg with false-coverage-adjusted intervals, the
    default), ``holm`` or ``none``; ``method`` the fork-level method of keys with two forks a
    side or more (:data:`perfproof.stats.methods.FORK_METHODS`: Welch's t on log fork means
    by default, or their ranks).
    """

    confidence: float = defaults.CONFIDENCE
    threshold: float = defaults.THRESHOLD
    metrics: tuple[str, ...] = DEFAULT_METRICS
    family: Family = field(default_factory=lambda: Family(defaults.FAMILY))
    method: ComparisonMethod = ComparisonMethod.FORK_LEVEL

    def __post_init__(self) -> None:
        # the registry imports SciPy, which the door's own imports leave to the commands
        from perfproof.stats import methods

        if str(self.method) not in methods.FORK_METHODS:
            raise InputError(
                f"--method {self.method}: expected one of {', '.join(methods.FORK_METHODS)}"
            )
        object.__setattr__(self, "method", ComparisonMethod(self.method))
        check_confidence(self.confidence)
        check_threshold(self.threshold)

    @property
    def alpha(self) -> float:
        return 1.0 - self.confidence

    def normalised_metrics(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(normalise_metric(m) for m in self.metrics))


@dataclass
class CompareResult:
    comparisons: list[Comparison]
    unmatched: list[Unmatched]
    options: CompareOptions = field(default_factory=CompareOptions)
    notes: list[str] = field(default_factory=list)

    @property
    def regressed(self) -> list[Comparison]:
        """What a regression gate fails on: every regressed metric but the GC costs per
        operation, which explain a verdict rather than make one."""
        return [
            c
            for c in self.comparisons
            if c.verdict is Verdict.REGRESSED and not is_gc_cost(c.key.metric)
        ]

    @property
    def tested(self) -> list[Comparison]:
        """The comparisons in the family (every one but the exact bytes/op comparisons)."""
        from perfproof.stats import methods

        return [c for c in self.comparisons if methods.of(c.method).in_family]
