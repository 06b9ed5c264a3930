"""Progress of an A/B run: an overall bar whose ETA comes from the JMH settings, a line per step.

A benchmark run is long and silent unless someone reads JMH's output; the ETA is computed from
what JMH will do (forks × (warm-up + measurement iterations × their time) per benchmark and
@Param combination) and corrected by how long the finished work really took, so it is right
from the first step rather than after a few. Estimation is pure and tested; the displays are
thin: a rich live display on a terminal, plain lines otherwise (logs, CI, tests).
"""

from __future__ import annotations

import math
import sys
import time
from collections.abc import Sequence
from typing import Protocol, TextIO

from perfproof.jmh import console
from perfproof.jmh.listing import parse_listing
from perfproof.model.documents.run_plan import FORK_OVERHEAD_S, JmhSettings
from perfproof.units import eta as format_duration

HOST_OVERHEAD_S = 1.0

PLAIN_WAIT_EVERY_S = 30.0
"""How often a plain log repeats a lock wait's line (a terminal rewrites it at every poll)."""
"""The JMH host JVM: start, benchmark discovery, writing results."""


def count_benchmarks(list_output: str, options: Sequence[str] = ()) -> int:
    """Benchmark × @Param combinations from ``-lp`` output, with ``-p`` overrides applied."""
    overrides: dict[str, int] = {}
    for i, token in enumerate(options[:-1]):
        if token == "-p" and "=" in options[i + 1]:
            name, _, vals = options[i + 1].partition("=")
            overrides[name.strip()] = len([v for v in vals.split(",") if v != ""]) or 1
    total = 0
    for params in parse_listing(list_output).values():
        combos = 1
        for name, values in params.items():
            combos *= overrides.get(name, len(values) or 1)
        total += combos
    return total


def estimate_step_seconds(settings: JmhSettings, benchmark_count: int) -> float:
    """How long one JMH process should take with these settings."""
    return HOST_OVERHEAD_S + max(benchmark_count, 1) * settings.forks * settings.fork_seconds()


class StepTracker:
    """Turns JMH's output lines into seconds of the step's estimate that are done."""

    def __init__(self, settings: JmhSettings, estimate_s: float) -> None:
        self.settings = settings
        self.estimate_s = estimate_s
        self.done_s = 0.0

    def feed(self, line: str) -> None:
        happened = console.event(line)
        if happened == "warmup":
            self.done_s += self.settings.warmup_s
        elif happened == "measurement":
            self.done_s += self.settings.measurement_s
        elif happened == "fork":
            self.done_s += FORK_OVERHEAD_S
        self.done_s = min(self.done_s, self.estimate_s)


def eta_seconds(remaining_estimate_s: float, done_estimate_s: float, done_actual_s: float) -> float:
    """Remaining time: the estimate, scaled by how the finished work compared to its estimate.

    The scale is clamped so that one odd step (a slow first JVM start) cannot make the ETA
    jump wildly.
    """
    if done_estimate_s <= 0 or done_actual_s <= 0:
        return remaining_estimate_s
    scale = min(max(done_actual_s / done_estimate_s, 0.5), 3.0)
    return remaining_estimate_s * scale


def _took(duration_s: float, waited_s: float) -> str:
    """How long a step ran, with the wait for another JMH's lock told apart."""
    if waited_s < 0.05:
        return f"{duration_s:.1f}s"
    ran = max(duration_s - waited_s, 0.0)
    return f"{ran:.1f}s (after waiting {waited_s:.1f}s for the JMH lock)"


class Reporter(Protocol):
    """What the scheduler tells the user while a run goes on."""

    def message(self, text: str) -> None: ...

    def start_run(self, total_estimate_s: float, steps: int, rounds: int | None = None) -> None:
        """What is ahead: ``steps`` JMH steps, exactly; or, for a sequential run (``rounds``
        given: its most rounds), about that many now, fewer as keys leave the plan once
        decided and more when a round splits into several JMH processes. Only the rounds are
        a bound the run keeps, so only they are shown as one."""
        ...

    def start_step(self, label: str, estimate_s: float, settings: JmhSettings) -> None: ...

    def line(self, text: str) -> None: ...

    def waiting(self, text: str) -> None:
        """A step waits for JMH's lock: ``text`` is the current state, rebuilt at every poll
        (who holds the lock, for how long, the queue), shown until the step starts."""
        ...

    def end_step(
        self, label: str, status: str, duration_s: float, waited_s: float = 0.0
    ) -> None: ...

    def close(self) -> None: ...


class _Accounting:
    """The estimate bookkeeping both displays share."""

    def __init__(self) -> None:
        self.total_s = 0.0
        self.steps = 0
        self.finished = 0
        self.done_estimate_s = 0.0
        self.done_actual_s = 0.0
        self.tracker: StepTracker | None = None
        self.step_started = 0.0
        self.rounds: int | None = None

    def begin(self, total_estimate_s: float, steps: int, rounds: int | None = None) -> None:
        """What is still ahead; called again when a sequential run plans its next round, so
        the bar and ETA count finished work plus the undecided keys only."""
        self.total_s = self.done_estimate_s + total_estimate_s
        self.steps = self.finished + steps
        self.rounds = rounds

    def counter(self, step: int) -> str:
        """``[step/total]`` when the steps are known; ``[step]`` alone for a sequential run,
        whose step total rises and falls as keys stop and rounds split (its bound is the
        rounds, which the step's label carries)."""
        return f"[{step}]" if self.rounds is not None else f"[{step}/{self.steps}]"

    def start(self, estimate_s: float, settings: JmhSettings) -> None:
        self.tracker = StepTracker(settings, estimate_s)
        self.step_started = time.monotonic()

    def end(self, duration_s: float, waited_s: float = 0.0) -> None:
        """``waited_s`` (time spent waiting for another JMH's lock) is not benchmarking, so it
        must not stretch the ETA of the steps that follow."""
        if self.tracker is not None:
            self.done_estimate_s += self.tracker.estimate_s
            self.done_actual_s += max(duration_s - waited_s, 0.0)
        self.finished += 1
        self.tracker = None

    def completed_s(self) -> float:
        current = self.tracker.done_s if self.tracker else 0.0
        return min(self.done_estimate_s + current, self.total_s)

    def eta_s(self) -> float:
        remaining = max(self.total_s - self.completed_s(), 0.0)
        return eta_seconds(remaining, self.done_estimate_s, self.done_actual_s)


