"""``perfproof profile``: allocation and CPU census of recordings; ``profile diff`` before/after."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click

from perfproof.cli import SHORT_HELP
from perfproof.cli.options import OUT_FILE, confidence_option, emit_json, format_option
from perfproof.model.enums import Format

CENSUS_EPILOG = """Examples:

\b
  perfproof profile app.jfr --focus com.acme --top 10
  perfproof profile r1.jfr r2.jfr --kind alloc --format json
  perfproof profile app.jfr --collapsed app.collapsed --flamegraph app.html
  perfproof profile async-profiler.collapsed --focus com.acme
  perfproof profile diff --before base-*.jfr --after head-*.jfr --focus com.acme

Inputs are JFR recordings, folders of them, or collapsed stacks ('frame;frame;... COUNT'
lines).
Exit codes: 0 done; 2 bad input (not JFR, corrupt or truncated recording, no events of the
asked kind, no JDK).
"""

DIFF_EPILOG = """Examples:

\b
  perfproof profile diff --before a1.jfr a2.jfr a3.jfr --after b1.jfr b2.jfr b3.jfr
  perfproof profile diff --before a*.jfr --after b*.jfr --focus com.acme --kind alloc
  perfproof profile diff --before a*.jfr --after b*.jfr --flamegraph diff.html --format json

