"""Each benchmark's reach (:mod:`perfproof.model.reach` says what reach is and how strong each
kind of it is), as the run works with it and as the run manifest's ``reach`` block writes it
and reads it back: one type for both.

A run's reach holds its benchmarks by name; the block lists them, each with ``reaches``
(which follows from its kind, written for readers of the file and made again when read).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Annotated

from pydantic import BeforeValidator, ConfigDict, Field, PlainSerializer, model_validator

from perfproof.model.documents.codec import Document, Seq, without
from perfproof.model.reach import Reach


def _none_as_empty(value: object) -> object:
    return "" if value is None else value


class BenchReach(Document):
    """One benchmark method's reach (every key of it, whatever its @Param values)."""

    model_config = ConfigDict(frozen=True)

    benchmark: str
    kind: Reach = Field(strict=False)
    why: Annotated[str, BeforeValidator(_none_as_empty)] = ""
    """How it is reached or why not, in the words a report prints."""
    path: Seq[str] = ()
    """One shortest static call path, benchmark first; empty for every other kind."""

    @property
    def reaches(self) -> bool:
        return self.kind.reaches

    @model_validator(mode="before")
    @classmethod
    def _derived(cls, doc: object) -> object:
        return without(doc, "reaches")

    def _chosen(self, doc: dict[str, object]) -> dict[str, object]:
        """Written with whether it reaches, after its kind, as the block always was."""
        first = {"benchmark": doc["benchmark"], "kind": doc["kind"], "reaches": self.reaches}
        return first | {k: v for k, v in doc.items() if k not in first}


def _name(entry: object, index: int) -> str:
    if isinstance(entry, BenchReach):
        return entry.benchmark
    name = entry.get("benchmark") if isinstance(entry, dict) else None
    if isinstance(name, str):
        return name
    return str(index)  # no name: the entry's own check says so


def _by_name(value: object) -> object:
    """The block's list of benchmarks as the run holds them, by name (the last of a name)."""
    if isinstance(value, list):
        return {_name(entry, i): entry for i, entry in enumerate(value)}
    return value


def _listed(benchmarks: dict[str, BenchReach]) -> list[BenchReach]:
    return list(benchmarks.values())


class RunReach(Document):
    """The reach of every benchmark a run measures, known before its first look, and the
    run manifest's ``reach`` block.

    ``error`` says why it could not be computed (then every benchmark is ``not indexed``)."""

    model_config = ConfigDict(frozen=True)

    benchmarks: Annotated[
        dict[str, BenchReach],
        BeforeValidator(_by_name),
        PlainSerializer(_listed, return_type=list[BenchReach]),
    ] = Field(default_factory=dict)
    error: str | None = Field(None, exclude_if=lambda error: not error)
    recorded: str | None = None
    """The folder (inside the run's) of the recorded forks that confirmed or denied reach."""
    recorded_s: float | None = None
    """The JMH seconds those recorded forks took (part of the run's time, never timed);
    written only beside the folder."""

    def _chosen(self, doc: dict[str, object]) -> dict[str, object]:
        if self.recorded is None:
            return {k: v for k, v in doc.items() if k != "recorded_s"}
        return doc

    def of(self, benchmark: str) -> BenchReach:
        """The reach of a benchmark method (``not indexed`` for one the run does not know)."""
        found = self.benchmarks.get(benchmark)
        if found is not None:
            return found
        why = self.error or "the source index does not know this benchmark"
        return BenchReach(benchmark=benchmark, kind=Reach.NOT_INDEXED, why=why)

    def reaches(self, benchmark: str) -> bool:
        """The change can move this benchmark (a path, a recording or a non-Java change)."""
        return self.of(benchmark).reaches

    def flags(self) -> dict[str, bool] | None:
        """Benchmark → whether the change reaches it, for the benchmarks something is known
        of (None when reach could not be computed at all): the sequential looks' input."""
        if self.error:
            return None
        return {b: r.reaches for b, r in self.benchmarks.items() if r.kind is not Reach.NOT_INDEXED}

    def with_recordings(self, found: Iterable[BenchReach]) -> RunReach:
        """This reach with what recordings showed put in place of the static kind."""
        merged = dict(self.benchmarks)
        merged.update({r.benchmark: r for r in found})
        return self.model_copy(update={"benchmarks": merged})
