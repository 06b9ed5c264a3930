"""``perfproof e2e``: end-to-end A/B of whole commands, metrics parsed from their output."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from perfproof.cli import SHORT_HELP
from perfproof.cli.build_flags import BUILD
from perfproof.cli.flag import fill, flags, given
from perfproof.cli.options import (
    CONFIDENCE_DEFAULT,
    THRESHOLD_DEFAULT,
    confidence_option,
    emit_json,
    enum_choice,
    format_option,
    resume_option,
    threshold_option,
)
from perfproof.cli.pinned import settled
from perfproof.cli.run_flags import BASE_HELP
from perfproof.errors import InputError, PerfproofError
from perfproof.measure.plan import Order
from perfproof.model.enums import Format

if TYPE_CHECKING:
    from perfproof.pipeline.e2e.options import E2EOptions

EPILOG = """Examples:

\b
  perfproof e2e --base main --head my-branch --build maven --run "java -jar target/app.jar" \\
      --metric 'time[ms]=took (\\d+) ms' --runs 20
  perfproof e2e --base main --head HEAD --build auto --build-arg=-Pdist --java ~/jdk/bin/java \\
      --run "./bin/server --bench" --metric 'rps=rps: ([\\d.]+)' --higher-is-better rps
  perfproof e2e --base-cmd "python3 old.py" --head-cmd "python3 new.py" \\
      --metric 'rps=json:$.throughput' --higher-is-better rps
  perfproof e2e --base-dir ../v1 --head-dir ../v2 --run "./bench.sh" \\
      --metric 'p99=p99: ([\\d.]+)' --amdahl-share 12 --per-call-gain 40
  perfproof e2e --resume .perfproof/runs/e2e-20250101-120000-3f9a

