"""One declared flag and the decorators that put groups of them on a click command.

A flag is declared once, with whether a resumed run refuses it; the verbs take the groups they
need (:mod:`perfproof.cli.run_flags`) and ask here which flags were typed.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, TypeVar

import click

F = TypeVar("F", bound=Callable[..., object])


@dataclass(frozen=True)
class Flag:
    """One flag: the parameter (= ``AbOptions`` field) it fills and its click declaration."""

    name: str
    decls: tuple[str, ...]
    attrs: Mapping[str, Any] = field(default_factory=dict)
    """click.option's keywords (type, help, default, …), passed through unchanged."""
    fixed_by_run: bool = True
    """Recorded in the run folder: a resumed run refuses it (it keeps its own)."""

    def option(self) -> Callable[[F], F]:
        return click.option(*self.decls, self.name, **self.attrs)


def flags(*groups: tuple[Flag, ...]) -> Callable[[F], F]:
    """A decorator adding the groups' options to a click command, in the order declared."""

    def wrap(func: F) -> F:
        for group in reversed(groups):
            for flag in reversed(group):
                func = flag.option()(func)
        return func

    return wrap


def fixed_by_run(*groups: tuple[Flag, ...]) -> tuple[Flag, ...]:
    """The flags a resumed run refuses: the run folder already fixes them."""
    return tuple(f for group in groups for f in group if f.fixed_by_run)


def given(ctx: click.Context, name: str) -> bool:
    """Whether the parameter ``name`` was typed on the command line (not a default)."""
    return ctx.get_parameter_source(name) is click.core.ParameterSource.COMMANDLINE


def given_fixed(ctx: click.Context, *groups: tuple[Flag, ...]) -> list[str]:
    """The flags of ``groups`` given on the command line that a resumed run refuses."""
    return [f.decls[0] for f in fixed_by_run(*groups) if given(ctx, f.name)]
