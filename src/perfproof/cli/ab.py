"""``perfproof ab``: build two commits in isolation, run their JMH benchmarks interleaved."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

import click

from perfproof import defaults
from perfproof.cli import SHORT_HELP
from perfproof.cli.compare_request import variant_flag, variant_options, variant_rule
from perfproof.cli.flag import flags, given, given_fixed
from perfproof.cli.history_record import record_options, record_run_folder
from perfproof.cli.options import (
    check_record,
    db_source,
    emit_json,
    enum_option,
    format_option,
    junit_option,
    record_db,
    resume_option,
    write_junit,
)
from perfproof.cli.pinned import settled
from perfproof.cli.run_flags import AB_GROUPS, DEFAULTS_TEXT, VERDICT, ab_options
from perfproof.errors import GateFailed, InputError
from perfproof.measure.jfr_hints import profile_hints
from perfproof.model.enums import Format
from perfproof.pipeline.ab.options import AbOptions, Explain
from perfproof.pipeline.cluster import Executor
from perfproof.render import gate

if TYPE_CHECKING:
    from perfproof.model.documents.variants import Variants
    from perfproof.pipeline.ab.run import AbOutcome

EPILOG = f"""Rounds are sequential: each round runs both sides once (ABBA order), each step one
JMH process with `{DEFAULTS_TEXT} -prof gc` (perfproof adds `-foe true -rf json -rff FILE`).
After every round perfproof looks at all forks so far; a benchmark × @Param key whose verdict
is in stops, and the next round runs only the undecided keys, up to --max-rounds
({defaults.MAX_ROUNDS}) or until the next round would overrun --budget. The looks use repeated
confidence intervals, so stopping early keeps the error rate. --rounds N is the fixed design
instead (every key in all N rounds, no early stop), for comparison with other tools. Forks are
the unit of replication: more rounds, not a larger -f. Options in --jmh-args replace the
default of the same name; everything else is passed to JMH unchanged.

\b
Run folder (default <repo>/.perfproof/runs/<id>/, or --out):
  manifest.json  jmh/<round>-<side>.json  logs/  results.json  report.md
  jfr/r<round>-<side>/fork-N.jfr  (with --jfr)
  explain/  one recorded fork a side of the keys decided with no static call path (--explain)

Examples:

\b
  perfproof ab --base main --head my-branch --bench 'ErrorReporterBench'
  perfproof ab --base v1.2 --head HEAD --budget 15m --jmh-args "-p size=16,1024"
  perfproof ab --base main --head HEAD --rounds 5   # fixed design, no early stop
  perfproof ab --base main --head feature --overlay src/jmh/java/org/acme/NewBench.java
  perfproof ab --base main --head HEAD --module benchmarks --format md > perf.md
  perfproof ab --base main --head HEAD --build-cmd "make bench" --jar "out/*-jmh.jar"
  perfproof ab --base main --head HEAD --bench ErrorReporterBench --jfr
  perfproof ab --base main --head HEAD --shard 2/4 --out shard-2   # perfproof merge
  perfproof ab --base main --head HEAD --executor ray --ray-address head:6379
  perfproof ab --resume .perfproof/runs/20260101-120000-ab12
  perfproof ab --ref HEAD --pair 'decode=decodeOpt'   # two variants of one commit
  perfproof ab --ref HEAD --sides-by-param optimized=false,true --bench HeaderBench

