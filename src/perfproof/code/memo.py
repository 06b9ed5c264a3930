"""A table that works out each missing entry once, on first use.

A walk over the call graph asks the same questions again and again (a method's callers, the
call sites of one declaration, a type's ancestors); each answer is computed once and kept for
the rest of the walk, by one idiom instead of a hand-written check in every lookup.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

K = TypeVar("K")
V = TypeVar("V")


class Memo(dict[K, V]):
    """A dict whose missing key is filled with ``compute(key)`` the first time it is read."""

    def __init__(self, compute: Callable[[K], V]) -> None:
        super().__init__()
        self._compute = compute

    def __missing__(self, key: K) -> V:
        value = self[key] = self._compute(key)
        return value
