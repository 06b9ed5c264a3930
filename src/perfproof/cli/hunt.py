"""``perfproof hunt``: a workload in, ranked and source-linked hypotheses out."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from perfproof import defaults
from perfproof.cli import SHORT_HELP
from perfproof.cli.build_flags import BUILD, build_spec
from perfproof.cli.flag import fill, flags
from perfproof.cli.options import OUT_DIR_PATH, emit_json, format_option
from perfproof.cli.parsed import JMH_ARGS
from perfproof.cli.run_flags import SECONDS
from perfproof.errors import InputError
from perfproof.measure.plan import parse_jmh_args
from perfproof.model.enums import Format

if TYPE_CHECKING:
    from perfproof.pipeline.hunt.start import HuntRequest

EPILOG = """Workloads (one of):

\b
  JMH (default)  the repository's benchmarks at --ref, built as `ab` builds them
                 (--module, --bench, --build-arg, --build-cmd with --jar or
                 --classpath-file, --jmh-args, --java: every build option of `ab`),
                 --forks forks each, every fork recorded by JFR after its warm-up
  --run CMD      any command (a test run, a server under load); every JVM it starts is
                 recorded (JAVA_TOOL_OPTIONS); split like a shell would, never run by one
  --jfr FILE     recordings (or collapsed stacks) you already have, one fork each

Examples:

\b
  perfproof hunt --bench ErrorReporterBench --forks 3
  perfproof hunt --ref v2.1 --module benchmarks --top 5 --format md
  perfproof hunt --jfr app-1.jfr app-2.jfr --repo ~/src/app
  perfproof hunt --run "mvn -q test -Dtest=CodecTest"
  perfproof hunt --compare .perfproof/hunt/before/hunt.json
  perfproof hunt --base main --ref my-fix --module benchmarks --bench Codec

Writes hunt.json (perfproof.hunt/1), hunt.md, hunt.html and flamegraph.html into --out;
--top limits what is printed, never what is stored. Exit codes: 0 done; 2 bad input (no
benchmark matches, a truncated recording); 3 a build, JMH or the command failed.
"""


@click.command("hunt", epilog=EPILOG, short_help=SHORT_HELP["hunt"])
@click.option(
    "--repo",
    default=".",
    show_default=True,
    type=click.Path(file_okay=False, path_type=Path),
    help="The git repository (never modified).",
)
@click.option("--ref", metavar="REF", help="Commit to hunt on (default HEAD).")
@click.option(
    "--base", metavar="REF",
    help="Also hunt this commit (into OUT/base) and say which hypotheses --ref removed, "
    "changed or added (JMH workloads).",
)  # fmt: skip
@click.option(
    "--jfr", "jfr", multiple=True, type=click.Path(path_type=Path), metavar="FILE",
    help="A recording or collapsed-stack file (repeatable; folders hold .jfr files).",
)  # fmt: skip
@click.option("--run", "run_cmd", metavar="CMD", help="A command to record (run in --repo).")
@click.option("--bench", multiple=True, metavar="REGEX", help="JMH benchmark regex (repeatable).")
@click.option(
    "--jmh-args", type=JMH_ARGS, metavar="ARGS", help='JMH options, e.g. "-wi 3 -i 5 -r 1s".'
)
@flags(BUILD)
@click.option(
    "--overlay", multiple=True, metavar="PATH",
    help="Copy PATH (a benchmark the fix adds) from --overlay-from onto --ref before building "
    "it (repeatable); with --base, from --ref onto the baseline.",
)  # fmt: skip
@click.option(
    "--overlay-from", metavar="REF",
    help="Where --overlay copies from when there is no --base [default: HEAD].",
)  # fmt: skip
@click.option(
    "--forks", type=click.IntRange(1, 50), default=defaults.HUNT_FORKS, show_default=True,
    help="Recorded forks per benchmark (intervals need two or more).",
)  # fmt: skip
@click.option(
    "--top", type=click.IntRange(min=1), default=10, show_default=True,
    help="Hypotheses printed (all are stored).",
)  # fmt: skip
@click.option(
    "--compare", "compare", type=click.Path(path_type=Path), metavar="OLD_HUNT",
    help="An earlier hunt.json (or its folder): which hypotheses are new, gone, fell "
    "tenfold, changed.",
)  # fmt: skip
@click.option(
    "--out", type=OUT_DIR_PATH,
    help="Output folder, new or empty (default <repo>/.perfproof/hunt/<id>).",
)  # fmt: skip
@click.option(
    "--lock-timeout", type=SECONDS, metavar="S", default=defaults.LOCK_TIMEOUT_S,
    show_default=True,
    help="Seconds to wait for another JMH run to finish.",
)  # fmt: skip
@format_option(
    (Format.TABLE, Format.MD, Format.JSON, Format.HTML),
    help="What to print (all four are written to --out).",
)
def command(fmt: Format, top: int, **params: object) -> None:
    """Find where a workload's time and bytes go in the project's own code, as ranked
    hypotheses with file and line, callers, Amdahl ceiling and a ready `prove` line."""
    from perfproof.pipeline.hunt.start import hunt

    outcome = hunt(hunt_request(params), say=lambda text: click.echo(text, err=True))
    if fmt is Format.JSON:
        from perfproof.model.documents.hunt import hunt_document

        emit_json(hunt_document(outcome.result))
    elif fmt is Format.MD:
        from perfproof.render.hunt import hunt_markdown

        click.echo(hunt_markdown(outcome.result, top), nl=False)
    elif fmt is Format.HTML:
        click.echo(outcome.files["html"].read_text("utf-8"), nl=False)
    else:
        from perfproof.render.hunt import hunt_table

        click.echo(hunt_table(outcome.result, top), nl=False)
    click.echo(f"hunt: {outcome.out_dir}", err=True)


def hunt_request(p: Mapping[str, Any]) -> HuntRequest:
    """The hunt's one builder: its flags checked against each other and typed (exit 2 here,
    before anything is built or recorded)."""
    from perfproof.pipeline.hunt.start import HuntRequest

    jfr, run_cmd, overlay, overlay_from = p["jfr"], p["run_cmd"], p["overlay"], p["overlay_from"]
    if jfr and run_cmd:
        raise InputError("--jfr and --run are two workloads; give one")
    jmh_only = {"--bench": p["bench"], "--module": p["module"], "--build-cmd": p["build_cmd"],
                "--jar": p["jar"], "--classpath-file": p["classpath_file"],
                "--fresh-builds": p["fresh_builds"]}  # fmt: skip
    if overlay_from and not overlay:
        raise InputError("--overlay-from names where --overlay copies from; give --overlay too")
    if overlay_from and p["base"]:
        raise InputError("with --base, --overlay copies from --ref; drop --overlay-from")
    if jfr or run_cmd:
        given = [flag for flag, value in jmh_only.items() if value]
        if given:
            which = "--jfr" if jfr else "--run"
            raise InputError(f"{given[0]} selects JMH benchmarks; it has no effect with {which}")
    jmh_args = p["jmh_args"] or parse_jmh_args(None)
    return fill(HuntRequest, p, run=run_cmd, build=build_spec(p), jmh_args=jmh_args)
