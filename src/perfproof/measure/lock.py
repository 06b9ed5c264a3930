"""JMH's machine-wide lock: notice it, wait for it (bounded), never force past it.

JMH takes an exclusive POSIX lock on ``<java.io.tmpdir>/jmh.lock`` so that two benchmark runs do
not disturb each other's measurements. A second JMH refuses to start and prints "Another JMH
instance might be running"; ``-Djmh.ignoreLock=true`` would force past it, but results measured
next to another benchmark are worthless, so perfproof waits for the lock instead and gives up
after ``--lock-timeout`` seconds.
"""

from __future__ import annotations

import fcntl
import os
import re
import struct
import sys
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

DEFAULT_LOCK_PATH = Path("/tmp/jmh.lock")
LOCKED_MARKER = "Another JMH instance might be running"
_LOCK_PATH_IN_MESSAGE = re.compile(r"JMH lock \(([^)]+)\)")
_TMPDIR_OPTION = re.compile(r"(?:^|\s)-Djava\.io\.tmpdir=(\S+)")
JAVA_OPTION_VARIABLES = ("JAVA_TOOL_OPTIONS", "JDK_JAVA_OPTIONS")
"""Variables whose JVM options every JMH process picks up, in the order the JVM reads them."""


def lock_path_for(env: Mapping[str, str] | None = None) -> Path:
    """Where JMH's lock is: ``<java.io.tmpdir>/jmh.lock``, moved when every JVM is given a
    ``java.io.tmpdir`` through ``JAVA_TOOL_OPTIONS`` or ``JDK_JAVA_OPTIONS`` (the later one
    read wins, as in the JVM). perfproof waits and queues on the lock its JMH will take."""
    found = DEFAULT_LOCK_PATH
    values = os.environ if env is None else env
    for name in JAVA_OPTION_VARIABLES:
        for match in _TMPDIR_OPTION.finditer(values.get(name, "")):
            found = Path(match.group(1)) / "jmh.lock"
    return found


@dataclass(frozen=True)
class LockState:
    """Whether someone holds the lock, and who (the pid, when the kernel tells)."""

    held: bool
    pid: int | None = None
    known: bool = True
    """False where perfproof cannot ask the kernel (see :func:`probe_supported`)."""


def probe_supported(platform: str | None = None) -> bool:
    """Whether :func:`probe` can read the lock's holder on this platform.

    ``F_GETLK`` answers with a ``struct flock`` whose field order and padding differ between
    kernels; perfproof knows Linux's. Elsewhere it does not guess: it relies on JMH's own
    refusal ("Another JMH instance might be running") and waits and retries from there.
    """
    return (platform or sys.platform).startswith("linux")


def refused_by_lock(output: str) -> bool:
    """Did this JMH output say that JMH refused to start because of the lock?"""
    return LOCKED_MARKER in output


def lock_path_from_output(output: str) -> Path:
    """The lock file JMH named (it follows ``java.io.tmpdir``), else the usual one."""
    match = _LOCK_PATH_IN_MESSAGE.search(output)
    return Path(match.group(1)) if match else DEFAULT_LOCK_PATH


def probe(path: Path = DEFAULT_LOCK_PATH) -> LockState:
    """Ask the kernel whether another process holds a write lock on ``path``.

    Uses ``F_GETLK``, which only queries: taking the lock even for an instant could make a
    JMH that starts at that moment refuse to run.
    """
    if not probe_supported():
        return LockState(False, known=False)
    try:
        fd = os.open(path, os.O_RDONLY)
    except FileNotFoundError:
        return LockState(False)
    except OSError:
        return LockState(False)
    try:
        # struct flock: l_type, l_whence, l_start, l_len, l_pid (native layout and padding)
        query = struct.pack("hhqqi4x", fcntl.F_WRLCK, os.SEEK_SET, 0, 0, 0)
        answer = fcntl.fcntl(fd, fcntl.F_GETLK, query)
        l_type, _, _, _, l_pid = struct.unpack("hhqqi4x", answer)
    except OSError:
        return LockState(False)
    finally:
        os.close(fd)
    if l_type == fcntl.F_UNLCK:
        return LockState(False)
    return LockState(True, l_pid if l_pid > 0 else None)


def wait_for_lock(
    path: Path,
    timeout_s: float,
    *,
    on_wait: Callable[[str], None],
    poll_s: float = 0.5,
    clock: Callable[[], float] = time.monotonic,
    sleep: Callable[[float], None] = time.sleep,
    prober: Callable[[Path], LockState] = probe,
    on_poll: Callable[[float, LockState], None] | None = None,
) -> float:
    """Block until nobody holds ``path`` or ``timeout_s`` passes; return the seconds waited.

    ``on_wait`` receives one message when waiting starts (so the user sees why nothing moves);
    ``on_poll`` gets the seconds waited and the lock's state at every poll while it is held,
    so a live display can say who holds it now and for how long.
    Returns ``-1`` when the timeout expired with the lock still held.
    """
    start = clock()
    state = prober(path)
    if not state.known:
        _announce_unknown_once(on_wait)
    if not state.held:
        return 0.0
    who = f" by pid {state.pid}" if state.pid else ""
    on_wait(
        f"JMH lock {path} is held{who} (another JMH instance is running); "
        f"waiting up to {timeout_s:.0f}s for it to finish"
    )
    while True:
        waited = clock() - start
        if on_poll is not None:
            on_poll(waited, state)
        if waited >= timeout_s:
            return -1.0
        sleep(min(poll_s, max(0.0, timeout_s - waited)))
        state = prober(path)
        if not state.held:
            return clock() - start


_told_unknown = False


def _announce_unknown_once(on_wait: Callable[[str], None]) -> None:
    global _told_unknown
    if not _told_unknown:
        _told_unknown = True
        on_wait(
            f"cannot query the JMH lock on {sys.platform} (perfproof reads it on Linux only); "
            "if another JMH holds it, perfproof waits and retries when JMH refuses to start"
        )
