"""``perfproof compare BASE HEAD``: flags in, one call to the engine, a rendering out."""

from __future__ import annotations

import click

from perfproof import defaults
from perfproof.cli import SHORT_HELP
from perfproof.cli.compare_request import (
    CompareRequest,
    Replay,
    compare_request,
    variant_options,
)
from perfproof.cli.history_record import record_compare, record_options
from perfproof.cli.options import (
    CONFIDENCE_DEFAULT,
    FUTILITY,
    THRESHOLD_DEFAULT,
    confidence_option,
    emit_json,
    enum_choice,
    format_option,
    junit_option,
    method_option,
    threshold_option,
    write_junit,
)
from perfproof.cli.pinned import json_settings
from perfproof.compare import compare_document, compare_specs
from perfproof.compare import document as compare_document_of
from perfproof.errors import GateFailed
from perfproof.model.enums import Family, Format
from perfproof.render import gate

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
per side the mean of fork means, the ratio head/base by Welch's t on log fork means (or their
ranks, --method fork-ranks), a family
procedure across all comparisons (Benjamini-Hochberg with false-coverage-adjusted intervals by
default; --family holm or none), bytes/op compared exactly. Each verdict is read off the
interval shown. Exit codes: 0 done, 1 --fail-on-regression
saw a regression, 2 bad input (one line naming the file or flag)."""


@click.command(
    short_help=SHORT_HELP["compare"], epilog=EPILOG, context_settings={"max_content_width": 100}
)
@click.argument("base")
@click.argument("head", required=False)
@confidence_option(
    "Confidence level 1-α of intervals and tests (0.99 or 99%) [default: "
    f"{CONFIDENCE_DEFAULT}, or as pinned in perfproof.toml / PERFPROOF_CONFIDENCE]."
)
@threshold_option(
    "Practical threshold θ: smaller changes are 'negligible' (1% or 0.01) [default: "
    f"{THRESHOLD_DEFAULT}, or as pinned]."
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
    type=enum_choice(Family),
    help="Family procedure across comparisons: bh (Benjamini-Hochberg, false-coverage-adjusted "
    f"intervals), holm, or none [default: {defaults.FAMILY}, or as pinned].",
)
@method_option("How keys with two forks a side or more are compared")
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
    type=FUTILITY,
    metavar="PCT",
    default=None,
    help="With --sequential: also stop an entry without a verdict on evidence of a small change: "
    "its interval inside the ±5% equivalence margin, or inside ±50% with a predictive chance of "
    "a verdict by the last look below this share (e.g. 5%) [default: off].",
)
@junit_option()
@variant_options("Of one result set", " Give one BASE, no HEAD.")
@record_options(with_commit=True)
@click.pass_context
def command(ctx: click.Context, **_: object) -> None:
    """Compare two sets of JMH JSON results, benchstat-style, with fork-level statistics
    (or two variants of one set: --pair, --pair-suffix, --sides-by-param)."""
    req = compare_request(ctx)
    if req.replay is not None:
        assert req.head is not None
        _replay(req, req.head, req.replay)
        return
    head = req.head
    if req.variants.given():
        from perfproof.compare import compare_variants

        result = compare_variants(req.base, req.variants, req.options)
        head = req.base
    else:
        assert head is not None
        result = compare_specs(req.base, head, req.options)
    if req.fmt is Format.JSON:
        db = None
        if req.record is not None:
            from perfproof.history.db import resolve_target

            db = resolve_target(req.record.db).label
        doc = compare_document_of(result, geomean=True)
        emit_json(doc.with_settings(json_settings(req.settings, req.sources, db)))
    else:
        from perfproof.render import comparison as compare_render

        if req.fmt is Format.MD:
            click.echo(compare_render.markdown(result), nl=False)
        else:
            compare_render.print_table(result)
    if req.record is not None:
        rec = req.record
        record_compare(
            req.base, head, compare_document(result), rec.commit, rec.branch, rec.db, rec.machine
        )
    write_junit(req.junit, result.comparisons, result.unmatched, "perfproof compare")
    if req.fail_on_regression and result.regressed:
        raise GateFailed(gate.message(gate.failures(result.regressed), PRINTED))


def _replay(req: CompareRequest, head: str, replay: Replay) -> None:
    """``--sequential``: replay the rounds, render, and apply the regression gate."""
    from perfproof.compare.sequential_replay import replay_specs
    from perfproof.render import sequential as replay_render

    replayed = replay_specs(req.base, head, req.options, replay.max_looks, replay.futility)
    if req.fmt is Format.JSON:
        emit_json(replay_render.document(replayed))
    elif req.fmt is Format.MD:
        click.echo(replay_render.markdown(replayed), nl=False)
    else:
        replay_render.print_table(replayed)
    replayed_result = replay_render.as_result(replayed)
    write_junit(
        req.junit, replayed_result.comparisons, replayed_result.unmatched, "perfproof compare"
    )
    regressed = replayed_result.regressed
    if req.fail_on_regression and regressed:
        raise GateFailed(gate.message(gate.failures(regressed), PRINTED))
