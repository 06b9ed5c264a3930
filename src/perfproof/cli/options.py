"""Click options and output helpers shared by several verbs, so every verb spells them alike."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Mapping, Sequence
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from perfproof import defaults
from perfproof.errors import InputError
from perfproof.model.diagnostics import ComparisonMethod
from perfproof.model.documents import dumps
from perfproof.model.documents.codec import Document
from perfproof.model.enums import Format
from perfproof.stats.verdict import check_confidence, check_threshold, parse_fraction

if TYPE_CHECKING:
    from click.shell_completion import CompletionItem

    from perfproof.model import Comparison, Unmatched
    from perfproof.stats.method import Method

FORMATS = (Format.TABLE, Format.MD, Format.JSON)

CONFIDENCE_DEFAULT = f"{defaults.CONFIDENCE:g}"
"""perfproof's confidence level as ``--help`` shows it (``0.99``)."""
THRESHOLD_DEFAULT = f"{defaults.THRESHOLD:.0%}"
"""perfproof's practical threshold as ``--help`` shows it (``1%``)."""


def format_option(
    choices: tuple[Format, ...] = FORMATS,
    default: Format = Format.TABLE,
    help: str = "Output format; json is a stable, versioned document for agents and CI.",
) -> Any:
    """``--format`` of a verb that prints its result (passed as ``fmt``, a :class:`Format`)."""
    return click.option(
        "--format",
        "fmt",
        type=EnumChoice(Format, choices),
        default=default.value,
        show_default=True,
        help=help,
    )


def show_in_format(
    fmt: Format, doc: Callable[[], Any], md: Callable[[], str], table: Callable[[], str]
) -> None:
    """Print a result as ``--format`` asks: the JSON document, the Markdown, or the terminal
    table (each built only when asked for, so a verb renders one of them, not three)."""
    if fmt is Format.JSON:
        emit_json(doc())
    else:
        click.echo(md() if fmt is Format.MD else table(), nl=False)


class EnumChoice(click.Choice):
    """A flag whose words are an enum's values, passed to the verb as the enum's member: the
    choices are declared once, in the enum, and no builder converts the word again."""

    def __init__(self, enum: type[StrEnum], members: Sequence[StrEnum] | None = None) -> None:
        super().__init__([e.value for e in (enum if members is None else members)])
        self.enum = enum

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if isinstance(value, self.enum):
            return value  # a default, or a value already read
        return self.enum(super().convert(value, param, ctx))


def enum_choice(enum: type[StrEnum]) -> click.Choice:
    """A flag whose words are an enum's values (see :class:`EnumChoice`)."""
    return EnumChoice(enum)


def enum_option(decl: str, enum: type[StrEnum], default: StrEnum, help: str) -> Any:
    """An option choosing one member of ``enum`` (passed as the member), ``default`` shown."""
    return click.option(
        decl, type=enum_choice(enum), default=default.value, show_default=True, help=help
    )


class ForkMethod(click.ParamType):
    """``--method``: a fork-level comparison method by the name its comparisons record, passed
    as that :class:`ComparisonMethod`. The names, and the words ``--help`` says of each, are
    the registry's (:data:`perfproof.stats.methods.FORK_METHODS`), read only when a value is
    checked or the help is written: the registry imports SciPy, which importing the door
    leaves to the commands that compare."""

    name = "method"

    @staticmethod
    def registered() -> Mapping[str, Method]:
        from perfproof.stats import methods

        return methods.FORK_METHODS

    def default_name(self) -> str:
        """The method a comparison uses when none is asked for (the registry's default)."""
        from perfproof.stats import methods

        return str(methods.DEFAULT.name)

    def described(self) -> str:
        """Each method as ``--help`` lists it: ``fork-level (Welch's t …) or fork-ranks (…)``."""
        *rest, last = [f"{name} ({m.summary})" for name, m in self.registered().items()]
        return f"{', '.join(rest)} or {last}" if rest else last

    def get_metavar(self, param: click.Parameter, ctx: click.Context) -> str:
        return f"[{'|'.join(self.registered())}]"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        """A name no method has is refused naming it and the methods there are (exit 2)."""
        if isinstance(value, ComparisonMethod):
            return value
        found = self.registered().get(str(value))
        if found is None:
            self.fail(f"{value!r} is not one of {', '.join(self.registered())}", param, ctx)
        return found.name

    def shell_complete(
        self, ctx: click.Context, param: click.Parameter, incomplete: str
    ) -> list[CompletionItem]:
        from click.shell_completion import CompletionItem

        return [CompletionItem(n) for n in self.registered() if n.startswith(incomplete)]


