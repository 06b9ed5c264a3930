"""``perfproof guard``: check that a benchmark tells the baseline from the feature."""

from __future__ import annotations

from pathlib import Path

import click

from perfproof import defaults
from perfproof.cli import SHORT_HELP
from perfproof.cli.flag import flags, given, given_fixed
from perfproof.cli.options import (
    CONFIDENCE_DEFAULT,
    confidence_option,
    emit_json,
    enum_choice,
    format_option,
    resume_option,
)
from perfproof.cli.pinned import run_settings, settled
from perfproof.cli.run_flags import AB_GROUPS, NOT_JUDGED, ab_options
from perfproof.errors import GateFailed, InputError
from perfproof.model.enums import Format, GuardKind

EPILOG = """The baseline is built with the feature's benchmark sources overlaid (--overlay PATH,
repeatable; by default every file the feature added or changed that uses JMH), both sides run
interleaved exactly as `perfproof ab` runs them, and the guard passes only if at every @Param
the baseline/feature ratio (> 1 = feature better) is at least --min-ratio and its interval
excludes 1. The guard kind is recorded in the run folder (manifest.json "guard", guard.json).

Examples:

\b
  perfproof guard --base main --head my-branch --bench ErrorReporterBench --metric alloc
  perfproof guard --base v1 --head HEAD --bench 'Codec.*' --metric both --min-ratio 2 \\
      --overlay src/jmh/java/org/acme/CodecBench.java --jmh-args "-p n=16,1024"
  perfproof guard --resume .perfproof/runs/20260101-120000-ab12 --format json

Exit codes: 0 PASS; 1 FAIL (the benchmark does not discriminate); 2 bad input; 3 a build or
JMH step failed (the message names the log).
"""


@click.command(
    "guard",
    epilog=EPILOG,
    short_help=SHORT_HELP["guard"],
)
@flags(*AB_GROUPS)
@click.option(
    "--metric",
    "kind",
    type=enum_choice(GuardKind),
    default=None,
    help="What the benchmark must guard: time, alloc (bytes/op), both, offheap (direct and "
    "native bytes/op) or gctime (GC time per op). [default: time]",
)
@click.option(
    "--min-ratio",
    type=float,
    default=None,
    help="Smallest baseline/feature ratio that passes (oriented: > 1 = better). [default: "
    f"{defaults.GUARD_MIN_RATIO:g}]",
)
@confidence_option(
    f"Confidence level of the ratio intervals (0.99 or 99%). [default: {CONFIDENCE_DEFAULT}]"
)
@resume_option("resume_dir", "RUN_DIR", "Finish a stopped guard run and judge it.")
@format_option((Format.TABLE, Format.JSON))
@click.pass_context
def command(
    ctx: click.Context,
    kind: GuardKind | None,
    min_ratio: float | None,
    confidence: float | None,
    resume_dir: str | None,
    fmt: Format,
    **_: object,
) -> None:
    """Run the feature's benchmark on the baseline and the feature; PASS if it discriminates."""
    from perfproof.model.documents.guard import guard_document
    from perfproof.pipeline.guard.judge import GuardSettings
    from perfproof.pipeline.guard.run import GuardOptions, resume_guard, run_guard
    from perfproof.render.guard import render_table

    if resume_dir is None:
        params, sources = settled(ctx, ctx.params["repo"], skip={"confidence"})
        opts = ab_options(params, sources=sources, unasked=NOT_JUDGED)
    else:
        opts = ab_options(ctx.params, unasked=NOT_JUDGED)
    if resume_dir is not None:
        extra = given_fixed(ctx, *AB_GROUPS)
        if extra:
            raise InputError(f"--resume takes the run's own settings; drop {', '.join(extra)}")
        if min_ratio is not None or kind is not None or confidence is not None:
            GuardSettings(  # the flags given are checked before the run folder is touched
                kind or GuardKind.TIME,
                defaults.GUARD_MIN_RATIO if min_ratio is None else min_ratio,
                defaults.CONFIDENCE if confidence is None else confidence,
            )
        result = resume_guard(
            Path(resume_dir),
            kind,
            min_ratio,
            confidence=confidence,
            lock_timeout=opts.lock_timeout if given(ctx, "lock_timeout") else None,
        )
    else:
        if not opts.base or not opts.head:
            raise InputError("--base and --head are required (or --resume RUN_DIR)")
        if not opts.bench:
            raise InputError("--bench REGEX is required: name the benchmark that should guard")
        settings = GuardSettings(
            kind or GuardKind.TIME,
            defaults.GUARD_MIN_RATIO if min_ratio is None else min_ratio,
            defaults.CONFIDENCE if confidence is None else confidence,
        )
        result = run_guard(GuardOptions(opts, settings))
    if fmt is Format.JSON:
        chosen = run_settings(result.run_dir) if result.run_dir is not None else {}
        emit_json(guard_document(result, chosen))
    else:
        click.echo(render_table(result), nl=False)
    if not result.passed:
        raise GateFailed(
            f"guard FAIL: the benchmark does not tell the baseline from the feature "
            f"(run: {result.run_dir})"
        )
