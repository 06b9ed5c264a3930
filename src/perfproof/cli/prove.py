"""``perfproof prove``: the whole evidence chain for one change, in one bundle folder.

Every option of ``ab`` is taken as ``ab`` spells it: the click options are ``ab``'s own
objects, so a flag added to ``ab`` is a flag of ``prove`` too.
"""

from __future__ import annotations

from pathlib import Path

import click

from perfproof import defaults
from perfproof.cli import SHORT_HELP
from perfproof.cli.ab import command as ab_command
from perfproof.cli.flag import fill, given, given_fixed
from perfproof.cli.options import (
    OUT_DIR,
    emit_json,
    enum_option,
    format_option,
    resume_option,
    write_junit,
)
from perfproof.cli.pinned import json_settings, run_settings, settled
from perfproof.cli.run_flags import AB_GROUPS, VERDICT, ab_options
from perfproof.errors import GateFailed, InputError
from perfproof.model.documents.prove import SKIPPABLE
from perfproof.model.documents.settings import SettingEntry
from perfproof.model.enums import Format
from perfproof.pipeline.prove.options import Gate, ProfileForks, ProveOptions, Reach
from perfproof.pipeline.prove.run import ProveOutcome, stage_lines
from perfproof.render.prove_reach import unexplained_keys

EPILOG = f"""Stages, each saved in BUNDLE/prove.json before the next starts:

\b
  1 changes     changed methods and constructors (git diff vs tree-sitter spans)
  2 callers     their production call sites (as `perfproof callers`)
  3 benchmarks  @Benchmark methods that reach a changed method (or --bench)
  4 guard       the feature's new or changed benchmark overlaid onto the baseline
  5 ab          the sequential A/B of those benchmarks (timing forks run without JFR)
    profile     forks of their own recorded by JFR; profile diff head vs base on the
                changed classes; Amdahl ceiling
  6 tests       the tests of the changed classes on both commits (JUnit XML)
  7 e2e         with --e2e-run: `perfproof e2e` on both commits
  8 report      report.md (a PR body), report.html, prove.json

--skip leaves out one of: {", ".join(SKIPPABLE)} (repeatable).

Examples:

\b
  perfproof prove --base main --head my-branch
  perfproof prove --base main --head HEAD --bench ErrorReporterBench --out perf-evidence
  perfproof prove --base main --head HEAD --skip tests --budget 10m
  perfproof prove --base main --head HEAD --reach static   # no recorded round first
  perfproof prove --resume .perfproof/prove/20260101-120000
  perfproof prove --base main --head fix --hypothesis H3f9a0c1d2e --from .perfproof/hunt/run1
  perfproof check perf-evidence/report.md perf-evidence

Exit codes: 0 done (also when no benchmark reaches the change: the bundle says so); 1 a test
that passes on the baseline fails on the feature, or --fail-on-regression saw a regression or
could not look at a key (the A/B ended before it had 2 forks a side); 2 bad input; 3 a build
or run failed in a stage (the message names the stage and the log; fix it and continue with
--resume).
"""

_NOT_SHARED = {"resume_dir", "out", "fmt", "jfr"}
"""ab options prove spells its own way: --resume takes a bundle, --out is the bundle folder,
--format prints the bundle, --jfr says when the profile forks run (never in a timing fork)."""