class PlainReporter:
    """One line per event on a text stream: for logs, CI and anything that is not a terminal."""

    def __init__(self, stream: TextIO | None = None) -> None:
        self.stream = stream or sys.stderr
        self.acc = _Accounting()
        self._waiting_said = -math.inf

    def _say(self, text: str) -> None:
        self.stream.write(text + "\n")
        self.stream.flush()

    def message(self, text: str) -> None:
        self._say(text)

    def start_run(self, total_estimate_s: float, steps: int, rounds: int | None = None) -> None:
        self.acc.begin(total_estimate_s, steps, rounds)
        if rounds is None:
            about = format_duration(total_estimate_s)
            self._say(f"{steps} JMH steps, about {about} of benchmarking")
            return
        self._say(
            f"at most {rounds} rounds (keys leave once decided): about {steps} JMH steps and "
            f"{format_duration(total_estimate_s)} of benchmarking if none does"
        )

    def start_step(self, label: str, estimate_s: float, settings: JmhSettings) -> None:
        self.acc.start(estimate_s, settings)
        self._say(
            f"{self.acc.counter(self.acc.finished + 1)} {label} "
            f"(about {format_duration(estimate_s)}, ETA {format_duration(self.acc.eta_s())})"
        )

    def line(self, text: str) -> None:
        if self.acc.tracker is not None:
            self.acc.tracker.feed(text)

    def waiting(self, text: str) -> None:
        now = time.monotonic()
        if now - self._waiting_said >= PLAIN_WAIT_EVERY_S:
            self._waiting_said = now
            self._say(text)

    def end_step(self, label: str, status: str, duration_s: float, waited_s: float = 0.0) -> None:
        self.acc.end(duration_s, waited_s)
        self._waiting_said = -math.inf
        self._say(
            f"{self.acc.counter(self.acc.finished)} {label}: "
            f"{status} in {_took(duration_s, waited_s)}"
        )

    def close(self) -> None:
        pass


class RichReporter:
    """A live terminal display: overall bar with ETA, the current step, JMH's last line."""

    def __init__(self) -> None:
        from rich.console import Console, Group
        from rich.live import Live
        from rich.progress import BarColumn, Progress, TextColumn
        from rich.text import Text

        self.acc = _Accounting()
        self.console = Console(stderr=True)
        self.progress = Progress(
            TextColumn("{task.description}"),
            BarColumn(),
            TextColumn("{task.percentage:>3.0f}%"),
            TextColumn("ETA {task.fields[eta]}"),
            console=self.console,
        )
        self.task = self.progress.add_task("benchmarks", total=1.0, eta="?")
        self.last = Text("", style="dim", overflow="ellipsis", no_wrap=True)
        # started with the first step, so that builds and errors before it print plainly;
        # transient: once the run ends (or is stopped) a bar frozen at "75% ETA 4s" under the
        # last message would read as if work were still going on
        self.live = Live(
            Group(self.progress, self.last),
            console=self.console,
            refresh_per_second=4,
            transient=True,
        )
        self.started = False

    def _refresh(self) -> None:
        total = max(self.acc.total_s, 1e-9)
        self.progress.update(
            self.task,
            total=total,
            completed=self.acc.completed_s(),
            eta=format_duration(self.acc.eta_s()),
        )

    def message(self, text: str) -> None:
        self.console.print(text)

    def start_run(self, total_estimate_s: float, steps: int, rounds: int | None = None) -> None:
        self.acc.begin(total_estimate_s, steps, rounds)
        self._refresh()

    def start_step(self, label: str, estimate_s: float, settings: JmhSettings) -> None:
        if not self.started:
            self.live.start()
            self.started = True
        self.acc.start(estimate_s, settings)
        self.progress.update(
            self.task, description=f"{self.acc.counter(self.acc.finished + 1)} {label}"
        )
        self._refresh()

    def line(self, text: str) -> None:
        if self.acc.tracker is not None:
            self.acc.tracker.feed(text)
        if text.strip():
            self.last.plain = text.strip()[:200]
        self._refresh()

    def waiting(self, text: str) -> None:
        self.last.plain = text[:200]
        self._refresh()

    def end_step(self, label: str, status: str, duration_s: float, waited_s: float = 0.0) -> None:
        self.acc.end(duration_s, waited_s)
        mark = "✓" if status == "done" else "✗"
        self.console.print(f"{mark} {label}: {status} in {_took(duration_s, waited_s)}")
        self.last.plain = ""
        self._refresh()

    def close(self) -> None:
        if self.started:
            self.live.stop()
            self.started = False


def make_reporter(stream: TextIO | None = None) -> Reporter:
    """A live display on an interactive terminal, plain lines anywhere else."""
    target = stream or sys.stderr
    if stream is None and target.isatty():
        return RichReporter()
    return PlainReporter(target)
