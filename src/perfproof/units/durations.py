"""Wall-clock durations: the methodology line's ``4 min 05 s``, a progress line's ``4m05s``,
and JMH's time units read (``500ms``, a score's ``us/op``), one table for both."""

from __future__ import annotations

import math
import re

from perfproof.units.numbers import MISSING

SECONDS: dict[str, float] = {
    "ns": 1e-9,
    "us": 1e-6,
    "\u00b5s": 1e-6,
    "\u03bcs": 1e-6,
    "ms": 1e-3,
    "s": 1.0,
    "sec": 1.0,
    "min": 60.0,
    "m": 60.0,
    "hr": 3600.0,
    "h": 3600.0,
    "day": 86400.0,
    "d": 86400.0,
}
"""Seconds per JMH time-unit name, as its options (``-r 500ms``) and its scores (``us/op``)
spell them."""

_TIME_VALUE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([a-z\u00b5\u03bc]+)?\s*$")


def parse_time(text: str) -> float:
    """A JMH time option (``-w 500ms``, ``-r 1s``, ``-r 2``) in seconds; a bare number means
    seconds, as it does to JMH. The units are those of JMH's scores, from the one table."""
    match = _TIME_VALUE.match(text)
    if not match or (match.group(2) or "s") not in SECONDS:
        raise ValueError(f"not a JMH time value: {text!r}")
    return float(match.group(1)) * SECONDS[match.group(2) or "s"]


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