Exit codes: 0 done; 2 bad input, including a metric whose pattern matches nothing in a run's
output (the message names the run and its log); 3 a command, setup, teardown or build failed
(the message names the run and its log).
"""


def _progress(i: int, total: int, step, duration: float, values: dict[str, float]) -> None:
    shown = " ".join(f"{k}={v:g}" for k, v in values.items())
    tag = "warm-up " if step.warmup else ""
    click.echo(
        f"[{i:>{len(str(total))}}/{total}] {tag}{step.id} {duration:.2f}s {shown}".rstrip(),
        err=True,
    )


@click.command(
    "e2e",
    epilog=EPILOG,
    short_help=SHORT_HELP["e2e"],
)
@click.option("--base", "base_ref", metavar="REF", help=BASE_HELP)
@click.option("--head", "head_ref", metavar="REF", help="Feature commit/branch/tag.")
@click.option(
    "--repo",
    default=".",
    show_default=True,
    type=click.Path(file_okay=False),
    help="Repository holding --base/--head.",
)
@flags(BUILD)
@click.option(
    "--run",
    metavar="CMD",
    help="Command to run on both sides (split like a shell would, never run by one).",
)
@click.option(
    "--base-cmd", metavar="CMD", help="Baseline command (with --head-cmd, instead of --run)."
)
@click.option("--head-cmd", metavar="CMD", help="Feature command.")
@click.option("--base-dir", metavar="DIR", help="Run the baseline side in DIR (no refs, no build).")
@click.option("--head-dir", metavar="DIR", help="Run the feature side in DIR.")
@click.option("--setup", metavar="CMD", help="Run before every run, in the side's directory.")
@click.option("--teardown", metavar="CMD", help="Run after every run, even a failed one.")
@click.option(
    "--shell", is_flag=True, help="Run the commands through /bin/sh -c (pipes, &&, redirections)."
)
@click.option(
    "--metric",
    "metrics",
    multiple=True,
    metavar="NAME[unit]=REGEX|json:$.path",
    help="A metric: first group of REGEX in stdout/stderr, or a JSON path on stdout. Repeatable.",
)
@click.option(
    "--higher-is-better",
    multiple=True,
    metavar="NAME",
    help="Metric where larger is better (default: lower is better). Repeatable.",
)
@click.option("--runs", default=10, show_default=True, type=int, help="Measured runs per side.")
@click.option(
    "--warmup-runs",
    default=0,
    show_default=True,
    type=int,
    help="Unmeasured runs per side before the measured ones.",
)
@click.option(
    "--order",
    type=enum_choice(Order),
    default=Order.ABBA.value,
    show_default=True,
    help="Order of the two sides inside each round.",
)
@click.option("--seed", default=1, show_default=True, type=int, help="Seed of --order random.")
@confidence_option(
    "Confidence level of every interval (0.99 or 99%; pinned by perfproof.toml or "
    "PERFPROOF_CONFIDENCE when not given).",
    default=CONFIDENCE_DEFAULT,
)
@threshold_option(
    "Practical threshold: smaller changes are 'negligible'/'same' (1% or 0.01; pinned "
    "by perfproof.toml or PERFPROOF_THRESHOLD when not given).",
    default=THRESHOLD_DEFAULT,
)
@click.option(
    "--target-effect",
    "target_pct",
    type=float,
    metavar="PCT",
    help="Effect the 'runs needed' figure aims at [default: --threshold].",
)
@click.option(
    "--amdahl-share",
    "amdahl_share_pct",
    type=float,
    metavar="PCT",
    help="The changed hot spot's share of the program's time, in percent.",
)
@click.option(
    "--per-call-gain",
    "per_call_gain_pct",
    type=float,
    metavar="PCT",
    help="The hot spot's own speed-up from the micro-benchmark, in percent (t_base/t_feature − 1).",
)
@click.option(
    "--amdahl-metric",
    metavar="NAME",
    help="Metric the Amdahl ceiling applies to [default: the first --metric].",
)
@click.option("--timeout", type=float, metavar="SECONDS", help="Kill a run after this long.")
@click.option(
    "--runs-dir",
    type=click.Path(file_okay=False),
    help="Where run folders go [default: .perfproof/runs in the repo or here].",
)
@resume_option(
    "resume_dir",
    "RUN_DIR",
    "Finish an interrupted run (other options come from its manifest; "
    "--metric re-reads the kept outputs).",
)
@format_option()
@click.pass_context
def command(ctx: click.Context, resume_dir: str | None, fmt: Format, **kw: Any) -> None:
    """End-to-end A/B: run a command N times per side, interleaved, and compare its metrics.

    Each side's command runs in that side's worktree after its build (--base/--head), in a
    given directory (--base-dir/--head-dir) or as a command of its own (--base-cmd/--head-cmd).
    Every raw output is kept in the run folder.
    """
    from perfproof.model.documents.e2e import e2e_document
    from perfproof.pipeline.e2e import run as e2e
    from perfproof.render.e2e import to_markdown, to_table

    if resume_dir is not None:
        refused = [
            param.opts[0]
            for param in ctx.command.params
            if param.name in kw and param.name not in RESUME_FLAGS and given(ctx, param.name)
        ]
        if refused:
            raise InputError(f"--resume takes the run's own settings; drop {', '.join(refused)}")
        store = e2e.open_run(Path(resume_dir))
    else:
        store = e2e.start(e2e_options(ctx))
    try:
        result = e2e.execute_and_analyse(
            store,
            on_step=_progress,
            metrics_override=list(kw["metrics"]) if resume_dir is not None else None,
            higher_is_better=list(kw["higher_is_better"]) if resume_dir is not None else None,
        )
    except InputError:
        # found before any run finished (a program that cannot start): nothing to resume
        if resume_dir is None and store.discard_if_unused():
            raise
        _hint(store.path)
        raise
    except (PerfproofError, KeyboardInterrupt):
        _hint(store.path)
        raise
    if fmt is Format.JSON:
        emit_json(e2e_document(result))
    elif fmt is Format.MD:
        click.echo(to_markdown(result), nl=False)
    else:
        click.echo(to_table(result), nl=False)


def _hint(run_dir: Path) -> None:
    click.echo(
        f"perfproof: finished runs are kept; continue with: perfproof e2e --resume {run_dir}",
        err=True,
    )


def e2e_options(ctx: click.Context) -> E2EOptions:
    """The run's one builder: each ``E2EOptions`` field the flag of its name as the door typed
    it, the confidence and threshold settled with the pinned settings; only the threshold is
    computed, kept in percent as the manifest has always held it."""
    from perfproof.pipeline.e2e.options import E2EOptions

    pinned = settled(ctx, ctx.params["repo"], only={"confidence", "threshold"})
    params: Mapping[str, Any] = pinned[0]
    return fill(E2EOptions, params, threshold_pct=params["threshold"] * 100.0)


RESUME_FLAGS = {"metrics", "higher_is_better"}
"""The flags a resumed run takes: they change how the kept outputs are read, not what ran."""
