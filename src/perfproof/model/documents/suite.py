"""A suite's keys (benchmark × @Param combination) and the selections a JMH step runs, as the
run machinery works with them and as a plan, a cluster run's groups and a remote group's job
hold them: one type each for both.

A key is a small frozen value, hashable and ordered, so that a suite is one deterministic,
sorted list a run can split into shards by position (every machine computes the same split).
@Param values are held as pairs sorted by name and written as the JSON objects documents have
always held (``{"n": "16"}``, a selection's ``{"n": ["16", "128"]}``); the codec turns one
into the other, so no code copies a key or a selection into a block of its own and back. How a
subset of keys is asked of JMH is :mod:`perfproof.measure.keys`.
"""

from __future__ import annotations

import functools
import itertools
from typing import Annotated

from pydantic import BeforeValidator, ConfigDict, Field, PlainSerializer

from perfproof.model import BenchKey
from perfproof.model.documents.codec import Document, Seq, Text

Pairs = tuple[tuple[str, str], ...]
"""@Param values as ``(name, value)`` pairs sorted by name."""


def _pairs(value: object) -> object:
    """A JSON object of @Param values (as documents write them), or pairs, as sorted pairs."""
    if isinstance(value, dict):
        return tuple(sorted(value.items()))
    if isinstance(value, tuple):
        try:
            return tuple(sorted(value))
        except TypeError:  # not pairs of text: named by the type's own check
            return value
    return value


def _as_object(pairs: Pairs) -> dict[str, str]:
    return dict(pairs)


Params = Annotated[
    tuple[tuple[str, Text], ...],
    BeforeValidator(_pairs),
    PlainSerializer(_as_object, return_type=dict[str, str]),
]
"""A key's @Param values: sorted pairs in code, a JSON object in a document."""


@functools.total_ordering
class SuiteKey(Document):
    """One benchmark at one combination of @Param values (``params`` sorted by name)."""

    model_config = ConfigDict(frozen=True)

    benchmark: str
    params: Params = Field(default=())

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, SuiteKey):
            return NotImplemented
        return (self.benchmark, self.params) < (other.benchmark, other.params)

    def label(self) -> str:
        """``fx.Codes.sum(n=16)``: stable, and the same spelling :class:`BenchKey` uses."""
        if not self.params:
            return self.benchmark
        return self.benchmark + "(" + ", ".join(f"{k}={v}" for k, v in self.params) + ")"

    def holds(self, key: BenchKey) -> bool:
        """Whether a measured key (any mode, any metric) belongs to this suite key."""
        return key.benchmark == self.benchmark and tuple(sorted(key.params)) == self.params


ValuePairs = tuple[tuple[str, tuple[str, ...]], ...]
"""Each @Param's values as ``(name, values)`` pairs sorted by name."""


def _value_pairs(value: object) -> object:
    """A JSON object of @Param value lists, or pairs, as sorted pairs of tuples."""
    if isinstance(value, dict):
        return tuple(
            (name, tuple(values) if isinstance(values, list) else values)
            for name, values in sorted(value.items())
        )
    return _pairs(value)


def _as_lists(pairs: ValuePairs) -> dict[str, list[str]]:
    return {name: list(values) for name, values in pairs}


ParamValues = Annotated[
    tuple[tuple[str, tuple[Text, ...]], ...],
    BeforeValidator(_value_pairs),
    PlainSerializer(_as_lists, return_type=dict[str, list[str]]),
]
"""A selection's @Param values: sorted pairs in code, a JSON object of lists in a document."""


@functools.total_ordering
class Selection(Document):
    """Benchmarks and parameter values whose JMH cross product is exactly a set of keys (the
    plan's record of what one step runs; ``measure.keys`` asks JMH for it)."""

    model_config = ConfigDict(frozen=True)

    benchmarks: Seq[Text]
    params: ParamValues = Field(default=())

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, Selection):
            return NotImplemented
        return (self.benchmarks, self.params) < (other.benchmarks, other.params)

    def members(self) -> list[SuiteKey]:
        """The keys this selection runs."""
        names = [n for n, _ in self.params]
        combos = list(itertools.product(*(v for _, v in self.params)))
        return sorted(
            SuiteKey(benchmark=b, params=tuple(zip(names, c, strict=True)))
            for b in self.benchmarks
            for c in combos
        )
