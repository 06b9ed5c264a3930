"""JMH's benchmark listing (``-l`` names only, ``-lp`` with each @Param's values).

A run asks JMH what a jar holds before measuring anything: the names tell whether ``--bench``
selected something, the parameter values give the suite's keys and the length of a step. The
listing is a plain-text format with no version marker, so it is read in this one place: a
line ``Benchmarks:`` starts the list, a name starts at column 0, and ``  param "n" = {1, 2}``
below a name gives that benchmark's values in JMH's order.
"""

from __future__ import annotations

import re

_PARAM_LINE = re.compile(r'^\s+param\s+"?([^"=\s]+)"?\s*=\s*\{(.*)\}\s*$')

Listing = dict[str, dict[str, tuple[str, ...]]]
"""Benchmark → parameter → values, benchmarks in listing order."""


def parse_listing(text: str) -> Listing:
    """JMH's ``-lp`` output as benchmark → parameter → values (in JMH's order).

    ``-l`` output (names only) parses too: every benchmark then has no parameters. Lines
    before ``Benchmarks:`` (JMH's warnings, a JVM's notices) are not benchmarks.
    """
    listing: Listing = {}
    current: str | None = None
    started = False
    for line in text.splitlines():
        if line.startswith("Benchmarks:"):
            started = True
            continue
        if not started or not line.strip():
            continue
        param = _PARAM_LINE.match(line)
        if param and current is not None:
            values = tuple(v.strip() for v in param.group(2).split(",") if v.strip())
            listing[current][param.group(1)] = values
            continue
        if not line[0].isspace():
            current = line.strip()
            listing.setdefault(current, {})
    return listing


def benchmark_names(text: str) -> list[str]:
    """The benchmark names of a ``-l``/``-lp`` listing, in JMH's order."""
    return list(parse_listing(text))
