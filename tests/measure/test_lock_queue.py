"""Turns at JMH's lock in arrival order: two runs started together alternate step by step."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

from perfproof.measure import lock_queue, lock_status

WORKER = textwrap.dedent(
    """
    import fcntl, os, sys, time
    from pathlib import Path
    from perfproof.measure import lock_queue

    lock_path, log, name, steps = Path(sys.argv[1]), sys.argv[2], sys.argv[3], int(sys.argv[4])
    go = lock_path.with_name("go")
    lock_path.with_name(f"ready-{name}").touch()  # imported: the test may start the race
    while not go.exists():  # both runs start together
        time.sleep(0.01)
    for n in range(steps):
        ticket = lock_queue.take(lock_path, f"{name} step {n}")
        while lock_queue.ahead(ticket):
            time.sleep(0.02)
        ticket = lock_queue.start(ticket)
        fd = os.open(lock_path, os.O_RDWR | os.O_CREAT, 0o666)
        while True:  # JMH tries the lock once and refuses; perfproof retries after a pause
            try:
                fcntl.lockf(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except OSError:
                time.sleep(0.3)
        with open(log, "a") as fh:
            fh.write(f"{name} {time.time():.6f}\\n")
        time.sleep(0.15)
        os.close(fd)
        lock_queue.release(ticket)
    """
)


def test_two_runs_started_together_take_turns(tmp_path: Path) -> None:
    lock_path, log = tmp_path / "jmh.lock", tmp_path / "turns.log"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", WORKER, str(lock_path), str(log), name, "6"], env=env
        )
        for name in ("A", "B")
    ]
    deadline = time.monotonic() + 60
    while not all((tmp_path / f"ready-{n}").exists() for n in ("A", "B")):
        assert time.monotonic() < deadline and all(p.poll() is None for p in procs)
        time.sleep(0.01)
    (tmp_path / "go").touch()
    for p in procs:
        assert p.wait(timeout=60) == 0
    owners = "".join(line.split()[0] for line in log.read_text().splitlines())
    assert sorted(owners) == ["A"] * 6 + ["B"] * 6  # both finish every step
    # while both are running, neither takes two turns in a row: a retry loop alone gives
    # AAAAAABBBBBB (the run that just finished a step grabs the lock again at once)
    # (from the later run's first turn, in case the other got ahead before it took a ticket)
    first = max(owners.index("A"), owners.index("B"))
    both = owners[first : min(owners.rindex("A"), owners.rindex("B")) + 1]
    assert len(both) >= 8 and "AA" not in both and "BB" not in both, owners


def test_a_dead_process_ticket_is_dropped_and_order_is_arrival(tmp_path: Path) -> None:
    lock_path = tmp_path / "jmh.lock"
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    folder = lock_queue.queue_folder(lock_path)
    folder.mkdir()
    stale = folder / f"{1:020d}-{dead.pid:08d}-deadbeef{lock_queue.SUFFIX}"
    stale.write_text(f'{{"pid": {dead.pid}, "what": "crashed run"}}')
    first = lock_queue.take(lock_path, "first")
    second = lock_queue.take(lock_path, "second")
    assert first is not None and second is not None
    assert lock_queue.ahead(first) == []  # the crashed run's ticket does not block
    assert not stale.exists()
    (older,) = lock_queue.ahead(second)
    assert older.what == "first"
    running = lock_queue.start(first)
    text = lock_status.queue_text(lock_queue.ahead(second), now=time.time() + 30)
    assert f"pid {os.getpid()} (first, running 30s)" in text
    assert running.running_since is not None
    lock_queue.release(first)
    assert lock_queue.ahead(second) == []


def test_no_queue_where_the_folder_cannot_be_made(tmp_path: Path) -> None:
    blocker = tmp_path / "jmh.lock.queue"
    blocker.write_text("a file where the folder would go")
    assert lock_queue.take(tmp_path / "jmh.lock", "step") is None
