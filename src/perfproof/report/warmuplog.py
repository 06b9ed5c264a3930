"""Warm-up iterations per fork, read back from JMH's console log.

JMH's JSON keeps only measurement iterations, yet whether warm-up was long enough is exactly
what a timeline should show. The console log of every step (kept under ``logs/``) has the
warm-up scores, fork by fork; this reads them so the HTML timelines can draw warm-up and
measurement as one line per fork. A missing or unreadable log just means no warm-up points.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path

from perfproof.jmh.units import canonical

_BENCH = re.compile(r"^# Benchmark: (\S+)")
_PARAMS = re.compile(r"^# Parameters: \((.*)\)")
_FORK = re.compile(r"^# Fork: (\d+) of \d+")
_WARMUP = re.compile(r"^# Warmup Iteration\s+\d+:\s+([-+0-9.,eE]+|NaN)\s+(\S+)")

WarmupKey = tuple[str, tuple[tuple[str, str], ...]]


def _params(text: str) -> tuple[tuple[str, str], ...]:
    pairs = []
    for part in text.split(","):
        if "=" in part:
            k, v = part.split("=", 1)
            pairs.append((k.strip(), v.strip()))
    return tuple(sorted(pairs))


def parse_log(lines: Iterable[str]) -> dict[WarmupKey, list[list[float]]]:
    """Warm-up scores per (benchmark, params), one list per fork, in canonical units."""
    out: dict[WarmupKey, list[list[float]]] = {}
    bench: str | None = None
    params: tuple[tuple[str, str], ...] = ()
    current: list[float] | None = None
    for line in lines:
        if m := _BENCH.match(line):
            bench, params, current = m.group(1), (), None
        elif m := _PARAMS.match(line):
            params = _params(m.group(1))
        elif _FORK.match(line) and bench is not None:
            current = []
            out.setdefault((bench, params), []).append(current)
        elif (m := _WARMUP.match(line)) and current is not None:
            try:
                value = float(m.group(1).replace(",", ""))
            except ValueError:
                continue
            current.append(value * canonical(m.group(2))[1])
    return out


def read_warmups(paths: Iterable[Path]) -> dict[WarmupKey, list[list[float]]]:
    """Warm-ups of several logs of one side, forks appended in log order."""
    merged: dict[WarmupKey, list[list[float]]] = {}
    for path in paths:
        try:
            text = path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        for key, forks in parse_log(text.splitlines()).items():
            merged.setdefault(key, []).extend(forks)
    return merged
