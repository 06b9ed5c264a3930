"""What ``perfproof compare`` was asked, built once from its flags: the one builder of the verb.

Every flag is read here, checked against the others and turned into a typed value (the
comparison's options, the variant rule, the replay's design, the recording), in the order the
checks have always run, so the command only runs what it is handed.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

import click

from perfproof.cli.flag import fill
from perfproof.cli.options import check_record, db_source, record_db
from perfproof.cli.pinned import settled
from perfproof.compare import DEFAULT_METRICS, CompareOptions
from perfproof.errors import InputError
from perfproof.jmh.reader import expand_spec
from perfproof.model.documents.variants import Variants
from perfproof.model.enums import Format
from perfproof.model.variants import parse_pair, parse_sides_by_param
from perfproof.storage import refuse_overwriting_inputs


@dataclass(frozen=True)
class Recording:
    """``--record``: where the finished comparison is filed and under which names."""

    db: str | None
    commit: str | None
    branch: str | None
    machine: str | None


@dataclass(frozen=True)
class Replay:
    """``--sequential``: the design replayed over the rounds of BASE and HEAD."""

    max_looks: int | None
    futility: float


@dataclass(frozen=True)
class CompareRequest:
    base: str
    head: str | None
    """None with a variant rule: both sides come from BASE."""
    variants: Variants
    options: CompareOptions
    fmt: Format
    fail_on_regression: bool
    junit: Path | None
    record: Recording | None
    replay: Replay | None
    settings: Mapping[str, object]
    """The settled values of the pinnable options (``--format json``'s settings block)."""
    sources: Mapping[str, str]
    """Where each settled value came from."""


def compare_request(ctx: click.Context) -> CompareRequest:
    """The request from the command's parsed flags (refused here: exit 2, nothing read)."""
    p = ctx.params
    base: str = p["base"]
    head: str | None = p["head"]
    variants = variant_rule(p["pairs"], p["pair_suffix"], p["sides_by_param"])
    if variants.given() and head is not None:
        raise InputError(
            f"{variant_flag(variants)} makes both sides from one result set: give BASE only "
            f"(got {head!r} too)"
        )
    if not variants.given() and head is None:
        raise InputError("missing HEAD: give BASE and HEAD, or one result set with --pair")
    junit: Path | None = p["junit"]
    if junit is not None:
        inputs = expand_spec(base) + (expand_spec(head) if head is not None else [])
        refuse_overwriting_inputs({"--junit": junit}, inputs)
    pinned, sources = settled(ctx, None)
    record = _recording(p, pinned, sources)
    options = fill(CompareOptions, pinned, metrics=tuple(p["metrics"]) or DEFAULT_METRICS)
    return CompareRequest(
        base=base,
        head=head,
        variants=variants,
        options=options,
        fmt=p["fmt"],
        fail_on_regression=p["fail_on_regression"],
        junit=junit,
        record=record,
        replay=_replay(p, variants, record),
        settings=pinned,
        sources=sources,
    )


def _recording(
    p: Mapping[str, object], pinned: Mapping[str, object], sources: Mapping[str, str]
) -> Recording | None:
    """``--record`` and its companions, judged before anything is read."""
    record = bool(p["record"])
    db = record_db(record, _text(p["db"]), pinned)
    commit, branch, machine = (_text(p[name]) for name in
                               ("record_commit", "record_branch", "record_machine"))  # fmt: skip
    check_record(
        record, db, None, db_source(sources.get("db")), commit=commit, branch=branch,
        machine=machine,
    )  # fmt: skip
    if not record:
        return None
    if machine is not None:
        from perfproof.history.records import check_machine

        machine = check_machine(machine)
    return Recording(db, commit, branch, machine)


def _replay(p: Mapping[str, object], variants: Variants, record: Recording | None) -> Replay | None:
    """``--sequential`` and the flags that only mean something with it."""
    max_looks, futility = p["max_looks"], p["futility"]
    if not p["sequential"]:
        if max_looks is not None or futility is not None:
            raise InputError(
                f"{'--max-looks' if max_looks is not None else '--futility'}: only with "
                "--sequential"
            )
        return None
    if variants.given():
        raise InputError(f"{variant_flag(variants)}: not with --sequential")
    if record is not None:
        raise InputError("--record: not with --sequential (record the finished run instead)")
    return fill(Replay, p, futility=futility or 0.0)


def _text(value: object) -> str | None:
    return None if value is None else str(value)


F = TypeVar("F", bound=Callable[..., object])


def variant_options(lead: str, pair_note: str = "") -> Callable[[F], F]:
    """``--pair``, ``--pair-suffix`` and ``--sides-by-param``, the three ways to take both sides
    from variants of one set, declared once for ``ab --ref`` and ``compare``; ``lead`` says
    where the variants come from (read by :func:`variant_rule`)."""
    pair = click.option(
        "--pair",
        "pairs",
        multiple=True,
        metavar="BASE=HEAD",
        help=f"{lead}: two benchmarks as base and head (repeatable; full names or their "
        f"trailing Class.method / method), e.g. 'decode=decodeOpt'.{pair_note}",
    )
    suffix = click.option(
        "--pair-suffix",
        metavar="SUFFIX",
        help=f"{lead}: every benchmark XSUFFIX is the head of benchmark X (e.g. Opt).",
    )
    by_param = click.option(
        "--sides-by-param",
        metavar="NAME=BASE,HEAD",
        help=f"{lead}: the two values of one @Param as base and head ('optimized=false,true').",
    )

    def declare(command: F) -> F:
        return pair(suffix(by_param(command)))

    return declare


def variant_rule(pairs: tuple[str, ...], suffix: str | None, by_param: str | None) -> Variants:
    """The one variant rule asked for (two kinds at once would pair entries ambiguously)."""
    given = [flag for flag, value in (("--pair", pairs), ("--pair-suffix", suffix),
                                      ("--sides-by-param", by_param)) if value]  # fmt: skip
    if len(given) > 1:
        raise InputError(f"{given[0]} and {given[1]} both make the sides: give one")
    if suffix is not None and not suffix.strip():
        raise InputError("--pair-suffix is empty")
    return Variants(
        pairs=tuple(parse_pair(p) for p in pairs),
        suffix=suffix.strip() if suffix else None,
        param=parse_sides_by_param(by_param) if by_param else None,
    )


def variant_flag(v: Variants) -> str:
    return "--pair" if v.pairs else "--pair-suffix" if v.suffix else "--sides-by-param"
