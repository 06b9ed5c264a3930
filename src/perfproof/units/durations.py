"""Wall-clock durations: the methodology line's ``4 min 05 s`` and a progress line's ``4m05s``."""

from __future__ import annotations

import math

from perfproof.units.numbers import MISSING


def duration(seconds: float | None) -> str:
    """Wall-clock time for methodology lines: ``850 ms``, ``12.3 s``, ``4 min 05 s``."""
    if seconds is None or not math.isfinite(seconds):
        return MISSING
    if seconds < 1:
        return f"{seconds * 1000:.0f} ms"
    if seconds < 60:
        return f"{seconds:.1f} s"
    minutes, secs = divmod(round(seconds), 60)
    if minutes < 60:
        return f"{minutes} min {secs:02d} s"
    hours, minutes = divmod(minutes, 60)
    return f"{hours} h {minutes:02d} min"


def eta(seconds: float) -> str:
    """A progress line's estimate, whole seconds up: ``10s``, ``2m05s``, ``3h02m``.

    Shorter than :func:`duration` because it is rewritten on one line every step; a run of
    more than an hour needs no seconds.
    """
    seconds = max(0, round(seconds))
    if seconds < 60:
        return f"{seconds}s"
    minutes, secs = divmod(seconds, 60)
    if minutes < 60:
        return f"{minutes}m{secs:02d}s"
    hours, minutes = divmod(minutes, 60)
    return f"{hours}h{minutes:02d}m"
