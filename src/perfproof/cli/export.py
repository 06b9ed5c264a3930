"""``perfproof export RUN_DIR --to FORMAT``: a run in a format other CI tools read."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from perfproof.cli import SHORT_HELP
from perfproof.cli.options import EnumChoice, emit_json, stdout_format_option
from perfproof.errors import InputError
from perfproof.model.enums import ExportFormat, Format, SampleUnit

EPILOG = """\b
Formats:
  bencher                  Bencher Metric Format JSON (bencher run --adapter json)
  github-action-benchmark  customSmallerIsBetter.json and customBiggerIsBetter.json
  benchstat                Go benchmark text, one line per fork
                           (benchstat -col side -ignore commit FILE)
  otava                    Apache Otava: otava.csv (one row per run; several RUN_DIRs make a
                           series; units in column names) and otava.yaml (directions);
                           cd DIR && otava analyze perfproof-all --config-file otava.yaml
  csv                      perfproof.csv: the comparisons, one row per key and run (both
                           sides with intervals, ratio, Δ%, verdict; canonical units)

\b
Examples:
  perfproof export .perfproof/runs/20260101-120000-ab12 --to bencher --out bmf.json
  perfproof export RUN_DIR --to github-action-benchmark --out gab/
  perfproof export RUN_DIR --to benchstat --out - | benchstat -col side -ignore commit /dev/stdin
  perfproof export runs/* --to otava --out otava/
  perfproof export RUN_DIR --to bencher --out bmf.json --format json | jq -r '.files[].path'

Without --out the files go to RUN_DIR/export/. Values are the head side's mean of fork means
with the fork-level interval; an output path that is one of the run's own files is refused.

\b
--format json prints one perfproof.export/1 object on stdout instead of the "wrote" lines:
  format, metrics, samples    the --to format, the metrics, benchstat's sample (else null)
  runs[]                      run_dir, run_id, commit, base_commit, time, machine
  files[]                     path, keys (perfproof keys in it), rows (entries, result lines
                              or CSV rows), bytes, omitted_intervals (each with why),
                              not_compared (metrics measured with no CSV rows, each with why)
Not with --out - (there stdout is the export itself).
Exit codes: 0 done; 2 bad input (unknown format, not a run folder), one line on stderr."""


@click.command(
    "export",
    short_help=SHORT_HELP["export"],
    epilog=EPILOG,
    context_settings={"max_content_width": 100},
)
@click.argument("run_dirs", nargs=-1, required=True, metavar="RUN_DIR...")
@click.option("--to", "fmt", required=True, metavar="FORMAT", help="Export format (see below).")
@click.option(
    "--out",
    metavar="FILE|DIR",
    help="Output file ('-' for stdout), or folder for formats that write several files.",
)
@click.option(
    "--metric",
    "metrics",
    multiple=True,
    help="Metric to export (repeatable) [default: primary, gc.alloc.rate.norm and the costs "
    "beside them: direct.alloc.norm, native.alloc.norm, gc.time.norm, gc.count.norm, each "
    "where a key has any].",
)
@click.option(
    "--samples",
    type=EnumChoice(SampleUnit),
    default=SampleUnit.AUTO.value,
    show_default=True,
    help="benchstat: one sample per fork, or per iteration; auto takes forks when every key "
    "has the six benchstat needs to test, else iterations (narrower intervals: iterations of "
    "one fork are not independent).",
)
@stdout_format_option(
    "What stdout says: a line per file written, or one JSON object (perfproof.export/1, "
    "see below) with the paths, keys, rows and the runs' ids, commits and machines."
)
def command(
    run_dirs: tuple[str, ...],
    fmt: str,
    out: str | None,
    metrics: tuple[str, ...],
    samples: SampleUnit,
    output: Format,
) -> None:
    """Export a run's results (fork-level means and intervals) to a CI benchmark format."""
    from perfproof.export import DEFAULT_METRICS, export, export_format, targets
    from perfproof.export.written import Written, export_document
    from perfproof.storage import write_text_atomic

    to = export_format(fmt)  # before any reading: a typo costs nothing
    if samples is not SampleUnit.AUTO and to is not ExportFormat.BENCHSTAT:
        raise InputError(f"--samples: only for --to benchstat, not --to {to}")
    if output is Format.JSON and out == "-":
        raise InputError(
            "--format json: stdout carries the description, so --out - has nowhere to go "
            "(name a file or folder)"
        )
    chosen = tuple(metrics) or DEFAULT_METRICS
    runs, files = export([Path(p) for p in run_dirs], to, chosen, samples)
    if out == "-" and len(files) == 1:
        only = next(iter(files.values()))
        sys.stdout.write(only.text)
        for reason in only.omitted:
            click.echo(f"interval left out: {reason}", err=True)
        for reason in only.not_compared:
            click.echo(f"no rows: {reason}", err=True)
        return
    written = []
    for target, file in targets(runs, files, out, to).items():
        write_text_atomic(target, file.text)
        written.append(Written(target, file))
        if output is Format.TEXT:
            click.echo(f"wrote {target}")
            if file.omitted:
                click.echo(
                    f"  {len(file.omitted)} interval(s) left out, wider than the data supports "
                    "(--format json lists them)"
                )
            for reason in file.not_compared:
                click.echo(f"  no rows: {reason}")
    if output is Format.JSON:
        from perfproof.export.gobench import samples_mode
        from perfproof.export.source import ExportOptions

        benchstat = to is ExportFormat.BENCHSTAT
        mode = samples_mode(runs, ExportOptions(chosen, samples)) if benchstat else None
        emit_json(export_document(to, runs, written, chosen, mode))
