"""``perfproof merge RUN_DIR… --out DIR``: the shards of one run, measured on several machines."""

from __future__ import annotations

from pathlib import Path

import click

from perfproof.cli import SHORT_HELP
from perfproof.cli.flag import flags
from perfproof.cli.options import OUT_DIR, emit_json, format_option, junit_option, write_junit
from perfproof.cli.pinned import run_settings, settled
from perfproof.cli.run_flags import VERDICT
from perfproof.errors import GateFailed
from perfproof.model.enums import Format
from perfproof.render import gate

EPILOG = """\b
Examples:
  perfproof merge shard-1/ shard-2/ shard-3/ --out merged/
  perfproof merge runs/* --out merged/ --format md > perf.md

Each RUN_DIR is a finished run of `perfproof ab --shard I/N`. The merge refuses (exit 2, naming
the shard) shards of other commits, other JMH or comparison settings, another partition, a
missing or repeated shard, and a key measured by two shards. Every key's forks come whole from
the one machine that measured it; the family of comparisons is adjusted across all keys, as if
one machine had run them. DIR gets results.json, report.md/html (with a Machine column) and a
manifest listing each shard's machine; raw JMH files are copied to DIR/jmh/s<I>.<file>."""


@click.command(
    "merge",
    epilog=EPILOG,
    short_help=SHORT_HELP["merge"],
    context_settings={"max_content_width": 100},
)
@click.argument("run_dirs", nargs=-1, required=True, metavar="RUN_DIR...")
@click.option("--out", required=True, type=OUT_DIR, help="The merged run folder (new or empty).")
@format_option()
@click.option("--fail-on-regression", is_flag=True, help="Exit 1 if any comparison regressed.")
@junit_option()
@flags(VERDICT)
@click.pass_context
def command(
    ctx: click.Context,
    run_dirs: tuple[str, ...],
    out: str,
    fmt: Format,
    fail_on_regression: bool,
    junit: Path | None = None,
    **verdict: object,
) -> None:
    """Merge the shard runs of one suite into one run folder and report them as one family."""
    from perfproof.pipeline.merge.run import merge_runs
    from perfproof.render.comparison import markdown, print_table

    if junit is not None:
        from perfproof.report import input_files
        from perfproof.storage import refuse_overwriting_inputs

        shard_files = [f for d in run_dirs if Path(d).is_dir() for f in input_files(d)]
        refuse_overwriting_inputs({"--junit": junit}, shard_files)
    params, sources = settled(ctx, None, keep_unset=True)
    chosen: dict[str, object] = {name: params[name] for name in sources}
    if sources:
        chosen["sources"] = sources
    outcome = merge_runs([Path(p) for p in run_dirs], Path(out), verdict=chosen)
    if fmt is Format.JSON:
        emit_json(outcome.document.with_settings(run_settings(Path(outcome.out))))
        click.echo(f"run folder: {outcome.out}", err=True)
    else:
        if fmt is Format.MD:
            click.echo(markdown(outcome.result), nl=False)
        else:
            print_table(outcome.result)
        machines = ", ".join(f"{s.spec} on {s.machine}" for s in outcome.shards)
        click.echo(f"\nshards: {machines}")
        click.echo(f"run folder: {outcome.out}")
        if outcome.report_path:
            click.echo(f"report: {outcome.report_path}")
    write_junit(junit, outcome.result.comparisons, outcome.result.unmatched, "perfproof merge")
    if fail_on_regression and outcome.result.regressed:
        found = gate.failures(outcome.result.regressed)
        message = gate.message(found, str(Path(outcome.out) / "results.json"))
        raise GateFailed(f"{message} (run: {outcome.out})")
