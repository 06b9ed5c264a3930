"""Running a Java command with JFR on, and the JMH options that record every fork.

``record`` adds exactly one option, ``-XX:StartFlightRecording=…``, right after the java
executable and leaves the rest of the user's command as typed, so what is measured is the
user's program. The recording is written under a temporary name next to the target and
renamed when the JVM is done, so ``--out`` never holds a half-written file; a device, a FIFO,
``/dev/stdout`` or ``-`` gets it copied in when the JVM is done (``cat > PATH``, see
:mod:`perfproof.storage`), from a temporary folder of its own.
"""

from __future__ import annotations

import math
import os
import re
import shutil
import struct
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from perfproof.errors import ExternalError, InputError
from perfproof.process import command_line, run
from perfproof.storage import check_output_file, is_stream, move_file, refuse_overwriting_inputs

SETTINGS = ("profile", "default")
_JAVA_NAMES = re.compile(r"^java(?:\.exe)?$|^javaw(?:\.exe)?$")


@dataclass(frozen=True)
class Recording:
    path: Path
    command: str
    returncode: int
    size: int


def _check_option_path(path: Path, what: str, jmh: bool = False) -> None:
    # JFR splits its option on ',' and '=', and JMH splits -jvmArgsAppend on whitespace.
    if any(c in str(path) for c in ",="):
        raise InputError(f"{what} {path}: JFR paths may not contain ',' or '='")
    if jmh and re.search(r"\s", str(path)):
        raise InputError(f"{what} {path}: JMH splits its JVM options at spaces; use a path without")


def jfr_option(
    filename: Path | str,
    settings: str = "profile",
    duration_s: float | None = None,
    stack_depth: int | None = None,
    delay_s: float | None = None,
) -> list[str]:
    """The JVM options that start a recording written to ``filename`` when the JVM exits.

    ``delay_s`` starts the recording that long after the JVM: a JMH fork's warm-up runs
    interpreted and half-compiled code whose costs the steady state does not have."""
    if settings not in SETTINGS:
        raise InputError(f"--settings {settings}: want one of {', '.join(SETTINGS)}")
    parts = [f"filename={filename}", f"settings={settings}", "dumponexit=true"]
    if duration_s is not None:
        if not (math.isfinite(duration_s) and duration_s > 0):
            raise InputError(f"--duration {duration_s}: must be a positive number of seconds")
        parts.append(f"duration={max(1, round(duration_s * 1000))}ms")
    if delay_s is not None and delay_s > 0:
        parts.append(f"delay={max(1, round(delay_s * 1000))}ms")
    options = ["-XX:StartFlightRecording=" + ",".join(parts)]
    if stack_depth is not None:
        if not 1 <= stack_depth <= 2048:
            raise InputError(f"--stack-depth {stack_depth}: must be between 1 and 2048")
        options.insert(0, f"-XX:FlightRecorderOptions=stackdepth={stack_depth}")
    return options


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
        _check_option_path(out, "--out")
        refuse_overwriting_inputs({"--out": out}, _named_files(argv))
        out.parent.mkdir(parents=True, exist_ok=True)
    own = None if not stream and os.access(out.parent, os.W_OK) else Path(tempfile.mkdtemp())
    folder = own if own is not None else out.parent
    partial = folder / f".{out.name}.{os.getpid()}.partial.jfr"
    _check_option_path(partial, "temporary folder")
    full = with_jfr(argv, jfr_option(partial, settings, duration_s, stack_depth))
    shown = command_line(with_jfr(argv, jfr_option(out, settings, duration_s, stack_depth)))
    try:
        try:
            result = run(full, on_line=on_line, capture=False, timeout=timeout, what=argv[0])
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


def jmh_jfr_args(
    out_dir: Path, round: int, side: str, settings: str = "profile", delay_s: float | None = None
) -> list[str]:
    """JMH arguments that make every fork of one step write its own recording.

    Each forked JVM dumps into ``out_dir/r{round}-{side}/`` under a name JFR makes from its
    pid (JDK 17's ``filename`` has no ``%p``; a folder is the portable way to get one file per
    JVM). JMH's ``-prof jfr`` would keep only the last fork. Call
    :func:`name_fork_recordings` after the step to rename them ``fork-1.jfr``, ``fork-2.jfr``…
    in the order the forks started.
    """
    folder = step_folder(out_dir, round, side)
    _check_option_path(folder, "JFR folder", jmh=True)
    folder.mkdir(parents=True, exist_ok=True)
    options = jfr_option(str(folder) + os.sep, settings, delay_s=delay_s)
    return ["-jvmArgsAppend", " ".join(options)]


def step_folder(out_dir: Path, round: int, side: str) -> Path:
    if not re.fullmatch(r"[A-Za-z0-9_.-]+", side):
        raise InputError(f"side {side!r}: use letters, digits, '.', '_' or '-'")
    return Path(out_dir).absolute() / f"r{round}-{side}"


def name_fork_recordings(out_dir: Path, round: int, side: str) -> list[Path]:
    """Rename one step's per-JVM recordings to ``fork-N.jfr`` by start time; returns them.

    With several benchmarks in one step the numbering runs across them in the order JMH ran
    them (benchmark by benchmark, fork by fork), which is also the order of its JSON results.
    """
    folder = step_folder(out_dir, round, side)
    if not folder.is_dir():
        return []
    named = sorted(folder.glob("fork-*.jfr"), key=lambda p: int(p.stem.split("-")[1]))
    fresh = sorted(
        (p for p in folder.glob("*.jfr") if not p.name.startswith("fork-")), key=_start_key
    )
    for p in fresh:
        target = folder / f"fork-{len(named) + 1}.jfr"
        os.replace(p, target)
        named.append(target)
    return named


def _start_key(path: Path) -> tuple[int, int, str]:
    """A recording's start (the first chunk header's start nanos), then its pid, then its name."""
    start = 0
    try:
        with open(path, "rb") as fh:
            head = fh.read(40)
        if len(head) == 40 and head[:4] == b"FLR\0":
            start = struct.unpack(">q", head[32:40])[0]
    except OSError:
        pass
    m = re.search(r"pid-(\d+)", path.name)
    return (start, int(m.group(1)) if m else 0, path.name)
