"""The speed-ups the verdicts measured, as an Amdahl row takes them: per key from its ratio,
per changed method from the decided keys whose benchmark's call path runs through it, and
their summary, the geometric mean (ratios average in log space).

A key the A/B left undecided says nothing about the method's speed, so it never enters a
per-call speed-up; ``check`` holds a PR body's Amdahl rows to the same rule.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from perfproof.model import PRIMARY
from perfproof.model.documents.compare_wire import ComparisonDoc
from perfproof.model.documents.prove_measured import KeyGain
from perfproof.model.documents.prove_stages import ReachedBenchmark
from perfproof.model.enums import Direction, Verdict

DECIDED = (Verdict.IMPROVED, Verdict.REGRESSED)


def key_gain(c: ComparisonDoc) -> float | None:
    """One key's own speed-up, base time / feature time − 1, from its A/B ratio."""
    ratio = c.ratio
    if ratio is None or not math.isfinite(ratio) or ratio <= 0:
        return None
    return 1.0 / ratio - 1.0 if c.direction is Direction.LOWER else ratio - 1.0


def mixed(gains: Sequence[float]) -> bool:
    """Whether some speed-ups are gains and others losses: keys the change moved both ways."""
    return any(g > 0 for g in gains) and any(g < 0 for g in gains)


def summary_gain(gains: Sequence[float]) -> float | None:
    """The geometric mean of speed-ups ``1 + g``, less one: ratios average in log space. None
    when they disagree in direction: the mean of 1.49× and 0.66× as fast is 1.00×, a speed-up
    no key measured (on a small project 2 improved and 3 regressed keys of one method were
    summarised as "1.00× as fast")."""
    if not gains or mixed(gains):
        return None
    return math.exp(sum(math.log1p(g) for g in gains) / len(gains)) - 1.0


def names(step: str, method: str) -> bool:
    """Whether a call path's step is ``method`` (a changed method's label).

    A changed method is labelled with its own class's simple name
    (``BigDecimalSerializer.write(Output, long)``), a call path with the nested class's outer
    classes before it (``DefaultSerializers.BigDecimalSerializer.write(Output, long)``): the
    same method, which an exact comparison never found, so every nested class's row said "no
    key reaches it" beside the verdicts of the keys whose call paths end in it."""
    if step == method:
        return True
    new = "new "
    if method.startswith(new) != step.startswith(new):
        return False  # a constructor is never a method of the same name
    if method.startswith(new):
        return step[len(new) :].endswith("." + method[len(new) :])
    return step.endswith("." + method)


def reaching(method: str, reached: Sequence[ReachedBenchmark]) -> tuple[str, ...]:
    """The benchmarks whose call path runs through ``method`` (or ends in it), or that a walk
    from ``method`` alone reaches (:attr:`ReachedBenchmark.also`)."""
    return tuple(
        r.benchmark
        for r in reached
        if names(r.changed, method) or any(names(step, method) for step in (*r.path, *r.also))
    )


def method_gains(
    method: str, reached: Sequence[ReachedBenchmark], comparisons: Sequence[ComparisonDoc]
) -> tuple[tuple[KeyGain, ...], int]:
    """The decided time verdicts of the keys reaching ``method``, and how many were not."""
    benches = set(reaching(method, reached))
    gains, unmoved = [], 0
    for c in comparisons:
        if c.key.metric != PRIMARY or c.benchmark not in benches:
            continue
        gain = key_gain(c)
        if c.verdict in DECIDED and gain is not None:
            gains.append(KeyGain(key=c.key.label(), verdict=str(c.verdict), gain=gain))
        else:
            unmoved += 1
    return tuple(gains), unmoved


def benchmark_gains(comparisons: Sequence[ComparisonDoc]) -> dict[str, float | None]:
    """Per benchmark, the geometric mean speed-up of its keys with a decided time verdict
    (None: none decided), the figure a benchmark's ceiling is set against."""
    by_bench: dict[str, list[float]] = {}
    for c in comparisons:
        if c.key.metric != PRIMARY:
            continue
        gain = key_gain(c)
        values = by_bench.setdefault(c.benchmark, [])
        if c.verdict in DECIDED and gain is not None:
            values.append(gain)
    return {b: summary_gain(v) for b, v in by_bench.items()}
