"""``perfproof compare BASE HEAD``: flags in, one call to the engine, a rendering out."""

from __future__ import annotations

import click

from perfproof.cli.options import emit_json, format_option, parse_fraction
from perfproof.compare import DEFAULT_METRICS, CompareOptions, compare_document, compare_specs
from perfproof.errors import GateFailed, InputError

EPILOG = """\b
Examples:
  perfproof compare base.json head.json
  perfproof compare 'runs/*-base.json' 'runs/*-head.json' --format md
  perfproof compare base/ head/ --threshold 2% --confidence 0.95
  perfproof compare base.json head.json --metric primary --metric gc.count
  perfproof compare base.json head.json --format json --fail-on-regression

BASE and HEAD are each a JMH -rf json file, a glob, or a folder of JSON files (one file per
round; rounds add forks). Entries match by benchmark, mode and @Params. The fork is the unit:
per side the mean of fork means, the ratio head/base by Welch's t on log fork means, Holm
across all comparisons, bytes/op compared exactly. Exit codes: 0 done, 1 --fail-on-regression
saw a regression, 2 bad input (one line naming the file or flag)."""


@click.command(epilog=EPILOG, context_settings={"max_content_width": 100})
@click.argument("base")
@click.argument("head")
@click.option(
    "--confidence",
    default="0.99",
    show_default=True,
    help="Confidence level 1-α of intervals and tests (0.99 or 99%).",
)
@click.option(
    "--threshold",
    default="1%",
    show_default=True,
    help="Practical threshold θ: smaller changes are 'negligible' (1% or 0.01).",
)
@click.option(
    "--metric",
    "metrics",
    multiple=True,
    help="Metric to compare (repeatable): 'primary', 'gc.alloc.rate.norm', 'gc.count', ... "
    "[default: primary and gc.alloc.rate.norm]",
)
@click.option("--no-holm", is_flag=True, help="Do not adjust p-values across comparisons.")
@format_option()
@click.option(
    "--fail-on-regression", is_flag=True, help="Exit 1 when any comparison is 'regressed'."
)
def command(
    base: str,
    head: str,
    confidence: str,
    threshold: str,
    metrics: tuple[str, ...],
    no_holm: bool,
    fmt: str,
    fail_on_regression: bool,
) -> None:
    """Compare two sets of JMH JSON results, benchstat-style, with fork-level statistics."""
    conf = parse_fraction("--confidence", confidence)
    if not 0.0 < conf < 1.0:
        raise InputError(f"--confidence {confidence}: must be between 0 and 1")
    theta = parse_fraction("--threshold", threshold)
    if not 0.0 <= theta < 1.0:  # checked here to name the value as typed, before any reading
        raise InputError(f"--threshold {threshold}: must be between 0 and 1 (0% to 100%)")
    options = CompareOptions(
        confidence=conf,
        threshold=theta,
        metrics=tuple(metrics) or DEFAULT_METRICS,
        holm=not no_holm,
    )
    result = compare_specs(base, head, options)
    if fmt == "json":
        emit_json(compare_document(result))
    else:
        from perfproof.render import comparison as compare_render

        if fmt == "md":
            click.echo(compare_render.markdown(result), nl=False)
        else:
            compare_render.print_table(result)
    if fail_on_regression and result.regressed:
        names = ", ".join(c.key.label() for c in result.regressed)
        raise GateFailed(f"--fail-on-regression: {len(result.regressed)} regressed: {names}")
