"""How an attempt at a run folder ends, written once for every verb that measures into one.

Whatever stops an attempt (the last step, a Ctrl-C, a bad input, a crash), the folder's manifest
must say so, status and error, before the exception travels on: ``--resume`` reads it to know
what to redo and ``report`` to know what it may trust. ``ab`` and ``guard`` also keep one event
per attempt in the manifest's history; ``e2e`` keeps the status alone.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

from perfproof.errors import PerfproofError
from perfproof.measure.store import DONE, FAILED, INTERRUPTED, RUNNING, RunStore
from perfproof.model.enums import RunStatus

INTERRUPTED_BY_USER = "interrupted by the user"


def close_attempt(
    store: RunStore, status: RunStatus, error: str | None = None, *, events: bool = True
) -> None:
    """End the attempt with ``status``, and its entry in the run's history when ``events``."""
    if events:
        store.add_event(status, **({"error": error} if error else {}))
    store.close(status, error)


@contextlib.contextmanager
def attempt(store: RunStore, *, events: bool = True) -> Iterator[None]:
    """Mark the run running for the ``with`` body and record how the body stopped if it did
    not finish: a Ctrl-C is ``interrupted``, anything else ``failed`` with its message (the
    exception's class named when it is not one of perfproof's own one-line errors). A body that
    finishes leaves the status to the caller, who closes it ``done`` after writing results."""
    store.manifest.error = None
    store.set_status(RUNNING)
    try:
        yield
    except KeyboardInterrupt:
        close_attempt(store, INTERRUPTED, INTERRUPTED_BY_USER, events=events)
        raise
    except PerfproofError as exc:
        close_attempt(store, FAILED, str(exc), events=events)
        raise
    except BaseException as exc:
        close_attempt(store, FAILED, f"{exc.__class__.__name__}: {exc}", events=events)
        raise


def finish_attempt(store: RunStore, *, events: bool = True) -> None:
    """The attempt measured and wrote what it had to: the run is done."""
    close_attempt(store, DONE, events=events)
