"""The sequential design a run follows: looks, their schedule, the error rate, the family.

Its own module so that the look (``sequential``) and the fork bookkeeping
(``sequential_forks``) can both name it without importing each other.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

from perfproof.compare import CompareOptions
from perfproof.model.documents.run_plan import DesignBlock
from perfproof.stats import methods
from perfproof.stats import sequential as seq
from perfproof.stats.method import Method

FIRST_FORKS = 3
"""Forks per side at the first look unless a design says otherwise."""


@dataclass(frozen=True)
class SequentialDesign:
    """A sequential design: a schedule of looks, judged as a comparison is (``verdict``: the
    confidence, threshold, family and metrics of :class:`CompareOptions`, held rather than
    copied, so a design and a fixed run judge alike by construction)."""

    schedule: seq.Schedule
    verdict: CompareOptions = field(default_factory=CompareOptions)
    futility: float = 0.0
    """γ > 0: stop an entry without a verdict on evidence that its change is small, its
    interval inside the equivalence margin or a predictive chance of a verdict by the last
    look below γ (:class:`perfproof.stats.futility.FutilityRule`). Off by default."""

    def __post_init__(self) -> None:
        if not 0.0 <= self.futility < 1.0:
            raise ValueError(f"futility must be in [0, 1), got {self.futility}")
        self.method.levels(self.schedule).check(self.alpha, self.schedule)  # fails early

    @classmethod
    def judging_as(
        cls, verdict: CompareOptions, schedule: seq.Schedule, futility: float = 0.0
    ) -> SequentialDesign:
        """The design whose looks judge as ``verdict`` does, on ``schedule``: a run's design
        and a replayed one alike. ValueError for a schedule with no calibrated levels."""
        return cls(schedule, verdict, futility)

    @property
    def alpha(self) -> float:
        return self.verdict.alpha

    @property
    def method(self) -> Method:
        """The fork-level method every look is judged by."""
        return methods.fork_method(self.verdict.method)

    def per_look_level(self) -> float:
        """The nominal level of every look for one comparison alone."""
        return float(self.method.levels(self.schedule).per_look_level(self.alpha, self.schedule))

    def to_block(self) -> DesignBlock:
        """The design as a run manifest stores it, flat: the schedule's fields beside the
        verdict's, so a resumed run judges with the very same design.

        Not one type with the block, and this pair the one conversion between them: the
        design is made of the schedule (``stats``) and the comparison's options (``compare``),
        held whole so that a design and a fixed run judge alike by construction, and checked
        against the calibrated levels when it is made; the manifest's block (``model``, below
        both) holds their values as one flat entry. The fields are copied by name, never one
        by one, so a setting added to either is recorded without a second list of them."""
        doc = dataclasses.asdict(self.schedule) | dataclasses.asdict(self.verdict)
        doc |= {"metrics": list(self.verdict.metrics)}
        return DesignBlock.model_validate(doc | {"futility": self.futility})

    @classmethod
    def from_block(cls, block: DesignBlock) -> SequentialDesign:
        """The design a run's plan recorded (:meth:`to_block`), checked again as it is made."""
        schedule = seq.Schedule(**block.model_dump(include=_SCHEDULE))
        judged = block.model_dump(include=_VERDICT) | {"metrics": tuple(block.metrics)}
        return cls(schedule, CompareOptions(**judged), block.futility)


_SCHEDULE = {f.name for f in dataclasses.fields(seq.Schedule)}
_VERDICT = {f.name for f in dataclasses.fields(CompareOptions)}
"""The entries of a design block that are its schedule's, and its verdict's."""
