"""Execute the planned JMH steps one by one, recording each in the run store.

One JMH process per step, so every step is a fresh set of forks and a crash or Ctrl-C loses at
most the step in progress. JMH writes to a hidden partial file; only after JMH exited cleanly,
printed no ``<failure>``, produced every expected benchmark and ran on the expected JDK is the
file renamed to ``jmh/<round>-<side>.json``, so a file in that place is always complete and is
never written again.

With ``jfr_dir`` every fork of a step records itself into ``jfr_dir/r<round>-<side>/``; the
recordings are named ``fork-N.jfr`` before the result file is moved into place, and a step that
is run again starts from an empty folder, so a finished step's recordings all come from the
attempt whose numbers were kept. A pair step of a variant run (one JMH process running both
variants of one commit) has its recordings moved into one folder per variant,
``r<round>-base/`` and ``r<round>-head/`` (:func:`perfproof.measure.pair.split_recordings`).
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import time
from collections.abc import Callable
from dataclasses import KW_ONLY, dataclass, field
from pathlib import Path
from typing import Any

from perfproof.errors import ExternalError
from perfproof.jmh.entries import JmhEntry, read_entry_file
from perfproof.measure import lock, lock_queue, lock_status
from perfproof.measure.argv import append_jvm_args, step_argv, with_forks, with_warmup
from perfproof.measure.jfr_args import (
    jit_settings,
    jmh_jfr_args,
    name_fork_recordings,
    step_folder,
)
from perfproof.measure.pair import clear_side_folders, split_recordings
from perfproof.measure.plan import FIXED, Plan, Step
from perfproof.measure.progress import Reporter, estimate_step_seconds
from perfproof.measure.store import DONE, FAILED, INTERRUPTED, RUNNING, RunStore, now_iso
from perfproof.model.documents.run_plan import PAIR, JmhSettings
from perfproof.process import Command, ProcessResult, Watch, command_line, run

FAILURE_MARKER = "<failure>"


@dataclass
class SideTarget:
    """How to start JMH for one side, and what it is expected to produce."""

    side: str
    launcher: Callable[[Step], list[str]]
    """The ``java … org.openjdk.jmh.Main`` prefix for a step (may rebuild for fresh builds)."""
    benchmarks: list[str] = field(default_factory=list)
    """Benchmark names the ``--bench`` regexes select on this side (from JMH's list)."""
    benchmark_count: int = 1
    """Benchmarks × @Param combinations, for the time estimate."""


@dataclass
class StepFailure:
    """Why a finished JMH process does not count as a finished step."""

    reason: str


def check_step_output(
    res: ProcessResult,
    partial: Path,
    expected: list[str],
    java_home: str | None,
) -> tuple[list[JmhEntry] | None, StepFailure | None]:
    """Decide whether one JMH process produced a usable result file.

    Returns the parsed entries, or the reason the step failed: a non-zero exit, a benchmark that
    threw (JMH prints ``<failure>`` and, without ``-foe``, leaves it out of the JSON), a missing
    or unreadable file, an expected benchmark absent, or forks that ran on another JDK.
    """
    failure_line = _failure_line(res.output)
    if not res.ok:
        detail = failure_line or _last_line(res.output)
        return None, StepFailure(f"JMH exited with code {res.returncode}: {detail}")
    if failure_line:
        return None, StepFailure(f"a benchmark threw an exception: {failure_line}")
    try:
        entries = read_entry_file(partial)
    except (OSError, json.JSONDecodeError) as exc:
        return None, StepFailure(f"JMH left no readable result file ({exc.__class__.__name__})")
    if not entries:
        return None, StepFailure("JMH produced no results")
    found = {e.benchmark for e in entries}
    missing = [b for b in expected if b not in found]
    if missing:
        return None, StepFailure(f"no result for {', '.join(missing[:3])}")
    if java_home:
        home = os.path.realpath(java_home)
        others = sorted(
            {
                e.jvm
                for e in entries
                if e.jvm and not os.path.realpath(e.jvm).startswith(home + os.sep)
            }
        )
        if others:
            return None, StepFailure(
                f"forks ran on {others[0]}, not the run's JDK {java_home} "
                "(a -jvm option in --jmh-args?); both sides must use one JDK"
            )
    return entries, None


def _failure_line(output: str) -> str:
    lines = output.splitlines()
    for i, line in enumerate(lines):
        if FAILURE_MARKER in line:
            for follow in lines[i + 1 : i + 4]:
                if follow.strip():
                    return follow.strip()[:200]
            return line.strip()[:200]
    return ""


def _last_line(text: str) -> str:
    for line in reversed(text.splitlines()):
        if line.strip():
            return line.strip()[:200]
    return ""


def publish_result(partial: Path, final: Path) -> None:
    """Move a checked result file into place: durable first, and never over an existing file.

    A hard link cannot replace an existing name, so even a bookkeeping error elsewhere could
    not overwrite a finished step's raw data.
    """
    with open(partial, "rb") as fh:
        os.fsync(fh.fileno())
    try:
        os.link(partial, final)
    except FileExistsError as exc:
        raise ExternalError(f"{final} already exists; a finished step is never rewritten") from exc
    partial.unlink()


@dataclass(eq=False)
class Scheduler:
    """Runs the pending steps of a run, in plan order, recording everything in the store."""

    store: RunStore
    targets: dict[str, SideTarget]
    reporter: Reporter
    _: KW_ONLY
    settings: JmhSettings
    lock_timeout_s: float
    java_home: str | None
    lock_path: Path = field(default_factory=lock.lock_path_for)
    jfr_dir: Path | None = None
    jfr_delay_s: float | None = None
    """Seconds after a fork's start its recording begins (``hunt`` skips warm-up)."""
    _wait_began: float = field(default=0.0, init=False)
    _holders: list[str] = field(default_factory=list, init=False)
    """Who held the lock while the current step waited (recorded with the step)."""

    def estimate(self, step: Step) -> float:
        """Expected seconds of a step: the keys it runs × forks × fork length."""
        settings = self.settings
        if step.warmup_iterations is not None:
            settings = settings.model_copy(update={"warmup_iterations": step.warmup_iterations})
        selection = step.selection
        if step.forks is not None and selection is not None:
            settings = settings.model_copy(update={"forks": step.forks})
            return estimate_step_seconds(settings, len(selection.members()))
        if selection is not None:
            return estimate_step_seconds(settings, len(selection.members()))
        return estimate_step_seconds(settings, self.targets[step.side].benchmark_count)

    def run_pending(self) -> None:
        """Run every unfinished step; stops at the first failure (finished steps stay)."""
        todo = self.store.pending_steps()
        self.reporter.start_run(sum(self.estimate(s) for s in todo), len(todo))
        self.run_steps(todo)

    def run_steps(self, steps: list[Step]) -> None:
        """Run the given steps in order (the caller told the reporter what is ahead)."""
        plan: Plan = self.store.plan
        for step in steps:
            self.run_step(step, plan)

    def run_step(self, step: Step, plan: Plan) -> None:
        target = self.targets[step.side]
        partial = self.store.partial_path(step)
        log_path = self.store.step_log(step)
        with contextlib.suppress(FileNotFoundError):
            partial.unlink()
        most = "" if plan.stopping == FIXED else "≤"
        label = f"round {step.round}/{most}{plan.rounds} {step.side} ({step.id})"
        selection = step.selection
        if selection is not None:
            n = len(selection.members())
            if step.side == PAIR:  # JMH's keys: both variants of each undecided key
                label += f", {n} variant key{'s' if n != 1 else ''} of the undecided"
            else:
                label += f", {n} undecided key{'s' if n != 1 else ''}"
        launcher = target.launcher(step)
        argv = step_argv(
            launcher,
            plan.benchmarks,
            self.step_options(step, plan),
            str(partial),
            selection,
        )
        self.store.update_step(
            step,
            status=RUNNING,
            started=now_iso(),
            argv=argv,
            command=command_line(argv),
        )
        self.reporter.start_step(label, self.estimate(step), self.settings)
        started = time.monotonic()
        try:
            res, lock_wait = self._run_jmh(step, argv, log_path)
        except KeyboardInterrupt:
            with contextlib.suppress(FileNotFoundError):
                partial.unlink()
            self._finish(step, INTERRUPTED, started, None)
            self.reporter.end_step(label, INTERRUPTED, time.monotonic() - started)
            raise
        expected = list(selection.benchmarks) if selection else target.benchmarks
        entries, failure = check_step_output(res, partial, expected, self.java_home)
        if failure is not None:
            with contextlib.suppress(FileNotFoundError):
                partial.unlink()
            self._finish(step, FAILED, started, res.returncode, error=failure.reason)
            self.reporter.end_step(label, FAILED, time.monotonic() - started)
            raise ExternalError(
                f"JMH step {step.id} (round {step.round}, {step.side} side) failed: "
                f"{failure.reason}",
                log_path,
            )
        if self.jfr_dir is not None:
            recordings = name_fork_recordings(self.jfr_dir, step.round, step.jfr_side)
            variants = self.store.manifest.variants
            if step.side == PAIR and variants is not None:
                recordings = split_recordings(self.jfr_dir, step, recordings,
                                              res.output.splitlines(),
                                              variants)  # fmt: skip
            self.store.update_step(step, recordings=[self.store.rel(p) for p in recordings])
        publish_result(partial, self.store.result_path(step))
        self._finish(
            step,
            DONE,
            started,
            res.returncode,
            jmh_seconds=round(res.duration_s, 3),
            lock_wait_s=round(lock_wait, 3),
            **({"lock_holders": list(self._holders)} if self._holders else {}),
            entries=len(entries or []),
        )
        self.reporter.end_step(label, DONE, time.monotonic() - started, waited_s=lock_wait)

    def step_options(self, step: Step, plan: Plan) -> tuple[str, ...]:
        """The plan's JMH options, plus the JFR option when forks are recorded.

        Recording: the step's folder is emptied first, since anything in it comes from an
        attempt that did not finish (a fork's recording dumped on Ctrl-C, say).
        """
        options = with_warmup(with_forks(plan.jmh_options, step.forks), step.warmup_iterations)
        if self.jfr_dir is None:
            return options
        folder = step_folder(self.jfr_dir, step.round, step.jfr_side)
        if folder.is_dir():
            shutil.rmtree(folder)
        if step.side == PAIR:
            clear_side_folders(self.jfr_dir, step)
        settings = jit_settings(self.java_home)
        value = jmh_jfr_args(
            self.jfr_dir, step.round, step.jfr_side, settings, delay_s=self.jfr_delay_s
        )[-1]
        return append_jvm_args(options, value)

    def _finish(
        self, step: Step, status: str, started: float, exit_code: int | None, **extra: Any
    ) -> None:
        self.store.update_step(
            step,
            status=status,
            finished=now_iso(),
            duration_s=round(time.monotonic() - started, 3),
            exit_code=exit_code,
            **extra,
        )

    def _run_jmh(self, step: Step, argv: list[str], log_path: Path) -> tuple[ProcessResult, float]:
        """Start JMH, waiting (bounded) whenever its machine-wide lock is held by someone else."""
        deadline = time.monotonic() + self.lock_timeout_s
        waited = 0.0
        announced = False

        def announce(text: str) -> None:
            nonlocal announced
            if not announced:
                self.reporter.message(text)
                announced = True

        ticket = lock_queue.take(self.lock_path, f"{self.store.path.name}, step {step.id}")
        self._wait_began = time.monotonic()
        self._holders = []
        try:
            waited += self._wait_turn(ticket, step, deadline, log_path, announce)
            if ticket is not None:
                ticket = lock_queue.start(ticket)
            return self._run_when_free(step, argv, log_path, deadline, waited, announce)
        finally:
            lock_queue.release(ticket)

    def _wait_turn(
        self,
        ticket: lock_queue.Ticket | None,
        step: Step,
        deadline: float,
        log_path: Path,
        announce: Callable[[str], None],
    ) -> float:
        """Wait until every perfproof step queued before this one has had its turn."""
        if ticket is None:
            return 0.0
        began = time.monotonic()
        told = False
        while before := lock_queue.ahead(ticket):
            if not told:
                announce(
                    f"JMH lock {self.lock_path}: {lock_status.queue_text(before)}; this step "
                    f"waits its turn (up to {self.lock_timeout_s:.0f}s)"
                )
                told = True
            self._show_wait(None, before)
            if time.monotonic() >= deadline:
                self._lock_timeout(step, log_path)
            time.sleep(min(0.2, max(0.0, deadline - time.monotonic())))
        return time.monotonic() - began

    def _show_wait(
        self, state: lock.LockState | None, ahead: list[lock_queue.Ticket] | None = None
    ) -> None:
        """The live line of the wait (rebuilt at every poll), and who held the lock."""
        line = lock_status.waiting_line(
            time.monotonic() - self._wait_began, state, ahead or [], self.lock_path
        )
        self.reporter.waiting(line)
        holders = [t.what for t in (ahead or [])[:1]]
        if state is not None and state.held:
            holders.append(lock_status.holder_name(state))
        for who in holders:
            if who not in self._holders and len(self._holders) < 5:
                self._holders.append(who)

    def _run_when_free(
        self,
        step: Step,
        argv: list[str],
        log_path: Path,
        deadline: float,
        waited: float,
        announce: Callable[[str], None],
    ) -> tuple[ProcessResult, float]:
        while True:
            waited += self._wait_lock(step, deadline, log_path, announce)
            watch = Watch(what=f"JMH {step.id}", log=log_path, on_line=self.reporter.line)
            res = run(Command(argv), watch)
            if not lock.refused_by_lock(res.output):
                return res, waited
            lock_path = lock.lock_path_from_output(res.output)
            if lock_path != self.lock_path:
                self.lock_path = lock_path
            announce(
                f"JMH refused to start: another JMH instance holds {self.lock_path}; "
                f"waiting up to {self.lock_timeout_s:.0f}s for it to finish"
            )
            if time.monotonic() >= deadline:
                self._lock_timeout(step, log_path)
            # The lock was free when probed but JMH found it taken: a race with another JMH
            # starting, or a holder the probe cannot see; back off and try again.
            pause = min(2.0, max(0.0, deadline - time.monotonic()))
            time.sleep(pause)
            waited += pause

    def _wait_lock(
        self, step: Step, deadline: float, log_path: Path, announce: Callable[[str], None]
    ) -> float:
        remaining = deadline - time.monotonic()

        def on_poll(_waited: float, state: lock.LockState) -> None:
            self._show_wait(state)

        waited = lock.wait_for_lock(
            self.lock_path, max(remaining, 0.0), on_wait=announce, on_poll=on_poll
        )
        if waited < 0:
            self._lock_timeout(step, log_path)
        return waited

    def _lock_timeout(self, step: Step, log_path: Path) -> None:
        self.store.update_step(step, status=FAILED, finished=now_iso(), error="JMH lock timeout")
        raise ExternalError(
            f"JMH step {step.id} ({step.side} side): another JMH instance still holds "
            f"{self.lock_path} after {self.lock_timeout_s:.0f}s (--lock-timeout); "
            "not forcing past it",
            log_path,
        )
