"""What a step waiting for JMH's lock tells the user, live: who holds it, since when, the queue.

A run on a shared machine can wait minutes for another job's JMH. A message printed once when
the wait begins goes stale at once ("running for 2s", read 400 s later), so the waiter rebuilds
this line at every poll: the lock's holder (its pid, what it runs and how long that process has
been up, a JMH host holding the lock from its start to its exit), the perfproof steps queued
ahead of this one, and how long this step has waited. None of it is charged to ``--budget``,
which counts the time JMH itself runs.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

from perfproof.measure import lock_queue
from perfproof.measure.lock import LockState
from perfproof.units import eta as format_duration

PROC = Path("/proc")


def process_label(pid: int, proc: Path = PROC) -> str | None:
    """``java … benchmarks.jar`` for a JMH host: the program and the jar or main class it runs
    (None where the process table cannot be read)."""
    try:
        argv = (proc / str(pid) / "cmdline").read_bytes().split(b"\0")
    except OSError:
        return None
    words = [a.decode(errors="replace") for a in argv if a]
    if not words:
        return None
    program = os.path.basename(words[0])
    for i, word in enumerate(words[:-1]):
        if word == "-jar":
            return f"{program} -jar {os.path.basename(words[i + 1])}"
    for word in words[1:]:
        if word.endswith(".Main") or word.endswith(".py") or word == "org.openjdk.jmh.Main":
            return f"{program} {word}"
    return program


def process_age_s(pid: int, proc: Path = PROC) -> float | None:
    """Seconds since the process started, from ``/proc/<pid>/stat`` and ``/proc/uptime``."""
    try:
        stat = (proc / str(pid) / "stat").read_text()
        uptime = float((proc / "uptime").read_text().split()[0])
        # the command name may hold spaces and parentheses: fields follow the last ')'
        fields = stat[stat.rindex(")") + 2 :].split()
        started = int(fields[19]) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return None
    return max(uptime - started, 0.0)


def holder_name(state: LockState, proc: Path = PROC) -> str:
    """``pid 4121 (java -jar benchmarks.jar)``: who holds the lock, as the run records it."""
    if state.pid is None:
        return "another process"
    label = process_label(state.pid, proc)
    return f"pid {state.pid}" + (f" ({label})" if label else "")


def holder_text(state: LockState, proc: Path = PROC) -> str:
    """``held by pid 4121 (java -jar benchmarks.jar), up 3m04s``, or what is known of it."""
    if not state.known:
        return "held (its holder cannot be read on this platform)"
    if not state.held:
        return "free"
    text = f"held by {holder_name(state, proc)}"
    age = process_age_s(state.pid, proc) if state.pid is not None else None
    return text + (f", up {format_duration(age)}" if age is not None else "")


def queue_text(ahead: list[lock_queue.Ticket], now: float | None = None) -> str:
    """The perfproof steps queued before this one, the first named with how long it ran."""
    if not ahead:
        return ""
    t = time.time() if now is None else now
    first = ahead[0]
    since = first.running_since
    doing = f"running {format_duration(t - since)}" if since is not None else "waiting"
    more = f" and {len(ahead) - 1} more" if len(ahead) > 1 else ""
    return f"queued ahead: pid {first.pid} ({first.what}, {doing}){more}"


def waiting_line(
    waited_s: float,
    state: LockState | None,
    ahead: list[lock_queue.Ticket],
    path: Path,
    proc: Path = PROC,
) -> str:
    """The live line of a waiting step: how long it waited, the holder, the queue."""
    parts = [f"waiting {format_duration(waited_s)} for the JMH lock {path} (not charged to "
             "--budget)"]  # fmt: skip
    if state is not None and state.held:
        parts.append(holder_text(state, proc))
    queued = queue_text(ahead)
    if queued:
        parts.append(queued)
    return "; ".join(parts)