FORK_METHOD = ForkMethod()


class HelpWhenAsked(click.Option):
    """An option whose help is written when ``--help`` asks for it, by ``help_of``: for words
    that live in a module the door does not import (the comparison methods' registry)."""

    def __init__(self, *args: Any, help_of: Callable[[], str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.help_of = help_of

    def get_help_record(self, ctx: click.Context) -> tuple[str, str] | None:
        if self.help is None:
            self.help = self.help_of()
        return super().get_help_record(ctx)


def method_option(lead: str) -> Any:
    """``--method``, the fork-level method of keys with two forks a side or more (passed as
    ``method``, a :class:`ComparisonMethod`; None when not given, so the comparison keeps its
    own default). ``lead`` says what the method decides; the methods, their words and the
    default follow from the registry."""

    def help_of() -> str:
        return f"{lead}: {FORK_METHOD.described()}.  [default: {FORK_METHOD.default_name()}]"

    return click.option("--method", "method", type=FORK_METHOD, cls=HelpWhenAsked, help_of=help_of)


def resume_option(dest: str, metavar: str, help: str) -> Any:
    """``--resume``: the folder of a stopped run (or bundle) to continue; ``help`` says what
    continuing does for this verb."""
    return click.option(
        "--resume", dest, metavar=metavar, type=click.Path(file_okay=False), help=help
    )


def stdout_format_option(help: str) -> Any:
    """``--format text|json`` of a verb whose results are files: what stdout says about them
    (a line each, or one JSON document); passed as ``output``, a :class:`Format`."""
    return click.option(
        "--format",
        "output",
        type=EnumChoice(Format, (Format.TEXT, Format.JSON)),
        default=Format.TEXT.value,
        show_default=True,
        help=help,
    )


def emit_json(doc: Any) -> None:
    """Print a JSON document (a codec document, or the dict of one) to stdout: strict JSON
    (NaN and infinities become null)."""
    sys.stdout.write(dumps(doc.dump() if isinstance(doc, Document) else doc))
    sys.stdout.flush()


class Fraction(click.ParamType):
    """A click type for ``--confidence``/``--threshold`` that every verb spells alike.

    ``check`` is the one range rule of the value (:mod:`perfproof.stats.verdict`), the same
    function the library layers call, so a flag and a resumed run's settings are refused alike.
    """

    name = "FRACTION"

    def __init__(self, check: Callable[[float, str, object], float]) -> None:
        self.check = check

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        """Errors name the flag and the value as typed (an InputError: one line, exit 2)."""
        flag = param.opts[0] if param is not None else "value"
        if isinstance(value, float):
            return self.check(value, flag, None)
        return self.check(parse_fraction(flag, str(value)), flag, value)


CONFIDENCE = Fraction(check_confidence)
"""``--confidence`` of every verb: 99% or 0.99, in [0.5, 1)."""

THRESHOLD = Fraction(check_threshold)
"""``--threshold`` of every verb: 1% or 0.01, in [0, 1)."""

FUTILITY = Fraction(check_threshold)
"""``--futility`` of the sequential design: 5% or 0.05, in [0, 1)."""


def confidence_option(help: str, default: object = None) -> Any:
    """``--confidence`` as a verb takes it (``default`` shown when there is one; without one
    the pinned settings or perfproof's default decide)."""
    return _fraction_option("--confidence", CONFIDENCE, help, default)


def threshold_option(help: str, default: object = None) -> Any:
    """``--threshold`` as a verb takes it, like :func:`confidence_option`."""
    return _fraction_option("--threshold", THRESHOLD, help, default)


def _fraction_option(decl: str, kind: Fraction, help: str, default: object) -> Any:
    return click.option(
        decl, type=kind, default=default, show_default=default is not None, help=help
    )


class OutputPath(click.ParamType):
    """The ``--out`` (or ``--collapsed``, ``--flamegraph``) of every verb, judged before any
    work as ``cat > PATH`` would judge it (:mod:`perfproof.storage`): a file output refuses a
    trailing ``/``, a folder and a read-only file; a folder output refuses ``-`` and a file.
    The value comes back as typed (a ``str``, or a ``Path`` with ``as_path``)."""

    def __init__(self, folder: bool = False, as_path: bool = False) -> None:
        self.folder = folder
        self.as_path = as_path
        self.name = "DIR" if folder else "FILE"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        from perfproof.storage import check_output_file, check_output_folder

        flag = param.opts[0] if param is not None else "--out"
        text = os.fspath(value)
        (check_output_folder if self.folder else check_output_file)(text, flag)
        return Path(text) if self.as_path else text


OUT_FILE = OutputPath()
OUT_FILE_PATH = OutputPath(as_path=True)
OUT_DIR = OutputPath(folder=True)
OUT_DIR_PATH = OutputPath(folder=True, as_path=True)


def db_source(source: str | None) -> str:
    """How an error names the history database: ``--db``, or where it was pinned (a file's
    line or a variable), as :func:`perfproof.cli.pinned.settled` reports it."""
    if source is None or source in ("flag", "default"):
        return "--db"
    return f"{source.removeprefix('environment ')}: history-db"


def record_db(record: bool, flag: str | None, settled: Mapping[str, object]) -> str | None:
    """The history database a verb's ``--record`` writes: the one settled with the pinned
    settings when recording, else the flag as given (``--db`` alone is then refused by
    :func:`check_record`)."""
    chosen = settled.get("db") if record else flag
    return None if chosen is None else str(chosen)


def check_record(
    record: bool, db: str | None, repo: str | None, db_from: str = "--db", **flags: str | None
) -> None:
    """``--record`` and its companions judged before any work: a flag that only means
    something with ``--record`` is refused without it, and the database is resolved (an
    unsupported URL refused, a file that cannot be written found) before anything is built or
    measured, not after. ``db_from`` names where ``db`` came from (a flag, a pinned line)."""
    from perfproof.history.db import resolve_target

    given = {"--db": db, **{f"--{name}": value for name, value in flags.items()}}
    if not record:
        stray = [flag for flag, value in given.items() if value is not None]
        if stray:
            raise InputError(f"{stray[0]}: only with --record (add --record or drop it)")
        return
    target = resolve_target(db, Path(repo) if repo else None)
    if target.kind == "sqlite":  # a database under /proc is found now, not after the work
        from perfproof.storage import check_output_file

        check_output_file(target.location, db_from if db else "history database")


def junit_option() -> Any:
    """``--junit FILE``: the comparison as JUnit XML beside whatever the verb prints."""
    return click.option(
        "--junit",
        type=OUT_FILE_PATH,
        help="Also write JUnit XML to FILE for CI test reports (GitLab artifacts:reports:junit, "
        "GitHub test reporters): one test case per key, failed when its time or bytes/op "
        "regressed (what --fail-on-regression fails on). Written before the gate's exit code.",
    )


def write_junit(
    path: Path | None,
    comparisons: Sequence[Comparison],
    unmatched: Sequence[Unmatched],
    suite: str,
) -> None:
    """Write ``--junit`` through the one output writer (``-`` is stdout); say where on stderr."""
    if path is None:
        return
    from perfproof.render.junit import junit_xml
    from perfproof.storage import is_stdout, write_text_atomic

    write_text_atomic(path, junit_xml(comparisons, unmatched, suite))
    if not is_stdout(path):
        click.echo(f"wrote {path}", err=True)
