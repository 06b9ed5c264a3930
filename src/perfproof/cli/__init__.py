"""The ``perfproof`` command: a thin click group whose verbs live one per module.

Verbs are imported lazily so that ``perfproof --help`` and a quick ``compare`` do not pay for
matplotlib, tree-sitter or the run machinery. Each verb module exposes a click command named
``command``; this file only wires them up and turns :class:`PerfproofError` into one line on
stderr with its exit code.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
import traceback

import click

from perfproof import __version__
from perfproof.cli.crash import (
    EXIT_INTERNAL,
    debug_requested,
    internal_error_line,
    write_crash_log,
)
from perfproof.cli.extras import missing_extra
from perfproof.errors import EXIT_INPUT, PerfproofError

# verb -> module under perfproof.cli, in the order --help lists them
VERBS: dict[str, str] = {
    "demo": "demo",
    "hunt": "hunt",
    "prove": "prove",
    "ab": "ab",
    "compare": "compare",
    "merge": "merge",
    "report": "report",
    "check": "check",
    "record": "record",
    "profile": "profile",
    "callers": "callers",
    "scan": "scan",
    "e2e": "e2e",
    "guard": "guard",
    "history": "history",
    "export": "export",
}

SHORT_HELP: dict[str, str] = {
    "demo": "Run the whole A/B job on an embedded sample project.",
    "hunt": "Where a workload's time and bytes go in your code: ranked hypotheses.",
    "prove": "The whole evidence chain for one change, in one bundle folder.",
    "ab": "Build two commits in isolation, run their JMH benchmarks interleaved, compare.",
    "compare": "Compare existing JMH JSON results (files, globs or folders of rounds).",
    "merge": "One run from shards measured on different machines (ab --shard I/N).",
    "report": "Render a run's results as Markdown, HTML or JSON.",
    "check": "Verify the numbers a hand-written PR body quotes against a run.",
    "record": "Run a Java command with JFR enabled and keep the recording.",
    "profile": "Allocation and CPU census of JFR recordings; before/after diff.",
    "callers": "Production call sites of a Java method.",
    "scan": "Known hot-path anti-patterns in Java sources, ranked by profile.",
    "e2e": "End-to-end A/B of whole commands with honest intervals.",
    "guard": "Check that a benchmark tells the baseline from the feature.",
    "history": "Results over time (SQLite or PostgreSQL) and the commits where they shifted.",
    "export": "A run in Bencher, github-action-benchmark, Go benchmark or Otava format.",
}


def _available(name: str) -> bool:
    return importlib.util.find_spec(f"perfproof.cli.{VERBS[name]}") is not None


class LazyGroup(click.Group):
    """A click group that imports a verb's module only when that verb is used."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return [name for name in VERBS if _available(name)]

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in VERBS or not _available(cmd_name):
            return None
        module = importlib.import_module(f"perfproof.cli.{VERBS[cmd_name]}")
        return module.command

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        rows = [(name, SHORT_HELP.get(name, "")) for name in self.list_commands(ctx)]
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)


@click.group(
    cls=LazyGroup,
    context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100},
    epilog=(
        "Examples:\n\n"
        "\b\n"
        "  perfproof demo\n"
        "  perfproof ab --base main --head my-branch --bench Foo\n"
        "  perfproof compare base/ head/ --format md\n"
        "\n"
        "Exit codes: 0 done; 1 a requested gate failed; 2 bad input or usage; "
        "3 an external step (build, JMH, git) failed; 4 an internal error (a bug in perfproof: "
        "the message names a crash log with the traceback; --debug prints it)."
    ),
)
@click.version_option(__version__, "-V", "--version", prog_name="perfproof")
@click.option(
    "--debug",
    is_flag=True,
    help="On an internal error, print the traceback too (also PERFPROOF_DEBUG=1).",
)
def cli(debug: bool) -> None:
    """perfproof turns a claimed JVM performance change into evidence a reviewer can trust."""


def one_line(message: str) -> str:
    """The error on one line, always: a benchmark or file name holding a newline is shown
    with it escaped (``\\n``), so the last stderr line is the whole error for CI to parse."""
    return message.replace("\r", "\\r").replace("\n", "\\n")


def main(argv: list[str] | None = None) -> int:
    """Console entry point: run the CLI and map errors to exit codes with one-line messages."""
    args = list(sys.argv[1:] if argv is None else argv)
    try:
        cli.main(args=args, prog_name="perfproof", standalone_mode=False)
    except PerfproofError as exc:
        click.echo(f"perfproof: error: {one_line(str(exc))}", err=True)
        return exc.exit_code
    except OSError as exc:
        # a path the user named (an --out, a folder) that cannot be read or written
        where = f"{exc.filename}: " if exc.filename else ""
        click.echo(f"perfproof: error: {one_line(f'{where}{exc.strerror or exc}')}", err=True)
        return EXIT_INPUT
    except click.exceptions.Abort:
        click.echo("perfproof: interrupted", err=True)
        return 130
    except KeyboardInterrupt:
        click.echo("perfproof: interrupted", err=True)
        return 130
    except click.exceptions.Exit as exc:
        return exc.exit_code
    except click.ClickException as exc:
        # one line, like every other input error: agents and CI parse `perfproof: error:`
        message = " ".join(exc.format_message().split())
        if isinstance(exc, click.UsageError) and exc.ctx is not None:
            message += f" (see {exc.ctx.command_path} --help)"
        click.echo(f"perfproof: error: {message}", err=True)
        return EXIT_INPUT if exc.exit_code == 2 else exc.exit_code
    except Exception as exc:  # a bug: its own exit code, never dressed as bad input
        missing = missing_extra(exc) if isinstance(exc, ImportError) else None
        if missing is not None:  # an optional dependency a lighter install left out
            click.echo(f"perfproof: error: {missing}", err=True)
            return EXIT_INPUT
        if debug_requested(args):
            traceback.print_exc()
        click.echo(internal_error_line(exc, write_crash_log(exc, args)), err=True)
        return EXIT_INTERNAL
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
