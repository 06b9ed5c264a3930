"""``perfproof ab``: build two commits in isolation, run their JMH benchmarks interleaved."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

from perfproof.cli.history import record_options, record_run_folder
from perfproof.cli.options import FUTILITY, emit_json, format_option
from perfproof.errors import GateFailed, InputError
from perfproof.measure.jfr_hints import profile_hints
from perfproof.measure.lock import DEFAULT_LOCK_TIMEOUT_S
from perfproof.measure.plan import DEFAULT_JMH_ARGS, DEFAULT_MAX_ROUNDS, ORDERS

if TYPE_CHECKING:
    from perfproof.pipeline.ab import AbOutcome

DEFAULTS_TEXT = " ".join(DEFAULT_JMH_ARGS)

EPILOG = f"""Rounds are sequential: each round runs both sides once (ABBA order), each step one
JMH process with `{DEFAULTS_TEXT} -prof gc` (perfproof adds `-foe true -rf json -rff FILE`).
After every round perfproof looks at all forks so far; a benchmark × @Param key whose verdict
is in stops, and the next round runs only the undecided keys, up to --max-rounds
({DEFAULT_MAX_ROUNDS}) or until the next round would overrun --budget. The looks use repeated
confidence intervals, so stopping early keeps the error rate. --rounds N is the fixed design
instead (every key in all N rounds, no early stop), for comparison with other tools. Forks are
the unit of replication: more rounds, not a larger -f. Options in --jmh-args replace the
default of the same name; everything else is passed to JMH unchanged.

\b
Run folder (default <repo>/.perfproof/runs/<id>/, or --out):
  manifest.json  jmh/<round>-<side>.json  logs/  results.json  report.md
  jfr/r<round>-<side>/fork-N.jfr  (with --jfr)

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