Exit codes: 0 done; 1 --fail-on-regression saw a regression, or could not look at a key
(the run ended before it had 2 forks a side: "undecided: budget ended after N forks a side");
2 bad input (unknown ref, bad
flag, a --bench regex that selects nothing); 3 a build or JMH step failed (the message names
the side, the step and the log). Ctrl-C stops cleanly; continue with --resume.
"""


@click.command("ab", epilog=EPILOG, short_help=SHORT_HELP["ab"])
@flags(*AB_GROUPS, VERDICT)
@format_option()
@click.option(
    "--fail-on-regression",
    is_flag=True,
    help="Exit 1 if any comparison regressed, or if the run ended before a key had 2 forks "
    "a side (a regression there is not ruled out).",
)
@junit_option()
@resume_option("resume_dir", "RUN_DIR", "Continue a stopped run: only unfinished steps are run.")
@enum_option(
    "--explain",
    Explain,
    Explain.RECORD,
    "A key decided improved or regressed that no static call path from its benchmark "
    "reaches: record one fork a side of that benchmark with JFR (after the timing forks, "
    "never among them; counted in --budget) to see whether the changed code runs there, "
    "before the report is written. off: record nothing, and such a verdict says only that no "
    "static call path was found. Example: perfproof ab --base main --head HEAD --explain off",
)
@click.option(
    "--ref",
    metavar="REF",
    help="One commit whose two variants are the sides (with --pair, --pair-suffix or "
    "--sides-by-param): built once, each round one JMH process running both variants, with "
    "the sequential looks, --budget, --jfr and --resume of any run. Example: "
    "perfproof ab --ref HEAD --pair 'decode=decodeOpt'",
)
@variant_options("With --ref, of the commit")
@record_options(with_commit=False)
@click.pass_context
def command(
    ctx: click.Context,
    fmt: Format,
    fail_on_regression: bool,
    resume_dir: str | None,
    record: bool,
    db: str | None,
    record_branch: str | None,
    junit: Path | None = None,
    **_: object,
) -> None:
    """Build two commits in isolation, run their JMH benchmarks interleaved, compare them."""
    from perfproof.compare.undecided import unlooked as undecided_keys
    from perfproof.measure.progress import make_reporter
    from perfproof.pipeline.ab.reach import unconfirmed_of, unexplained_of
    from perfproof.pipeline.ab.recorded import record_unreached
    from perfproof.pipeline.ab.run import resume_ab, start_ab

    params, sources = settled(ctx, ctx.params["repo"])
    opts = ab_options(params, sources=sources)
    db = record_db(record, db, params)
    check_record(record, db, opts.repo, db_source(sources.get("db")), branch=record_branch)
    if record:
        from perfproof.history.db import resolve_target

        opts = replace(opts, history_db=resolve_target(db, Path(opts.repo)).label)
    ref: str | None = ctx.params["ref"]
    variants = variant_rule(ctx.params["pairs"], ctx.params["pair_suffix"],
                            ctx.params["sides_by_param"])  # fmt: skip
    check_one_commit(ctx, ref, variants, opts, resume_dir)
    reporter = make_reporter()
    try:
        if resume_dir:
            extra = given_fixed(ctx, *AB_GROUPS, VERDICT) + (
                ["--explain"] if given(ctx, "explain") else []
            )
            if extra:
                raise InputError(f"--resume takes the run's own settings; drop {', '.join(extra)}")
            outcome = resume_ab(
                Path(resume_dir),
                reporter,
                lock_timeout=opts.lock_timeout if given(ctx, "lock_timeout") else None,
                shard=opts.shard,
                ray_address=opts.ray_address,
                recorder=record_unreached,
            )
        elif variants.given() and ref is not None:
            outcome = start_ab(replace(opts, base=ref, head=ref), reporter, variants=variants)
        else:
            if not opts.base or not opts.head:
                raise InputError("--base and --head are required (or --resume RUN_DIR)")
            outcome = start_ab(opts, reporter, recorder=record_unreached)
    finally:
        reporter.close()
    render_outcome(outcome, fmt)
    if record:
        record_run_folder(Path(outcome.run_dir), db, record_branch, Path(opts.repo))
    write_junit(junit, outcome.result.comparisons, outcome.result.unmatched, "perfproof ab")
    unlooked = undecided_keys(outcome.result.comparisons)
    if fail_on_regression and unlooked and not outcome.result.regressed:
        raise GateFailed(
            f"--fail-on-regression could not look at {len(unlooked)} key(s) "
            f"({unlooked[0].key.label()}: {unlooked[0].warnings[0]}): a regression there is not "
            f"ruled out (run: {outcome.run_dir})"
        )
    if fail_on_regression and outcome.result.regressed:
        where = str(Path(outcome.run_dir) / "results.json")
        text = gate.message(gate.failures(outcome.result.regressed), where)
        comparisons = outcome.document.comparisons
        unexplained, unconfirmed = unexplained_of(comparisons), unconfirmed_of(comparisons)
        if unexplained:
            listed = gate.named(unexplained, gate.SHOWN, where)
            text += f"; {len(unexplained)} not explained by the change: {listed}"
        if unconfirmed:
            listed = gate.named(unconfirmed, gate.SHOWN, where)
            text += f"; no static call path found to the change: {listed}"
        raise GateFailed(f"{text} (run: {outcome.run_dir})")


def check_one_commit(
    ctx: click.Context, ref: str | None, variants: Variants, opts: AbOptions, resume: str | None
) -> None:
    """``--ref`` and a variant rule come together, and without what needs two commits."""
    if ref is None and variants.given():
        raise InputError(f"{variant_flag(variants)} makes the sides of one commit: give --ref REF")
    if ref is None:
        return
    if not variants.given():
        raise InputError("--ref measures one commit's variants: add --pair, --pair-suffix or "
                         "--sides-by-param (two commits: --base and --head)")  # fmt: skip
    refused = [flag for flag, on in (
        ("--base", given(ctx, "base")), ("--head", given(ctx, "head")), ("--resume", resume),
        ("--overlay", opts.overlay), ("--shard", opts.shard),
        ("--executor ray", opts.executor == Executor.RAY), ("--fresh-builds", opts.fresh_builds),
    ) if on]  # fmt: skip
    if refused:
        raise InputError(f"--ref (one commit, two variants): not with {refused[0]}")


def render_outcome(outcome: AbOutcome, fmt: Format) -> None:
    """Print a finished run in the chosen format; the run folder is always named (on stderr
    for json, so stdout stays one document)."""
    from perfproof.model.diagnostics import Kind
    from perfproof.render.comparison import print_table
    from perfproof.report import results_section
    from perfproof.report.markdown import results_section as section_of

    if fmt is Format.JSON:
        emit_json(outcome.document.dump())
        click.echo(f"run folder: {outcome.run_dir}", err=True)
        for line in profile_hints(outcome.jfr_dir, _benchmarks(outcome)):
            click.echo(line, err=True)
        return
    if fmt is Format.MD:  # exactly the summary and results that the run's report.md holds
        ctx = outcome.context
        text = results_section(outcome.run_dir) if ctx is None else section_of(ctx)
        click.echo(text, nl=False)
    else:
        print_table(outcome.shown)
        reach_kinds = (Kind.UNEXPLAINED, Kind.NO_PATH)
        for c in outcome.document.comparisons:
            for note in c.diagnostics.notes or ():
                if note.kind in reach_kinds:
                    click.secho(f"{c.key.benchmark}: {note.text}", fg="yellow")
    click.echo(f"\nrun folder: {outcome.run_dir}")
    click.echo(f"report: {outcome.report_path}")
    for line in profile_hints(outcome.jfr_dir, _benchmarks(outcome)):
        click.echo(line)


def _benchmarks(outcome: AbOutcome) -> list[str]:
    return sorted({c.key.benchmark for c in outcome.result.comparisons})
