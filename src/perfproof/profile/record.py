"""Running a Java command with JFR on (the options themselves: :mod:`perfproof.measure.jfr_args`).

``record`` adds exactly one option, ``-XX:StartFlightRecording=…``, right after the java
executable and leaves the rest of the user's command as typed, so what is measured is the
user's program. The recording is written under a temporary name next to the target and
renamed when the JVM is done, so ``--out`` never holds a half-written file; a device, a FIFO,
``/dev/stdout`` or ``-`` gets it copied in when the JVM is done (``cat > PATH``, see
:mod:`perfproof.storage`), from a temporary folder of its own.
"""

from __future__ import annotations

import os
import re
import shutil
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from perfproof.errors import ExternalError, InputError
from perfproof.measure.jfr_args import check_option_path, jfr_option
from perfproof.process import Command, Watch, command_line, run
from perfproof.storage import check_output_file, is_stream, move_file, refuse_overwriting_inputs

_JAVA_NAMES = re.compile(r"^java(?:\.exe)?$|^javaw(?:\.exe)?$")


@dataclass(frozen=True)
class Recording:
    path: Path
    command: str
    returncode: int
    size: int


def with_jfr(argv: Sequence[str], options: list[str]) -> list[str]:
    """``argv`` with the options right after the java executable, nothing else changed."""
    if not argv:
        raise InputError("record needs a command after '--', e.g. -- java -jar app.jar")
    if not _JAVA_NAMES.match(Path(argv[0]).name):
        raise InputError(
            f"record: the command must start with a java executable, not '{argv[0]}' "
            "(JFR options go to the JVM)"
        )
    return [argv[0], *options, *argv[1:]]


def record(
    out: Path,
    argv: Sequence[str],
    settings: str = "profile",
    duration_s: float | None = None,
    stack_depth: int | None = None,
    on_line: Callable[[str], None] | None = None,
    timeout: float | None = None,
) -> Recording:
    """Run the command with JFR on and leave the recording at ``out``.

    A command that fails still leaves whatever recording the JVM wrote, and the error names it.
    """
    check_output_file(out, "--out")  # a read-only folder is found before the JVM runs
    stream = is_stream(out)
    if not stream:
        out = Path(os.path.realpath(out)) if out.is_symlink() else out.absolute()
        check_option_path(out, "--out")
        refuse_overwriting_inputs({"--out": out}, _named_files(argv))
        out.parent.mkdir(parents=True, exist_ok=True)
    own = None if not stream and os.access(out.parent, os.W_OK) else Path(tempfile.mkdtemp())
    folder = own if own is not None else out.parent
    partial = folder / f".{out.name}.{os.getpid()}.partial.jfr"
    check_option_path(partial, "temporary folder")
    full = with_jfr(argv, jfr_option(partial, settings, duration_s, stack_depth))
    shown = command_line(with_jfr(argv, jfr_option(out, settings, duration_s, stack_depth)))
    try:
        try:
            watch = Watch(what=argv[0], on_line=on_line, timeout=timeout, capture=False)
            result = run(Command(full), watch)
        except BaseException:
            _move_if_present(partial, out)
            raise
        size = partial.stat().st_size if partial.is_file() else 0
        kept = _move_if_present(partial, out)
    finally:
        if own is not None:
            shutil.rmtree(own, ignore_errors=True)
    if result.returncode != 0:
        where = f"; recording kept at {out}" if kept else "; no recording was written"
        raise ExternalError(f"{shown} exited with code {result.returncode}{where}")
    if not kept:
        raise ExternalError(f"the JVM exited without writing a recording ({shown})")
    return Recording(out, shown, result.returncode, size)


def _named_files(argv: Sequence[str]) -> list[Path]:
    """Existing files the command names: arguments, ``-cp a.jar:b.jar`` entries, ``k=FILE``."""
    out: list[Path] = []
    for arg in argv:
        for part in re.split(rf"[{re.escape(os.pathsep)}=]", arg):
            if part and not part.startswith("-") and Path(part).is_file():
                out.append(Path(part))
    return out


def _move_if_present(partial: Path, out: Path) -> bool:
    if partial.is_file():
        move_file(partial, out)
        return True
    return False
