"""``perfproof compare BASE HEAD``: flags in, one call to the engine, a rendering out."""

from __future__ import annotations

from pathlib import Path

import click

from perfproof import defaults
from perfproof.cli.history_record import record_compare, record_options
from perfproof.cli.options import (
    CONFIDENCE,
    CONFIDENCE_DEFAULT,
    THRESHOLD,
    THRESHOLD_DEFAULT,
    check_record,
    db_source,
    emit_json,
    format_option,
    junit_option,
    parse_fraction,
    write_junit,
)
from perfproof.cli.pinned import settings_block, settled
from perfproof.compare import DEFAULT_METRICS, CompareOptions, compare_document, compare_specs
from perfproof.compare.variants import Variants, parse_pair, parse_sides_by_param
from perfproof.errors import GateFailed, InputError
from perfproof.jmh.reader import expand_spec
from perfproof.render import gate
from perfproof.stats import family as procedures
from perfproof.storage import refuse_overwriting_inputs

PRINTED = "the comparison printed on stdout"
"""Where compare's gate message sends the reader for every regressed key."""

EPILOG = """\b
Examples:
  perfproof compare base.json head.json
  perfproof compare 'runs/*-base.json' 'runs/*-head.json' --format md
  perfproof compare base/ head/ --threshold 2% --confidence 0.95
  perfproof compare base.json head.json --metric primary --metric gc.count
  perfproof compare base.json head.json --format json --fail-on-regression
  perfproof compare --sequential 'run/jmh/*-base.json' 'run/jmh/*-head.json'
  perfproof compare results.json --pair 'decode=decodeOpt'
  perfproof compare results.json --sides-by-param optimized=false,true

BASE and HEAD are each a JMH -rf json file, a glob, or a folder of JSON files (one file per
round; rounds add forks). Entries match by benchmark, mode and @Params. The fork is the unit:
per side the mean of fork means, the ratio head/base by Welch's t on log fork means, a family
procedure across all comparisons (Benjamini-Hochberg with false-coverage-adjusted intervals by
default; --family holm or none), bytes/op compared exactly. Each verdict is read off the
interval shown. Exit codes: 0 done, 1 --fail-on-regression
saw a regression, 2 bad input (one line naming the file or flag)."""


