"""The JVM options that start a JFR recording, and the JMH arguments that give every fork of a
measured step its own recording.

Measuring needs them (``ab --jfr`` records while it measures) and so does ``perfproof record``;
they live with measuring so that measuring does not depend on profiling, which reads the
recordings afterwards.
"""

from __future__ import annotations

import hashlib
import math
import os
import re
import struct
from pathlib import Path

from perfproof.env.cache import cache_root
from perfproof.errors import InputError
from perfproof.storage import write_text_atomic

SETTINGS = ("profile", "default")


def check_option_path(path: Path, what: str, jmh: bool = False) -> None:
    """Refuse a path JFR or JMH would cut in two: JFR splits its option on ',' and '=', and
    JMH splits -jvmArgsAppend on whitespace."""
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
    if settings not in SETTINGS and not settings.endswith(".jfc"):
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


JIT_EVENTS = {
    "jdk.CompilerInlining": {"enabled": "true"},
    "jdk.Compilation": {"enabled": "true", "threshold": "0 ms"},
    "jdk.Deoptimization": {"enabled": "true"},
}
"""What the compiler's account needs beyond ``profile``: every inlining decision (``profile``
records none) and every compilation (``profile`` only those over 100 ms)."""


def jit_settings(java_home: str | None) -> str:
    """The JDK's ``profile`` settings with the compiler's events of :data:`JIT_EVENTS` on, as a
    ``.jfc`` file in perfproof's cache (JDK 11 and later read a settings file; event options on
    the command line need JDK 17); ``profile`` itself where the JDK's file cannot be read."""
    source = Path(java_home or "") / "lib" / "jfr" / "profile.jfc"
    try:
        text = source.read_text("utf-8")
    except OSError:
        return "profile"
    for event, values in JIT_EVENTS.items():
        block = re.search(rf'(<event name="{re.escape(event)}">)(.*?)(</event>)', text, re.S)
        if block is None:
            return "profile"
        body = block.group(2)
        for name, value in values.items():
            setting = re.compile(rf'(<setting name="{name}"[^>]*>)[^<]*(</setting>)')
            if setting.search(body):
                body = setting.sub(lambda m, v=value: m.group(1) + v + m.group(2), body)
            else:
                body += f'  <setting name="{name}">{value}</setting>\n    '
        text = text[: block.start(2)] + body + text[block.end(2) :]
    digest = hashlib.sha256(text.encode()).hexdigest()[:16]
    target = cache_root() / "jfr-settings" / f"profile-jit-{digest}.jfc"
    if not target.is_file():
        target.parent.mkdir(parents=True, exist_ok=True)
        write_text_atomic(target, text)
    return str(target)


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
    check_option_path(folder, "JFR folder", jmh=True)
    folder.mkdir(parents=True, exist_ok=True)
    options = jfr_option(str(folder) + os.sep, settings, delay_s=delay_s)
    return ["-jvmArgsAppend", " ".join(options)]


def side_recordings(out_dir: Path, side: str) -> list[Path]:
    """Every recording of one side of a run, in the order its steps ran: the step folders
    ``r<round>-<side>`` and, where a round's step ran in parts, ``r<round>-<side>-p<part>``.

    A bare ``r*-<side>`` glob misses the part folders, and a step runs in parts whenever its
    keys need different JMH command lines, so a side would lose recordings silently.
    """
    shape = re.compile(rf"r(\d+)-{re.escape(side)}(?:-p(\d+))?")
    folders = []
    for folder in Path(out_dir).glob("r*-*"):
        m = shape.fullmatch(folder.name)
        if m and folder.is_dir():
            folders.append((int(m.group(1)), int(m.group(2) or 1), folder))
    return [p for *_, folder in sorted(folders) for p in sorted(folder.glob("*.jfr"))]


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
