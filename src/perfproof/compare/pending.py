"""A comparison between computing its effect and the family-wide verdict, as ``effects``
builds it and ``diagnostics`` annotates it (a type of its own, so neither imports the other)."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from perfproof.model import Estimate, Samples, Side
from perfproof.model.diagnostics import Diagnostics, Note
from perfproof.stats import variance
from perfproof.stats.method import Effect, Method


@dataclass
class SideFacts:
    """One side's numbers behind the verdict and diagnostics, however they were computed."""

    summary: Estimate
    components: variance.Components | None = None
    cv: float = math.nan
    trending: bool = False
    prefixes: list[int] = field(default_factory=list)


@dataclass
class Pending:
    """A comparison before the family-wide adjustment decides its verdict."""

    base: Samples
    head: Samples
    strategy: Method
    effect: Effect
    base_facts: SideFacts
    head_facts: SideFacts
    notes: list[Note] = field(default_factory=list)
    diagnostics: Diagnostics = field(default_factory=Diagnostics)
    trimmed: Effect | None = None

    def sides(self) -> tuple[tuple[Side, Samples, SideFacts], ...]:
        return ((Side.BASE, self.base, self.base_facts), (Side.HEAD, self.head, self.head_facts))