Values are CPU samples and allocated bytes per recording (--normalize: % of each recording's
total); the interval is Welch's t across recordings (two or more per side).
"""

KIND = click.option(
    "--kind",
    type=click.Choice(["both", "alloc", "cpu"]),
    default="both",
    show_default=True,
    help="Allocations, CPU samples, or both.",
)
FOCUS = click.option(
    "--focus",
    multiple=True,
    metavar="PACKAGE_PREFIX",
    help="Attribute each row to its leaf-most frame in these packages. Repeatable.",
)
TOP = click.option(
    "--top",
    type=click.IntRange(min=0),
    default=20,
    show_default=True,
    help="Rows per table (0: all).",
)
JAVA = click.option(
    "--java",
    metavar="PATH",
    help="java executable or JDK home to read recordings with (default: JAVA_HOME, then PATH).",
)
COLLAPSED_KIND = click.option(
    "--collapsed-kind",
    type=click.Choice(["cpu", "alloc"]),
    default="cpu",
    show_default=True,
    help="What unmarked collapsed-stack inputs hold (alloc: the leaf frame is the class, "
    "as in async-profiler's allocation output).",
)


F = TypeVar("F", bound=Callable[..., object])


def shared_options(func: F) -> F:
    """``--focus``, ``--kind``, ``--top``, ``--format``, ``--java`` and ``--collapsed-kind``:
    the options the census and the diff share, declared once for both (each command takes
    them as parameters of the same names and hands the reading ones to ``run_census`` or
    ``run_diff``)."""
    for option in reversed((FOCUS, KIND, TOP, format_option(), JAVA, COLLAPSED_KIND)):
        func = option(func)
    return func


class _DefaultToCensus(click.Group):
    """``perfproof profile REC…`` runs the census; ``perfproof profile diff …`` the diff."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        if args and args[0] not in self.commands and args[0] not in ("-h", "--help"):
            args = ["census", *args]
        return super().parse_args(ctx, args)

    def format_usage(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        formatter.write_usage(ctx.command_path, "RECORDING... [OPTIONS]")
        formatter.write_usage(ctx.command_path, "diff --before A.jfr... --after B.jfr... [OPTIONS]")

    def format_options(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        super().format_options(ctx, formatter)
        census = self.commands["census"]
        sub = click.Context(census, info_name="census", parent=ctx)
        rows = [r for p in census.get_params(sub) if (r := p.get_help_record(sub)) is not None]
        with formatter.section("Census options"):
            formatter.write_dl(rows)


@click.group(
    "profile",
    cls=_DefaultToCensus,
    epilog=CENSUS_EPILOG,
    short_help=SHORT_HELP["profile"],
)
def command() -> None:
    """Census of JFR recordings (`profile REC.jfr…`) or a before/after diff (`profile diff`).

    See `perfproof profile census --help` and `perfproof profile diff --help` for options.
    """


@command.command("census", epilog=CENSUS_EPILOG)
@click.argument("recordings", nargs=-1, required=True, type=click.Path())
@shared_options
@click.option(
    "--collapsed",
    type=OUT_FILE,
    help="Write collapsed stacks here (with --kind both: NAME.cpu.EXT and NAME.alloc.EXT; "
    "'-', /dev/stdout, a device or a FIFO gets both kinds in one stream).",
)
@click.option("--flamegraph", type=OUT_FILE, help="Write an interactive flame graph (HTML).")
def census_command(
    recordings: tuple[str, ...],
    fmt: Format,
    top: int,
    collapsed: str | None,
    flamegraph: str | None,
    focus: tuple[str, ...],
    kind: str,
    java: str | None,
    collapsed_kind: str,
) -> None:
    """Where CPU samples and allocated bytes go: by frame, allocated class and focus frame."""
    from perfproof.profile.api import run_census
    from perfproof.profile.render import census_json, census_text

    result, written = run_census(
        [Path(r) for r in recordings],
        collapsed=_path(collapsed),
        flamegraph=_path(flamegraph),
        focus=focus,
        kind=kind,
        java=java,
        collapsed_kind=collapsed_kind,
    )
    _emit(
        written,
        fmt,
        lambda: census_json(result, top),
        lambda: census_text(result, top, fmt is Format.MD),
    )


def _path(flag: str | None) -> Path | None:
    """An output-file option as a path (click gives a string); unset or empty: none."""
    return Path(flag) if flag else None


def _emit(written: list[Path], fmt: Format, doc: Any, text: Any) -> None:
    for p in written:
        click.echo(f"wrote {p}", err=True)
    if fmt is Format.JSON:
        emit_json(doc())
    else:
        click.echo(text(), nl=False)


def _spread_multi_values(args: list[str], flags: tuple[str, ...]) -> list[str]:
    """``--before a b --after c`` → ``--before a --before b --after c`` (shell globs expand so)."""
    out: list[str] = []
    current: str | None = None
    for arg in args:
        if arg in flags:
            current = arg
            out.append(arg)
            continue
        if arg.startswith("-"):
            current = None
            out.append(arg)
            continue
        if current is not None and out and out[-1] != current:
            out.append(current)
        out.append(arg)
    return out


def _recordings(when: str) -> Any:
    """``--before``/``--after``: one side of the diff, as many recordings as the shell expands."""
    return click.option(
        f"--{when}",
        multiple=True,
        required=True,
        type=click.Path(),
        help=f"Recordings {when} the change (files or folders of .jfr files).",
    )


class _DiffCommand(click.Command):
    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        return super().parse_args(ctx, _spread_multi_values(args, ("--before", "--after")))


@command.command("diff", cls=_DiffCommand, epilog=DIFF_EPILOG)
@_recordings("before")
@_recordings("after")
@shared_options
@click.option(
    "--normalize", is_flag=True, help="Compare % of each recording's total, not raw counts."
)
@confidence_option("Interval level (0.95 or 95%).", default=0.95)
@click.option(
    "--flamegraph",
    type=OUT_FILE,
    help="Write a differential flame graph (HTML).",
)
def diff_command(
    before: tuple[str, ...],
    after: tuple[str, ...],
    fmt: Format,
    top: int,
    normalize: bool,
    confidence: float,
    flamegraph: str | None,
    focus: tuple[str, ...],
    kind: str,
    java: str | None,
    collapsed_kind: str,
) -> None:
    """Per frame (and frame+class for allocations): mean before and after, interval, change."""
    from perfproof.profile.api import jit_changes, run_diff
    from perfproof.profile.jit import changes_text
    from perfproof.profile.render import diff_json, diff_text

    result, written = run_diff(
        [Path(p) for p in before],
        [Path(p) for p in after],
        normalize=normalize,
        confidence=confidence,
        flamegraph=_path(flamegraph),
        focus=focus,
        kind=kind,
        java=java,
        collapsed_kind=collapsed_kind,
    )
    changes = jit_changes(result, focus, java)
    _emit(
        written,
        fmt,
        lambda: {**diff_json(result, top), "jit": [c.text() for c in changes]},
        lambda: diff_text(result, top, fmt is Format.MD) + changes_text(changes, fmt is Format.MD),
    )
