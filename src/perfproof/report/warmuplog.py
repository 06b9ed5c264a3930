"""Warm-up iterations per fork, read back from JMH's console log.

JMH's JSON keeps only measurement iterations, yet whether warm-up was long enough is exactly
what a timeline should show. The console log of every step (kept under ``logs/``) has the
warm-up scores, fork by fork; this reads them so the HTML timelines can draw warm-up and
measurement as one line per fork (:mod:`perfproof.jmh.console` reads the lines). A missing or
unreadable log just means no warm-up points.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from perfproof.jmh.console import WarmupKey, warmup_scores


def read_warmups(paths: Iterable[Path]) -> dict[WarmupKey, list[list[float]]]:
    """Warm-ups of several logs of one side, forks appended in log order."""
    merged: dict[WarmupKey, list[list[float]]] = {}
    for path in paths:
        try:
            text = path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        for key, forks in warmup_scores(text.splitlines()).items():
            merged.setdefault(key, []).extend(forks)
    return merged
