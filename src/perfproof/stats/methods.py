"""Every comparison method by the name comparisons record, and the rule that picks one.

The one place a method is registered: a new method is its module (implementing
:class:`perfproof.stats.method.Method`) and its line in :data:`REGISTERED`. Everything above
``stats/`` finds a comparison's method here by the name it records
(:class:`~perfproof.model.diagnostics.ComparisonMethod`) and asks it, never testing which
method it is.
"""

from __future__ import annotations

from collections.abc import Iterable

from perfproof.model import Counted
from perfproof.model.diagnostics import ComparisonMethod
from perfproof.stats.fork_ranks import FORK_RANKS
from perfproof.stats.fork_welch import WELCH_FORKS
from perfproof.stats.forks import Forks
from perfproof.stats.method import Method
from perfproof.stats.strategies import EXACT, ITERATION_LEVEL, exact_applies
from perfproof.stats.zero_rate import ZERO_RATE, applies

__all__ = [
    "DEFAULT",
    "EXACT",
    "FORK_METHODS",
    "FORK_RANKS",
    "ITERATION_LEVEL",
    "REGISTERED",
    "WELCH_FORKS",
    "ZERO_RATE",
    "choose",
    "count",
    "described",
    "fork_method",
    "of",
]

REGISTERED: tuple[Method, ...] = (WELCH_FORKS, FORK_RANKS, ITERATION_LEVEL, EXACT, ZERO_RATE)
"""Every method; the fork-level ones first, the default of a comparison first of all."""

DEFAULT: Method = WELCH_FORKS

_BY_NAME: dict[ComparisonMethod, Method] = {
    name: m for m in REGISTERED for name in (m.name, m.at_looks)
}

FORK_METHODS: dict[str, Method] = {str(m.name): m for m in REGISTERED if m.describes_ratio}
"""The fork-level methods a user may choose (``--method``), by the name they record."""


def of(name: ComparisonMethod | None) -> Method:
    """The method a comparison recorded (the default one for a document that named none)."""
    return DEFAULT if name is None else _BY_NAME[name]


def fork_method(name: ComparisonMethod | str) -> Method:
    """The fork-level method called ``name``; ValueError for any other name."""
    found = FORK_METHODS.get(str(name))
    if found is None:
        raise ValueError(f"unknown method {name!r}: expected one of {', '.join(FORK_METHODS)}")
    return found


def choose(
    base: Forks,
    head: Forks,
    is_bytes: bool,
    fork_level: Method = DEFAULT,
    counted: tuple[Counted | None, Counted | None] = (None, None),
) -> Method:
    """Exact for near-deterministic bytes (or bytes going to or from nothing), the zero-rate
    rule for a cost counted per operation (``counted``: its sides' events) whose one side
    counted none, the fork-level method with two or more forks per side, otherwise the flagged
    iteration-level fallback."""
    if is_bytes and exact_applies(base, head):
        return EXACT
    rate = applies(base, head, counted)
    if rate is not None:
        return rate
    if len(base) >= 2 and len(head) >= 2:
        return fork_level
    return ITERATION_LEVEL


def described(names: Iterable[ComparisonMethod | None]) -> list[Method]:
    """The fork-level methods among ``names``, each once, in order (the default when none is):
    what a methodology section describes the ratio's interval by."""
    found = list(dict.fromkeys(m for m in map(of, names) if m.describes_ratio))
    return found or [DEFAULT]


def count(names: Iterable[ComparisonMethod | None]) -> dict[Method, int]:
    """How many comparisons each method made, in the order of :data:`REGISTERED`."""
    seen = [of(n) for n in names]
    return {m: seen.count(m) for m in REGISTERED if m in seen}
