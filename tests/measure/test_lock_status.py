"""The live line of a step waiting for JMH's lock: who holds it, since when, the queue."""

from __future__ import annotations

import io
import os
import subprocess
import sys
import time
from pathlib import Path

from perfproof.measure import lock_queue
from perfproof.measure.lock import LockState, wait_for_lock
from perfproof.measure.lock_status import (
    holder_name,
    holder_text,
    process_age_s,
    process_label,
    waiting_line,
)
from perfproof.measure.progress import PlainReporter


def fake_proc(tmp_path: Path, pid: int, argv: list[str], started_ticks: int, uptime: float) -> Path:
    proc = tmp_path / "proc"
    (proc / str(pid)).mkdir(parents=True)
    (proc / str(pid) / "cmdline").write_bytes(b"\0".join(a.encode() for a in argv) + b"\0")
    # the command name may hold spaces and ')': fields are counted after the last ')'
    rest = ["S"] + ["0"] * 18 + [str(started_ticks)] + ["0"] * 10
    (proc / str(pid) / "stat").write_text(f"{pid} (java (x) y) " + " ".join(rest) + "\n")
    (proc / "uptime").write_text(f"{uptime} 1.0\n")
    return proc


def test_the_holder_is_named_by_its_jar_and_how_long_it_has_run(tmp_path: Path) -> None:
    ticks = os.sysconf("SC_CLK_TCK")
    argv = ["/usr/lib/jvm/bin/java", "-Xmx1g", "-jar", "/ci/other/target/benchmarks.jar", "-f", "5"]
    proc = fake_proc(tmp_path, 4121, argv, started_ticks=100 * ticks, uptime=284.0)
    assert process_label(4121, proc) == "java -jar benchmarks.jar"
    assert process_age_s(4121, proc) == 184.0
    state = LockState(True, 4121)
    assert holder_text(state, proc) == "held by pid 4121 (java -jar benchmarks.jar), up 3m04s"
    assert holder_name(state, proc) == "pid 4121 (java -jar benchmarks.jar)"
    # a process that is gone, or a platform without the table: said plainly, no guess
    assert holder_text(LockState(True, 999), proc) == "held by pid 999"
    assert holder_text(LockState(False, known=False)).startswith("held (its holder cannot")


def test_the_line_says_how_long_this_step_waited_and_who_is_queued_ahead(tmp_path: Path) -> None:
    now = time.time()
    ahead = [
        lock_queue.Ticket(tmp_path / "a", 77, "run-x, step 03-head", now - 500, now - 42),
        lock_queue.Ticket(tmp_path / "b", 78, "run-y, step 01-base", now - 400),
    ]
    line = waiting_line(406.0, None, ahead, Path("/tmp/jmh.lock"))
    assert line.startswith("waiting 6m46s for the JMH lock /tmp/jmh.lock (not charged to --budget)")
    assert "queued ahead: pid 77 (run-x, step 03-head, running 42s) and 1 more" in line


def test_every_poll_of_a_held_lock_reaches_the_live_display() -> None:
    now = [0.0]
    states = iter([True, True, True, False])
    polls: list[float] = []
    wait_for_lock(
        Path("/tmp/jmh.lock"), 60, on_wait=lambda m: None, poll_s=5,
        clock=lambda: now[0], sleep=lambda s: now.__setitem__(0, now[0] + s),
        prober=lambda p: LockState(next(states), 4242),
        on_poll=lambda waited, state: polls.append(waited),
    )  # fmt: skip
    assert polls == [0.0, 5.0, 10.0]


def test_a_plain_log_repeats_the_wait_line_now_and_then_not_at_every_poll(monkeypatch) -> None:
    clock = [1000.0]
    monkeypatch.setattr("perfproof.measure.progress.time.monotonic", lambda: clock[0])
    out = io.StringIO()
    rep = PlainReporter(out)
    for second in range(0, 95, 1):  # a poll a second for 95 s
        clock[0] = 1000.0 + second
        rep.waiting(f"waiting {second}s for the JMH lock")
    said = [line for line in out.getvalue().splitlines() if line]
    assert said == [f"waiting {s}s for the JMH lock" for s in (0, 30, 60, 90)]


HOLDER = """
import fcntl, sys, time
fh = open(sys.argv[1], "a+")
fcntl.lockf(fh, fcntl.LOCK_EX)
print("locked", flush=True)
time.sleep(float(sys.argv[2]))
"""


def test_a_real_holder_is_found_by_pid_with_its_command(tmp_path: Path) -> None:
    from perfproof.measure.lock import probe

    path = tmp_path / "jmh.lock"
    holder = subprocess.Popen([sys.executable, "-c", HOLDER, str(path), "30"],
                              stdout=subprocess.PIPE, text=True)  # fmt: skip
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "locked"
        state = probe(path)
        assert state.held and state.pid == holder.pid
        text = holder_text(state)
        assert text.startswith(f"held by pid {holder.pid} (python") and ", up " in text
    finally:
        holder.kill()
        holder.wait()
        if holder.stdout is not None:
            holder.stdout.close()


def test_the_lock_moves_with_a_tmpdir_every_jvm_is_given() -> None:
    from perfproof.measure.lock import DEFAULT_LOCK_PATH, lock_path_for

    assert lock_path_for({}) == DEFAULT_LOCK_PATH
    assert lock_path_for({"JAVA_TOOL_OPTIONS": "-Xmx1g -Djava.io.tmpdir=/ci/tmp"}) == Path(
        "/ci/tmp/jmh.lock"
    )
    # JDK_JAVA_OPTIONS reaches the command line, read after JAVA_TOOL_OPTIONS: it wins
    both = {"JAVA_TOOL_OPTIONS": "-Djava.io.tmpdir=/a", "JDK_JAVA_OPTIONS": "-Djava.io.tmpdir=/b"}
    assert lock_path_for(both) == Path("/b/jmh.lock")
