"""One declared flag and the decorators that put groups of them on a click command.

A flag is declared once, with whether a resumed run refuses it; the verbs take the groups they
need (:mod:`perfproof.cli.run_flags`), ask here which flags were typed, and fill their typed
options from the parsed flags by name (:func:`fill`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

import click

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

F = TypeVar("F", bound=Callable[..., object])
D = TypeVar("D", bound="DataclassInstance")


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


def fill(
    into: type[D],
    params: Mapping[str, object],
    /,
    *,
    unasked: Collection[str] = (),
    **computed: object,
) -> D:
    """A verb's typed options (a dataclass) from its parsed flags: each field takes the flag of
    its name, as click parsed and checked it, except the few the verb's builder computes
    (``computed``: a value typed from several flags, or a flag spelt otherwise) and those it
    asks no flag for (``unasked``: what a later stage sets, or a flag of the same name that
    means something else to this verb). A flag not given (None) leaves a field that has a
    default at its default, so no builder spells a default again.

    A field that none of them names, or a computed or unasked name that is no field, is
    perfproof's own mistake (a flag renamed without its field) and raises TypeError, never a
    silent default.
    """
    fields = [f for f in dataclasses.fields(into) if f.init]
    names = [f.name for f in fields]
    stray = sorted((set(computed) | set(unasked)) - set(names))
    taken = [f for f in fields if f.name not in unasked or f.name in computed]
    missing = [f.name for f in taken if f.name not in computed and f.name not in params]
    if stray:
        raise TypeError(f"{into.__name__} has no field {', '.join(stray)}")
    if missing:
        raise TypeError(f"{into.__name__}: no flag or value for {', '.join(missing)}")
    values = {f.name: computed[f.name] if f.name in computed else params[f.name] for f in taken}
    return into(**{n: v for n, v in values.items() if v is not None or n not in _defaulted(into)})


def _defaulted(into: type[DataclassInstance]) -> set[str]:
    """The fields of ``into`` that have a default."""
    missing = dataclasses.MISSING
    return {
        f.name
        for f in dataclasses.fields(into)
        if f.default is not missing or f.default_factory is not missing
    }