@click.command(epilog=EPILOG, context_settings={"max_content_width": 100})
@click.argument("base")
@click.argument("head", required=False)
@click.option(
    "--confidence",
    type=CONFIDENCE,
    help="Confidence level 1-α of intervals and tests (0.99 or 99%) [default: "
    f"{CONFIDENCE_DEFAULT}, or as "
    "pinned in perfproof.toml / PERFPROOF_CONFIDENCE].",
)
@click.option(
    "--threshold",
    type=THRESHOLD,
    help="Practical threshold θ: smaller changes are 'negligible' (1% or 0.01) [default: "
    f"{THRESHOLD_DEFAULT}, "
    "or as pinned].",
)
@click.option(
    "--metric",
    "metrics",
    multiple=True,
    help="Metric to compare (repeatable): 'primary', 'gc.alloc.rate.norm', 'gc.count', ... "
    "[default: primary and gc.alloc.rate.norm]",
)
@click.option(
    "--family",
    "family",
    type=click.Choice(procedures.METHODS),
    help="Family procedure across comparisons: bh (Benjamini-Hochberg, false-coverage-adjusted "
    f"intervals), holm, or none [default: {defaults.FAMILY}, or as pinned].",
)
@click.option("--no-holm", is_flag=True, help="Same as --family none (older spelling).")
@format_option()
@click.option(
    "--fail-on-regression", is_flag=True, help="Exit 1 when any comparison is 'regressed'."
)
@click.option(
    "--sequential",
    is_flag=True,
    help="Replay the sequential design over BASE and HEAD, each a glob or folder of one JMH "
    "file per round: each entry's verdict and the look at which it would have stopped.",
)
@click.option(
    "--max-looks",
    type=int,
    default=None,
    help="With --sequential: the design's number of looks [default: as many as the rounds allow].",
)
@click.option(
    "--futility",
    default=None,
    help="With --sequential: also stop an entry without a verdict when the last look would "
    "decide it in fewer than this share of runs were its estimate true (e.g. 5%) [default: off].",
)
@junit_option()
@click.option(
    "--pair",
    "pairs",
    multiple=True,
    metavar="BASE=HEAD",
    help="Two benchmarks of one result set as the sides (repeatable): 'decode=decodeOpt' "
    "(full names or their trailing Class.method / method). Give one BASE, no HEAD.",
)
@click.option(
    "--pair-suffix",
    metavar="SUFFIX",
    help="Every benchmark XSUFFIX of one result set is the head of benchmark X (e.g. Opt).",
)
@click.option(
    "--sides-by-param",
    metavar="NAME=BASE,HEAD",
    help="Two values of one @Param as the sides: 'optimized=false,true'.",
)
@record_options(with_commit=True)
@click.pass_context
def command(
    ctx: click.Context,
    base: str,
    head: str | None,
    confidence: float | None,
    threshold: float | None,
    metrics: tuple[str, ...],
    family: str | None,
    no_holm: bool,
    fmt: str,
    fail_on_regression: bool,
    record: bool,
    db: str | None,
    record_commit: str | None,
    record_branch: str | None,
    record_machine: str | None = None,
    sequential: bool = False,
    max_looks: int | None = None,
    futility: str | None = None,
    pairs: tuple[str, ...] = (),
    pair_suffix: str | None = None,
    sides_by_param: str | None = None,
    junit: Path | None = None,
) -> None:
    """Compare two sets of JMH JSON results, benchstat-style, with fork-level statistics
    (or two variants of one set: --pair, --pair-suffix, --sides-by-param)."""
    variants = _variants(pairs, pair_suffix, sides_by_param)
    if variants.given() and head is not None:
        raise InputError(
            f"{_variant_flag(variants)} makes both sides from one result set: give BASE only "
            f"(got {head!r} too)"
        )
    if not variants.given() and head is None:
        raise InputError("missing HEAD: give BASE and HEAD, or one result set with --pair")
    if junit is not None:
        inputs = expand_spec(base) + (expand_spec(head) if head is not None else [])
        refuse_overwriting_inputs({"--junit": junit}, inputs)
    if no_holm and family is not None and family != "none":
        raise InputError(f"--no-holm is --family none; it contradicts --family {family}")
    pinned, sources = settled(ctx, None)
    chosen_db = pinned.get("db") if record else db  # --db alone is refused without --record
    db = chosen_db if isinstance(chosen_db, str) else None
    db_from = db_source(sources.get("db"))
    check_record(
        record,
        db,
        None,
        db_from,
        commit=record_commit,
        branch=record_branch,
        machine=record_machine,
    )
    if record_machine is not None:
        from perfproof.history.records import check_machine

        record_machine = check_machine(record_machine)
    options = CompareOptions(
        confidence=float(str(pinned["confidence"])),
        threshold=float(str(pinned["threshold"])),
        metrics=tuple(metrics) or DEFAULT_METRICS,
        family="none" if no_holm else str(pinned["family"]),
    )
    if sequential:
        if variants.given():
            raise InputError(f"{_variant_flag(variants)}: not with --sequential")
        assert head is not None
        if record:
            raise InputError("--record: not with --sequential (record the finished run instead)")
        gamma = parse_fraction("--futility", futility) if futility is not None else 0.0
        if not 0.0 <= gamma < 1.0:
            raise InputError(f"--futility {futility}: must be between 0 and 1 (0% to 100%)")
        _replay(base, head, options, max_looks, gamma, fmt, fail_on_regression, junit)
        return
    if max_looks is not None or futility is not None:
        raise InputError(
            f"{'--max-looks' if max_looks is not None else '--futility'}: only with --sequential"
        )
    if variants.given():
        from perfproof.compare import compare_variants

        result = compare_variants(base, variants, options)
        head = base
    else:
        assert head is not None
        result = compare_specs(base, head, options)
    if fmt == "json":
        settings = {**pinned, "family": options.family}
        shown = {**sources, **({"family": "flag --no-holm"} if no_holm else {})}
        if record:
            from perfproof.history.db import resolve_target

            settings["db"] = resolve_target(db).label
        else:
            shown.pop("db", None)  # no history database is used without --record
        emit_json({**compare_document(result), "settings": settings_block(settings, shown)})
    else:
        from perfproof.render import comparison as compare_render

        if fmt == "md":
            click.echo(compare_render.markdown(result), nl=False)
        else:
            compare_render.print_table(result)
    if record:
        record_compare(
            base, head, compare_document(result), record_commit, record_branch, db, record_machine
        )
    write_junit(junit, result.comparisons, result.unmatched, "perfproof compare")
    if fail_on_regression and result.regressed:
        raise GateFailed(gate.message(gate.failures(result.regressed), PRINTED))


def _replay(
    base: str,
    head: str,
    options: CompareOptions,
    max_looks: int | None,
    futility: float,
    fmt: str,
    fail_on_regression: bool,
    junit: Path | None,
) -> None:
    """``--sequential``: replay the rounds, render, and apply the regression gate."""
    from perfproof.compare.sequential_replay import replay_specs
    from perfproof.render import sequential as replay_render

    replayed = replay_specs(base, head, options, max_looks, futility)
    if fmt == "json":
        emit_json(replay_render.document(replayed))
    elif fmt == "md":
        click.echo(replay_render.markdown(replayed), nl=False)
    else:
        replay_render.print_table(replayed)
    replayed_result = replay_render.as_result(replayed)
    write_junit(junit, replayed_result.comparisons, replayed_result.unmatched, "perfproof compare")
    regressed = replayed_result.regressed
    if fail_on_regression and regressed:
        raise GateFailed(gate.message(gate.failures(regressed), PRINTED))


def _variants(pairs: tuple[str, ...], suffix: str | None, by_param: str | None) -> Variants:
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


def _variant_flag(v: Variants) -> str:
    return "--pair" if v.pairs else "--pair-suffix" if v.suffix else "--sides-by-param"
