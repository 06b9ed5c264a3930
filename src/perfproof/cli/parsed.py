"""The flags whose text one parser turns into a typed value, at the door and nowhere else.

``--budget 15m`` becomes a :class:`~perfproof.measure.plan.Budget` (seconds), ``--shard 2/4`` a
:class:`~perfproof.measure.shard.Shard`, ``--jmh-args`` a :class:`~perfproof.measure.plan.JmhArgs`
(the options every step runs and what they ask of JMH). The pinned-settings loader turns the
same keys of ``perfproof.toml`` into the same types, so whatever the source the verbs and the
layers below receive a value, never text to parse again.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Generic, TypeVar

import click

from perfproof.measure.plan import JmhArgs, parse_budget, parse_jmh_args
from perfproof.measure.shard import Shard, parse_shard
from perfproof.model.budget import Budget

T = TypeVar("T")


class Parsed(click.ParamType, Generic[T]):
    """A click type: the flag's text parsed once into ``kind``."""

    def __init__(self, name: str, parse: Callable[[str], T], kind: type[T]) -> None:
        self.name = name
        self.parse = parse
        self.kind = kind

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        """A value already parsed (a pinned setting) passes as it is; text is parsed once, and
        a bad one refused naming the flag and the value as typed (one line, exit 2)."""
        if isinstance(value, self.kind):
            return value
        return self.parse(str(value))


BUDGET = Parsed("DURATION", parse_budget, Budget)
SHARD = Parsed("I/N", parse_shard, Shard)
JMH_ARGS = Parsed("ARGS", parse_jmh_args, JmhArgs)
