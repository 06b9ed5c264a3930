"""The run manifest's ``reach`` block: each benchmark's reach (:mod:`perfproof.model.reach`),
known before the first look, as the manifest writes it and reads it back."""

from __future__ import annotations

from pydantic import Field

from perfproof.model.documents.codec import Document, Seq
from perfproof.model.reach import BenchReach, Reach, RunReach


class BenchReachEntry(Document):
    """One benchmark's reach as the manifest writes it (``reaches`` follows from ``kind``;
    written for readers of the file). Made from a :class:`BenchReach` by its attributes."""

    benchmark: str
    kind: Reach = Field(strict=False)
    reaches: bool | None = None
    why: str | None = None
    path: Seq[str] = ()


class ReachBlock(Document):
    """The run manifest's ``reach`` block: each benchmark's reach, known before the first look."""

    benchmarks: list[BenchReachEntry] = Field(default_factory=list)
    error: str | None = None
    recorded: str | None = None
    recorded_s: float | None = None

    @classmethod
    def of(cls, reach: RunReach) -> ReachBlock:
        """The block of a run's reach."""
        return cls(
            benchmarks=[
                BenchReachEntry.model_validate(r, from_attributes=True)
                for r in reach.benchmarks.values()
            ],
            error=reach.error or None,
            recorded=reach.recorded,
            recorded_s=reach.recorded_s if reach.recorded is not None else None,
        )

    def reach(self) -> RunReach:
        """The run's reach this block holds."""
        found = [BenchReach(r.benchmark, r.kind, r.why or "", r.path) for r in self.benchmarks]
        return RunReach(
            {r.benchmark: r for r in found},
            self.error or None,
            self.recorded or None,
            self.recorded_s,
        )