Exit codes: 0 done; 1 --fail-on-regression saw a regression; 2 bad input (unknown ref, bad
flag, a --bench regex that selects nothing); 3 a build or JMH step failed (the message names
the side, the step and the log). Ctrl-C stops cleanly; continue with --resume.
"""

RUN_FLAGS = (
    "base",
    "head",
    "bench",
    "module",
    "build_kind",
    "build_cmd",
    "jar",
    "classpath_file",
    "build_args",
    "rounds",
    "max_rounds",
    "budget",
    "futility",
    "order",
    "seed",
    "jmh_args",
    "overlay",
    "java",
    "fresh_builds",
    "out",
    "jfr",
    "executor",
)


@click.command(
    "ab", epilog=EPILOG, short_help="Build two commits, run JMH interleaved, compare them."
)
@click.option(
    "--repo",
    default=".",
    show_default=True,
    type=click.Path(file_okay=False),
    help="The git repository holding both refs (never modified).",
)
@click.option("--base", metavar="REF", help="Baseline commit, branch or tag.")
@click.option("--head", metavar="REF", help="Feature commit, branch or tag.")
@click.option(
    "--bench",
    multiple=True,
    metavar="REGEX",
    help="JMH benchmark regex (repeatable); default: every benchmark.",
)
@click.option("--module", metavar="PATH", help="Build module holding the benchmarks.")
@click.option(
    "--build",
    "build_kind",
    type=click.Choice(["maven", "gradle", "custom"]),
    help="Build tool (default: detected from pom.xml / Gradle files).",
)
@click.option(
    "--build-cmd",
    metavar="CMD",
    help="Custom build command (split like a shell would, never run by one).",
)
@click.option("--jar", metavar="GLOB", help="With --build-cmd: the benchmark jar it makes.")
@click.option(
    "--classpath-file",
    metavar="FILE",
    help="With --build-cmd: a file listing the benchmark classpath.",
)
@click.option(
    "--build-arg",
    "build_args",
    multiple=True,
    metavar="ARG",
    help="Extra argument for the detected Maven/Gradle build (repeatable): -Pexamples, "
    "-Dcheckstyle.skip.",
)
@click.option(
    "--budget",
    metavar="DURATION",
    help="Wall clock of measurement not to exceed (90s, 15m, 1h): no round starts that "
    "would end after it; keys still undecided then stay inconclusive.",
)
@click.option(
    "--futility",
    type=FUTILITY,
    metavar="PCT",
    help="Stop an undecided key once its chance of a verdict by --max-rounds is below PCT "
    "(default 5%; 0 runs undecided keys to --max-rounds).",
)
@click.option(
    "--max-rounds",
    type=int,
    metavar="N",
    help=f"Most rounds of the sequential design (default {DEFAULT_MAX_ROUNDS}).",
)
@click.option(
    "--rounds",
    type=int,
    metavar="N",
    help="Fixed design: exactly N rounds, every key in every round, no early stop.",
)
@click.option(
    "--order",
    type=click.Choice(ORDERS),
    default="abba",
    show_default=True,
    help="Order of the sides within rounds.",
)
@click.option(
    "--seed", type=int, help="Seed for --order random (recorded); refused with other orders."
)
@click.option(
    "--jmh-args",
    metavar="ARGS",
    help=f'JMH options, e.g. "-p n=16 -wi 5" (default "{DEFAULTS_TEXT}").',
)
@click.option(
    "--overlay",
    multiple=True,
    metavar="PATH",
    help="Copy PATH from head onto base before building base (repeatable).",
)
@click.option("--java", metavar="PATH", help="java executable for builds and both sides.")
@click.option(
    "--fresh-builds",
    is_flag=True,
    help="Rebuild every side before every round instead of using cached builds.",
)
@click.option("--out", metavar="DIR", help="Run folder (default <repo>/.perfproof/runs/<id>).")
@click.option(
    "--jfr",
    is_flag=True,
    help="Record every fork of every step with JFR (settings=profile), one file per fork: "
    "RUN_DIR/jfr/r<round>-<side>/fork-N.jfr. Read them with "
    "`perfproof profile RUN_DIR/jfr/r1-head` or `perfproof profile diff "
    "--before RUN_DIR/jfr/r*-base --after RUN_DIR/jfr/r*-head`.",
)
@format_option()
@click.option("--fail-on-regression", is_flag=True, help="Exit 1 if any comparison regressed.")
@click.option(
    "--lock-timeout",
    type=float,
    default=DEFAULT_LOCK_TIMEOUT_S,
    show_default=True,
    metavar="S",
    help="Seconds to wait for another JMH holding /tmp/jmh.lock.",
)
@click.option(
    "--shard",
    metavar="I/N",
    help="Measure only shard I of N (1-based) of the suite's keys, on this machine; join "
    "the N run folders with `perfproof merge`. With --resume: must name the folder's shard.",
)
@click.option(
    "--executor",
    type=click.Choice(["local", "ray"]),
    default="local",
    show_default=True,
    help="Where JMH runs: this machine, or key groups on the nodes of a Ray cluster that "
    "offer a 'jmh' resource (pip install 'perfproof[ray]').",
)
@click.option(
    "--ray-address",
    metavar="HOST:PORT",
    help="With --executor ray: the cluster to join (default: RAY_ADDRESS or a local one).",
)
@click.option(
    "--resume",
    "resume_dir",
    metavar="RUN_DIR",
    type=click.Path(file_okay=False),
    help="Continue a stopped run: only unfinished steps are run.",
)
@record_options(with_commit=False)
@click.pass_context
def command(
    ctx: click.Context,
    repo: str,
    base: str | None,
    head: str | None,
    bench: tuple[str, ...],
    module: str | None,
    build_kind: str | None,
    build_cmd: str | None,
    jar: str | None,
    classpath_file: str | None,
    build_args: tuple[str, ...],
    budget: str | None,
    futility: float | None,
    max_rounds: int | None,
    rounds: int | None,
    order: str,
    seed: int | None,
    jmh_args: str | None,
    overlay: tuple[str, ...],
    java: str | None,
    fresh_builds: bool,
    out: str | None,
    jfr: bool,
    fmt: str,
    fail_on_regression: bool,
    lock_timeout: float,
    resume_dir: str | None,
    shard: str | None,
    executor: str,
    ray_address: str | None,
    record: bool,
    db: str | None,
    record_branch: str | None,
) -> None:
    """Build two commits in isolation, run their JMH benchmarks interleaved, compare them."""
    from perfproof.measure.progress import make_reporter
    from perfproof.pipeline.ab import AbOptions, resume_ab, start_ab

    def given(name: str) -> bool:
        return ctx.get_parameter_source(name) is click.core.ParameterSource.COMMANDLINE

    reporter = make_reporter()
    try:
        if resume_dir:
            extra = [f"--{n.replace('_', '-')}" for n in RUN_FLAGS if given(n)]
            if extra:
                raise InputError(f"--resume takes the run's own settings; drop {', '.join(extra)}")
            outcome = resume_ab(
                Path(resume_dir),
                reporter,
                lock_timeout=lock_timeout if given("lock_timeout") else None,
                shard=shard,
                ray_address=ray_address,
            )
        else:
            if not base or not head:
                raise InputError("--base and --head are required (or --resume RUN_DIR)")
            opts = AbOptions(
                base=base,
                head=head,
                repo=repo,
                bench=bench,
                module=module,
                build=build_kind or "auto",
                build_cmd=build_cmd,
                jar=jar,
                classpath_file=classpath_file,
                build_args=build_args,
                rounds=rounds,
                max_rounds=max_rounds,
                budget=budget,
                futility=futility,
                order=order,
                seed=seed,
                jmh_args=jmh_args,
                overlay=overlay,
                java=java,
                fresh_builds=fresh_builds,
                out=out,
                lock_timeout=lock_timeout,
                jfr=jfr,
                shard=shard,
                executor=executor,
                ray_address=ray_address,
            )
            outcome = start_ab(opts, reporter)
    finally:
        reporter.close()
    render_outcome(outcome, fmt)
    if record:
        record_run_folder(Path(outcome.run_dir), db, record_branch, Path(repo))
    if fail_on_regression and outcome.result.regressed:
        names = ", ".join(c.key.label() for c in outcome.result.regressed[:3])
        raise GateFailed(f"regression: {names} (run: {outcome.run_dir})")


def render_outcome(outcome: AbOutcome, fmt: str) -> None:
    """Print a finished run in the chosen format; the run folder is always named (on stderr
    for json, so stdout stays one document)."""
    from perfproof.render.comparison import print_table
    from perfproof.report import results_section

    if fmt == "json":
        emit_json(outcome.document)
        click.echo(f"run folder: {outcome.run_dir}", err=True)
        for line in profile_hints(outcome.jfr_dir, _benchmarks(outcome)):
            click.echo(line, err=True)
        return
    if fmt == "md":  # exactly the summary and results that the run's report.md holds
        click.echo(results_section(outcome.run_dir), nl=False)
    else:
        print_table(outcome.result)
    click.echo(f"\nrun folder: {outcome.run_dir}")
    click.echo(f"report: {outcome.report_path}")
    for line in profile_hints(outcome.jfr_dir, _benchmarks(outcome)):
        click.echo(line)


def _benchmarks(outcome: AbOutcome) -> list[str]:
    return sorted({c.key.benchmark for c in outcome.result.comparisons})
