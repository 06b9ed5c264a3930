"""JMH's console log: the lines a run prints while it measures.

Two readers need it: the progress display counts forks and iterations as they go by, and the
report reads the warm-up scores back (JMH's JSON keeps measurement iterations only). Both read
the same few line shapes, defined here once.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Literal

from perfproof.jmh.units import canonical

_BENCH = re.compile(r"^# Benchmark: (\S+)")
_PARAMS = re.compile(r"^# Parameters: \((.*)\)")
_FORK = re.compile(r"^# Fork: (\d+) of \d+")
_ANY_FORK = re.compile(r"^# (?:Warmup )?Fork: \d+ of \d+")
_WARMUP = re.compile(r"^# Warmup Iteration\s+\d+:")
_WARMUP_SCORE = re.compile(r"^# Warmup Iteration\s+\d+:\s+([-+0-9.,eE]+|NaN)\s+(\S+)")
_MEASUREMENT = re.compile(r"^Iteration\s+\d+:")

Event = Literal["fork", "warmup", "measurement"]

WarmupKey = tuple[str, tuple[tuple[str, str], ...]]
"""(benchmark, @Param values sorted by name)."""


def event(line: str) -> Event | None:
    """What a line of the log says has just happened: a fork started, a warm-up or a
    measurement iteration ended; None for every other line."""
    if _WARMUP.match(line):
        return "warmup"
    if _MEASUREMENT.match(line):
        return "measurement"
    if _FORK.match(line):
        return "fork"
    return None


def _params(text: str) -> tuple[tuple[str, str], ...]:
    pairs = []
    for part in text.split(","):
        if "=" in part:
            k, v = part.split("=", 1)
            pairs.append((k.strip(), v.strip()))
    return tuple(sorted(pairs))


def warmup_scores(lines: Iterable[str]) -> dict[WarmupKey, list[list[float]]]:
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
        elif (m := _WARMUP_SCORE.match(line)) and current is not None:
            try:
                value = float(m.group(1).replace(",", ""))
            except ValueError:
                continue
            current.append(value * canonical(m.group(2))[1])
    return out


def fork_keys(lines: Iterable[str]) -> list[WarmupKey]:
    """The (benchmark, params) of every JVM JMH forked, in the order it started them (warm-up
    forks included: each is a JVM of its own)."""
    out: list[WarmupKey] = []
    bench: str | None = None
    params: tuple[tuple[str, str], ...] = ()
    for line in lines:
        if m := _BENCH.match(line):
            bench, params = m.group(1), ()
        elif m := _PARAMS.match(line):
            params = _params(m.group(1))
        elif _ANY_FORK.match(line) and bench is not None:
            out.append((bench, params))
    return out