@click.command("prove", epilog=EPILOG, short_help=SHORT_HELP["prove"])
@click.option(
    "--out",
    type=OUT_DIR,
    help="Bundle folder (default <repo>/.perfproof/prove/<time>).",
)
@resume_option(
    "resume_bundle", "BUNDLE", "Continue a stopped chain: only the stages that did not finish."
)
@click.option(
    "--skip",
    multiple=True,
    type=click.Choice(SKIPPABLE),
    help="Leave a stage out (repeatable).",
)
@click.option(
    "--depth",
    type=click.IntRange(1, 20),
    default=defaults.DEPTH,
    show_default=True,
    help="Most calls between a benchmark and a changed method.",
)
@enum_option(
    "--jfr",
    ProfileForks,
    ProfileForks.AFTER,
    "Profile forks, recorded by JFR and never timed: after, three rounds of each key "
    "on each side once the A/B is decided; every, as many rounds as the A/B ran.",
)
@enum_option(
    "--reach",
    Reach,
    Reach.PROFILE,
    "Benchmarks the call graph reaches only through dynamic dispatch (a call to an "
    "interface method the changed class implements): profile first records one baseline fork of "
    "each (BUNDLE/reach, one JMH step) and leaves out of the A/B those whose profile never samples "
    "the changed methods; static measures them all, last (a --budget cut falls on them first). "
    "Example: perfproof prove --base main --head HEAD --reach static",
)
@enum_option(
    "--gate",
    Gate,
    Gate.ANY,
    "any: --fail-on-regression fails on every regression, also one the change cannot "
    "reach; explained: fail (exit 1) only on regressions of benchmarks the change reaches.",
)
@click.option(
    "--hypothesis",
    metavar="ID",
    help="A hypothesis of an earlier `perfproof hunt` this change claims to fix (its id, or "
    "Class.method as the hunt names it): the profile diff is focused on its class and the "
    "Amdahl section sets the hunt's prediction beside what this change measured. Needs --from.",
)
@click.option(
    "--from",
    "hunt",
    metavar="HUNT",
    help="The hunt the --hypothesis comes from: its folder (with hunt.json) or the JSON file.",
)
@click.option("--e2e-run", metavar="CMD", help="End-to-end command run on both commits.")
@click.option(
    "--e2e-metric",
    multiple=True,
    metavar="NAME=REGEX",
    help="A metric the end-to-end command prints (repeatable; as `e2e --metric`).",
)
@click.option(
    "--e2e-runs", type=click.IntRange(2), default=10, show_default=True, help="Runs per side."
)
@format_option(help="table: a short summary; md: report.md; json: prove.json (perfproof.prove/1).")
@click.pass_context
def command(ctx: click.Context, **_: object) -> None:
    """Prove one change: changed methods, callers, affected benchmarks, guard, A/B, profile
    forks and their diff, tests on both commits, Amdahl, end to end, one PR body."""
    from perfproof.pipeline.prove.run import resume_prove, start_prove

    def say(text: str) -> None:
        click.echo(text, err=True)

    resume_bundle = ctx.params["resume_bundle"]
    if resume_bundle:
        own = (("--depth", "depth"), ("--e2e-run", "e2e_run"), ("--gate", "gate"),
               ("--reach", "reach"), ("--hypothesis", "hypothesis"),
               ("--from", "hunt"))  # fmt: skip
        extra = given_fixed(ctx, *AB_GROUPS, VERDICT) + [f for f, name in own if given(ctx, name)]
        if extra:
            raise InputError(f"--resume takes the bundle's own settings; drop {', '.join(extra)}")
        outcome = resume_prove(Path(resume_bundle), say, ctx.params["skip"])
        chosen: dict[str, SettingEntry] = {}
    else:
        opts, chosen = prove_options(ctx)
        outcome = start_prove(opts, say)
    _print(outcome, ctx.params["fmt"], chosen)
    _junit(ctx.params.get("junit"), outcome)
    if outcome.gates:
        raise GateFailed("; ".join(outcome.gates) + f" (bundle: {outcome.bundle})")


def prove_options(ctx: click.Context) -> tuple[ProveOptions, dict[str, SettingEntry]]:
    """The chain's one builder: the A/B's options as ``ab`` builds them (settled with the
    pinned settings), and prove's own flags, typed (exit 2 here, before any stage); with the
    settings block ``--format json`` shows."""
    p = ctx.params
    if p.get("record"):
        raise InputError(
            "--record: prove keeps its A/B run in BUNDLE/ab; record that folder with "
            "`perfproof history record BUNDLE/ab`"
        )
    params, sources = settled(ctx, p["repo"])
    chosen = json_settings(params, sources)
    ab = ab_options(params, out=None, jfr=False, sources=sources)
    if not ab.base or not ab.head:
        raise InputError("--base and --head are required (or --resume BUNDLE)")
    fail_on_regression = bool(p.get("fail_on_regression"))
    return fill(ProveOptions, p, ab=ab, fail_on_regression=fail_on_regression), chosen


def _junit(path: Path | None, outcome: ProveOutcome) -> None:
    """``--junit``: the A/B stage's keys; with no A/B run (nothing measured), no test case."""
    if path is None:
        return
    if outcome.ab_run is None or not (outcome.ab_run / "results.json").is_file():
        write_junit(path, [], [], "perfproof prove")
        return
    from perfproof.report.rundir import load_run

    doc = load_run(outcome.ab_run).document
    write_junit(path, doc.comparisons, doc.unmatched, "perfproof prove")


def _print(outcome: ProveOutcome, fmt: Format, chosen: dict[str, SettingEntry]) -> None:
    """The outcome in ``fmt``; JSON carries the settings the A/B run was made with and where
    each came from (``chosen``, as settled at the door, when no A/B run was made)."""
    report = outcome.report
    if fmt is Format.JSON:
        ab_run = outcome.ab_run
        settings = run_settings(ab_run) if ab_run is not None else chosen
        emit_json(outcome.doc.with_settings(settings))
        click.echo(f"bundle: {outcome.bundle}", err=True)
        return
    if fmt is Format.MD and outcome.markdown is not None:  # the PR body report.md holds
        click.echo(outcome.markdown, nl=False)
        return
    for line in stage_lines(outcome.doc):
        click.echo(line)
    for line in unexplained_keys(outcome.results):
        click.secho(line, fg="yellow")
    if report is not None and report.summary:
        click.echo(f"\nSummary: {report.summary.replace('**', '')}")
    for gate in outcome.gates:
        click.secho(f"FAILED: {gate}", fg="red", bold=True)
    click.echo(f"\nbundle: {outcome.bundle}")
    if report is not None:
        click.echo(f"report: {report.markdown}")
        click.echo(f"check it: perfproof check {report.markdown} {outcome.bundle}")


command.params.extend(p for p in ab_command.params if p.name not in _NOT_SHARED)
