"""``perfproof demo``: run the whole A/B job on the embedded sample project."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

from perfproof.cli import SHORT_HELP
from perfproof.cli.options import OUT_DIR, emit_json, format_option
from perfproof.model.enums import Format

if TYPE_CHECKING:
    from perfproof.demo.run import DemoOutcome

EPILOG = """Writes a small Maven + JMH 1.37 project into a fresh git repository (commits
`baseline`, `feature`, `docs-only`), then runs `perfproof ab` twice with its sequential design:
baseline → feature, where both benchmarks get many times faster and stop allocating (expect
`improved` for time and bytes/op, decided early), and feature → docs-only, an A/A control on
identical code that runs to its last round (expect no `improved` and no `regressed`). Last,
`perfproof prove` on baseline → feature: changed methods, callers, the benchmarks that reach
them, the A/B, profile forks and their diff, Amdahl and the sample's JUnit tests on both
commits, in DIR/prove. About 5-6 minutes on 2 cores, including the first Maven download.

\b
Examples:
  perfproof demo
  perfproof demo --out ./perfproof-demo
  perfproof demo --format json | jq '.runs[].comparisons[].verdict'
  perfproof report ./perfproof-demo/runs/feature-vs-baseline
  perfproof check ./perfproof-demo/prove/report.md ./perfproof-demo/prove
"""


@click.command("demo", epilog=EPILOG, short_help=SHORT_HELP["demo"])
@click.option(
    "--out",
    type=OUT_DIR,
    help="Keep everything in DIR: the project at DIR/project, runs under DIR/runs/ "
    "(default: a new temporary folder).",
)
@format_option((Format.TABLE, Format.JSON))
def command(out: str | None, fmt: Format) -> None:
    """Run the whole A/B job on an embedded sample project, with an A/A control."""
    from perfproof.demo.run import run_demo
    from perfproof.measure.progress import make_reporter

    outcome = run_demo(Path(out) if out else None, make_reporter=make_reporter)
    print_outcome(outcome, fmt)


def print_outcome(outcome: DemoOutcome, fmt: Format) -> None:
    """What the demo prints once it has run, in ``fmt`` (``table`` or ``json``): a function of
    the finished outcome alone, so that one real demo run can be shown both ways."""
    from perfproof.demo.run import RUNS
    from perfproof.render.comparison import print_table

    if fmt is Format.JSON:
        from perfproof.demo.run import demo_document

        emit_json(demo_document(outcome))
        return
    titles = {
        "feature-vs-baseline": "baseline → feature (two hot paths optimised)",
        "aa-control": "feature → docs-only (A/A control: identical code)",
    }
    for name, _, _ in RUNS:
        run = outcome.runs[name]
        click.echo(f"\n{titles[name]}")
        print_table(run.result)
    click.echo(f"\nsample project: {outcome.repo.path}")
    for name, _, _ in RUNS:
        run = outcome.runs[name]
        click.echo(f"{name}: {run.report_path}  (run folder {run.run_dir})")
    if outcome.prove is not None and outcome.prove.report is not None:
        bundle, report = outcome.prove.bundle, outcome.prove.report.markdown
        click.echo(f"prove: {report}  (bundle {bundle}; perfproof check {report} {bundle})")
    if "baseline" in outcome.hunts:
        from perfproof.render.hunt import hunt_table

        base = outcome.hunts["baseline"]
        click.echo("\nhunt on the baseline: where its time and bytes go")
        click.echo(hunt_table(base.result, top=5), nl=False)
        for ref, h in outcome.hunts.items():
            click.echo(f"hunt ({ref}): {h.files['md']}")
