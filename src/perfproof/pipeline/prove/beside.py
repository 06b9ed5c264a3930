"""Stages of ``prove`` that run beside another one, on a thread of their own.

Only a stage that times nothing may run while another works, and only beside a stage that
times nothing either: the A/B's timing forks have the machine to themselves, but the profile
forks are recorded, not timed (JMH's iterations last their set time whatever the load, and a
recording's shares and bytes per operation do not depend on it), so the tests on both commits
(two build-tool runs) go on meanwhile instead of after. :data:`BESIDE` names the pairs.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

BESIDE = {"profile": "tests"}
"""A stage → the stage that runs on a thread of its own while it does."""


class Beside:
    """One stage run on a daemon thread; :meth:`join` waits for it and raises what it raised
    (a daemon, so an interrupted chain does not wait for a build tool to finish)."""

    def __init__(self, work: Callable[[], None]) -> None:
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._run, args=(work,), daemon=True)

    def _run(self, work: Callable[[], None]) -> None:
        try:
            work()
        except BaseException as exc:  # handed to the chain's own thread by join()
            self._error = exc

    def start(self) -> Beside:
        self._thread.start()
        return self

    def join(self) -> None:
        self._thread.join()
        if self._error is not None:
            raise self._error


def left_together(estimates: dict[str, float], remaining: list[str]) -> float:
    """Seconds left when the stages of :data:`BESIDE` pairs still to run overlap: the longer
    of each pair, not their sum."""
    total = sum(estimates.get(s, 0.0) for s in remaining)
    for main, other in BESIDE.items():
        if main in remaining and other in remaining:
            total -= min(estimates.get(main, 0.0), estimates.get(other, 0.0))
    return total
