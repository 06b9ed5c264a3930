"""Turns at JMH's lock in arrival order, between perfproof processes on one machine.

JMH's lock is a plain POSIX lock: whoever asks at the right instant gets it. Two perfproof runs
retrying every few seconds are not served in order: the run that just finished a step asks
again at once and can keep the machine step after step while the other waits for minutes.
Each JMH step therefore takes a ticket, a file in a folder beside the lock whose name orders it
by arrival, holds it for the whole step, and starts only when no older ticket of a live process
is left. A ticket of a process that died is dropped by the next reader. The ticket also says
what the step is and since when it runs, so a waiter can name who holds the lock and for how
long. A folder perfproof cannot write (another user made it) leaves the queue out: the lock
itself still keeps runs apart.
"""

from __future__ import annotations

import contextlib
import json
import os
import time
import uuid
from dataclasses import dataclass
from pathlib import Path

from perfproof.errors import InputError
from perfproof.model.documents.machine_records import TicketRecord, read_record

SUFFIX = ".ticket"


@dataclass(frozen=True)
class Ticket:
    """One waiter's place: ``name`` orders tickets (arrival time, then pid)."""

    path: Path
    pid: int
    what: str
    queued_at: float
    running_since: float | None = None

    @property
    def name(self) -> str:
        return self.path.name


def queue_folder(lock_path: Path) -> Path:
    return lock_path.with_name(lock_path.name + ".queue")


def take(lock_path: Path, what: str, clock: float | None = None) -> Ticket | None:
    """A new ticket at the back of the queue, or ``None`` where no queue can be kept."""
    folder = queue_folder(lock_path)
    now = time.time() if clock is None else clock
    pid = os.getpid()
    name = f"{int(now * 1e9):020d}-{pid:08d}-{uuid.uuid4().hex[:8]}{SUFFIX}"
    ticket = Ticket(folder / name, pid, what, now)
    try:
        folder.mkdir(mode=0o1777, exist_ok=True)
        with contextlib.suppress(OSError):
            os.chmod(folder, 0o1777)  # shared like /tmp: every user may queue
        _write(ticket)
    except OSError:
        return None
    return ticket


def start(ticket: Ticket) -> Ticket:
    """Mark the ticket as running from now (its step has the lock's turn)."""
    running = Ticket(ticket.path, ticket.pid, ticket.what, ticket.queued_at, time.time())
    with contextlib.suppress(OSError):
        _write(running)
    return running


def release(ticket: Ticket | None) -> None:
    if ticket is not None:
        with contextlib.suppress(OSError):
            ticket.path.unlink()


def ahead(ticket: Ticket) -> list[Ticket]:
    """Live tickets older than ``ticket``, oldest first; tickets of dead processes go."""
    out: list[Ticket] = []
    try:
        names = sorted(p.name for p in ticket.path.parent.iterdir() if p.name.endswith(SUFFIX))
    except OSError:
        return out
    for name in names:
        if name >= ticket.name:
            break
        other = _read(ticket.path.parent / name)
        if other is None:
            continue
        if not _alive(other.pid):
            with contextlib.suppress(OSError):
                other.path.unlink()
            continue
        out.append(other)
    return out


def _write(ticket: Ticket) -> None:
    doc = TicketRecord(
        pid=ticket.pid,
        what=ticket.what,
        queued_at=ticket.queued_at,
        running_since=ticket.running_since,
    )
    tmp = ticket.path.with_name(f".{ticket.name}.{os.getpid()}.tmp")
    tmp.write_text(json.dumps(doc.dump(), allow_nan=False), encoding="utf-8")
    os.replace(tmp, ticket.path)


def _read(path: Path) -> Ticket | None:
    try:
        doc = read_record(TicketRecord, path)
        return Ticket(path, doc.pid, doc.what, doc.queued_at, doc.running_since)
    except FileNotFoundError:
        return None
    except (OSError, ValueError, InputError):
        # unreadable or half-written by a crashed writer: judged by the pid in its name
        try:
            pid = int(path.name.split("-")[1])
        except (IndexError, ValueError):
            return None
        return Ticket(path, pid, "unknown step", 0.0)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # another user's live process
    return True
