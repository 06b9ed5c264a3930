"""JMH's machine-wide lock: detection in output, probing without taking it, bounded waits."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

from perfproof.measure.lock import (
    LockState,
    lock_path_from_output,
    probe,
    refused_by_lock,
    wait_for_lock,
)

JMH_REFUSAL = (
    "ERROR: Another JMH instance might be running. Unable to acquire the JMH lock "
    "(/var/tmp/jmh.lock), exiting. Use -Djmh.ignoreLock=true to forcefully continue."
)

HOLDER = """
import fcntl, sys, time
fh = open(sys.argv[1], "a+")
fcntl.lockf(fh, fcntl.LOCK_EX)
print("locked", flush=True)
time.sleep(float(sys.argv[2]))
"""


def test_refusal_is_recognised_and_names_the_lock_file() -> None:
    assert refused_by_lock("# JMH version: 1.37\n" + JMH_REFUSAL)
    assert not refused_by_lock("# Run complete. Total time: 00:00:05")
    assert lock_path_from_output(JMH_REFUSAL) == Path("/var/tmp/jmh.lock")
    assert lock_path_from_output("something else") == Path("/tmp/jmh.lock")


def test_probe_sees_another_process_holding_the_lock(tmp_path: Path) -> None:
    path = tmp_path / "jmh.lock"
    assert probe(path) == LockState(False)  # no file at all
    path.write_text("")
    assert not probe(path).held
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(path), "30"], stdout=subprocess.PIPE, text=True
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "locked"
        state = probe(path)
        assert state.held and state.pid == holder.pid
        # probing did not take the lock: the holder still has it, and a second probe agrees
        assert probe(path).held
    finally:
        holder.kill()
        holder.wait()
        if holder.stdout is not None:
            holder.stdout.close()
    assert not probe(path).held


def test_wait_returns_at_once_when_free_and_says_nothing() -> None:
    said: list[str] = []
    waited = wait_for_lock(Path("/x"), 10, on_wait=said.append, prober=lambda p: LockState(False))
    assert waited == 0.0 and said == []


def test_wait_until_released_with_one_visible_message() -> None:
    now = [0.0]
    states = iter([True, True, True, False])
    said: list[str] = []
    waited = wait_for_lock(
        Path("/tmp/jmh.lock"),
        60,
        on_wait=said.append,
        poll_s=5,
        clock=lambda: now[0],
        sleep=lambda s: now.__setitem__(0, now[0] + s),
        prober=lambda p: LockState(next(states), 4242),
    )
    assert waited == 15.0
    assert len(said) == 1 and "pid 4242" in said[0] and "waiting up to 60s" in said[0]


def test_wait_gives_up_at_the_timeout() -> None:
    now = [0.0]
    waited = wait_for_lock(
        Path("/tmp/jmh.lock"),
        12,
        on_wait=lambda m: None,
        poll_s=5,
        clock=lambda: now[0],
        sleep=lambda s: now.__setitem__(0, now[0] + s),
        prober=lambda p: LockState(True),
    )
    assert waited == -1.0
    assert now[0] == 12.0  # never slept past the deadline


def test_real_wait_on_a_real_holder(tmp_path: Path) -> None:
    path = tmp_path / "jmh.lock"
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(path), "1.0"], stdout=subprocess.PIPE, text=True
    )
    assert holder.stdout is not None and holder.stdout.readline().strip() == "locked"
    said: list[str] = []
    start = time.monotonic()
    waited = wait_for_lock(path, 20, on_wait=said.append, poll_s=0.1)
    holder.wait()
    if holder.stdout is not None:
        holder.stdout.close()
    assert 0.3 < waited < 10 and time.monotonic() - start < 10
    assert said and "held" in said[0]


def test_other_platforms_are_not_probed_with_the_linux_layout(tmp_path: Path, monkeypatch) -> None:
    """On a kernel whose ``struct flock`` perfproof does not know, it neither guesses a holder
    nor stays silent: it says once that it relies on JMH's own refusal."""
    from perfproof.measure import lock

    held = tmp_path / "jmh.lock"
    held.write_text("")
    assert lock.probe_supported("linux") and not lock.probe_supported("darwin")
    monkeypatch.setattr(lock.sys, "platform", "darwin")
    monkeypatch.setattr(lock, "_told_unknown", False)
    assert lock.probe(held) == lock.LockState(False, known=False)
    said: list[str] = []
    assert lock.wait_for_lock(held, 5, on_wait=said.append) == 0.0
    assert lock.wait_for_lock(held, 5, on_wait=said.append) == 0.0
    assert len(said) == 1 and "darwin" in said[0] and "retries" in said[0]
