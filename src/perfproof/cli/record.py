"""``perfproof record``: run a Java command with JFR enabled and keep the recording."""

from __future__ import annotations

from pathlib import Path

import click

from perfproof.cli import SHORT_HELP
from perfproof.cli.options import OUT_FILE, emit_json, format_option
from perfproof.errors import InputError
from perfproof.model.enums import Format

EPILOG = """Examples:

\b
  perfproof record --out app.jfr -- java -jar target/app.jar --iterations 100
  perfproof record --out short.jfr --duration 30 -- java -cp app.jar com.acme.Main
  perfproof record --out deep.jfr --stack-depth 256 -- java -jar app.jar
  perfproof profile app.jfr --focus com.acme

The only change to the command is one -XX:StartFlightRecording option (plus
-XX:FlightRecorderOptions with --stack-depth) right after the java executable.
Exit codes: 0 recorded; 2 bad input; 3 the command failed (the recording is kept if written).
"""


@click.command(
    "record",
    epilog=EPILOG,
    short_help=SHORT_HELP["record"],
    context_settings={"ignore_unknown_options": True},
)
@click.option(
    "--out",
    "out",
    required=True,
    type=OUT_FILE,
    help="Recording to write ('-' for stdout; a device or FIFO is written directly).",
)
@click.option(
    "--settings",
    type=click.Choice(["profile", "default"]),
    default="profile",
    show_default=True,
    help="JFR settings: profile samples CPU more often and allocations more densely.",
)
@click.option(
    "--duration", type=float, metavar="S", help="Stop recording after S seconds (program goes on)."
)
@click.option(
    "--stack-depth",
    type=int,
    metavar="N",
    help="Frames kept per stack (JFR's default is 64).",
)
@format_option(choices=(Format.TABLE, Format.JSON))
@click.argument("command_argv", nargs=-1, type=click.UNPROCESSED, required=True)
def command(
    out: str,
    settings: str,
    duration: float | None,
    stack_depth: int | None,
    fmt: Format,
    command_argv: tuple[str, ...],
) -> None:
    """Run `java ...` with a JFR recording written to --out when it exits.

    Put the command after `--`. Its output goes to stderr so stdout stays for perfproof.
    """
    from perfproof.profile.record import record
    from perfproof.storage import is_stdout, is_stream

    if fmt is Format.JSON and is_stdout(out):
        raise InputError(f"--format json: stdout carries the recording (--out {out}); name a file")
    say = (lambda line: click.echo(line, err=True)) if is_stdout(out) else click.echo
    rec = record(
        Path(out),
        list(command_argv),
        settings=settings,
        duration_s=duration,
        stack_depth=stack_depth,
        on_line=lambda line: click.echo(line, err=True),
    )
    if fmt is Format.JSON:
        emit_json(
            {
                "schema": "perfproof.record/1",
                "recording": str(rec.path),
                "bytes": rec.size,
                "command": rec.command,
            }
        )
    else:
        say(f"recorded {rec.path} ({rec.size / 1e6:.1f} MB)")
        say(f"command: {rec.command}")
        if not is_stream(rec.path):
            say(f"next: perfproof profile {rec.path} --focus YOUR.PACKAGE")
