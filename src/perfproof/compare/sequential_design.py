"""The sequential design a run follows: looks, their schedule, the error rate, the family.

Its own module so that the look (``sequential``) and the fork bookkeeping
(``sequential_forks``) can both name it without importing each other.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from perfproof import defaults
from perfproof.compare import DEFAULT_METRICS, CompareOptions
from perfproof.model.documents.run_plan import DesignBlock
from perfproof.stats import family as procedures
from perfproof.stats import sequential as seq
from perfproof.stats.verdict import check_confidence

FIRST_FORKS = 3
"""Forks per side at the first look unless a design says otherwise."""

_JUDGED_AS_VERDICT = ("confidence", "threshold", "family", "metrics")
"""The fields a design shares, name for name, with the ``CompareOptions`` it judges as."""


@dataclass(frozen=True)
class SequentialDesign:
    """A sequential design: looks, their schedule, the error rate and the family procedure."""

    max_looks: int
    confidence: float = defaults.CONFIDENCE
    threshold: float = defaults.THRESHOLD
    family: str = defaults.FAMILY
    first_forks: int = FIRST_FORKS
    forks_per_look: int = 1
    metrics: tuple[str, ...] = DEFAULT_METRICS
    futility: float = 0.0
    """γ > 0: stop an entry without a verdict when the chance that the last look would give
    one, were today's estimate the truth, is below γ (conditional power). Off by default."""

    def __post_init__(self) -> None:
        if not 0.0 <= self.futility < 1.0:
            raise ValueError(f"futility must be in [0, 1), got {self.futility}")
        check_confidence(self.confidence)
        if self.family not in procedures.METHODS:
            raise ValueError(f"family must be one of {procedures.METHODS}, got {self.family}")
        seq.per_look_level(self.alpha, self.schedule)  # fails early when not calibrated

    @classmethod
    def judging_as(
        cls, verdict: CompareOptions, schedule: seq.Schedule, futility: float = 0.0
    ) -> SequentialDesign:
        """The design whose looks judge as ``verdict`` does (its confidence, threshold and
        family; its metrics), on ``schedule``: a run's design and a replayed one alike.
        ValueError for a schedule with no calibrated levels."""
        judged = {name: getattr(verdict, name) for name in _JUDGED_AS_VERDICT}
        return cls(**dataclasses.asdict(schedule), **judged, futility=futility)

    @property
    def alpha(self) -> float:
        return 1.0 - self.confidence

    @property
    def schedule(self) -> seq.Schedule:
        return seq.Schedule(self.max_looks, self.first_forks, self.forks_per_look)

    def to_block(self) -> DesignBlock:
        """The design as a run manifest stores it: a resumed run must use the very same."""
        doc = dataclasses.asdict(self) | {"metrics": list(self.metrics)}
        return DesignBlock.model_validate(doc)

    @classmethod
    def from_block(cls, block: DesignBlock) -> SequentialDesign:
        return cls(**(block.model_dump(include=_FIELDS) | {"metrics": tuple(block.metrics)}))


_FIELDS = {f.name for f in dataclasses.fields(SequentialDesign)}
