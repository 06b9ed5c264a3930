"""A run folder read once for every export format: commits, time, versions, forks per side.

Every format exports the same numbers: per key and side, the mean of fork means with a
Student-t interval over the fork means (the fork is the unit of replication, as in ``compare``),
so a value in Bencher, in github-action-benchmark and in benchstat agree with the report.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from perfproof.errors import InputError
from perfproof.model import PRIMARY, BenchKey, Comparison, Samples
from perfproof.model.bounds import bound_exp
from perfproof.model.enums import SampleUnit
from perfproof.model.metrics import GC_COSTS, OFF_HEAP
from perfproof.stats.welch import mean_interval
from perfproof.units.bounds import MAX_BOUND_FACTOR, beyond_factor

# The widest interval an export passes on is the reports' own (MAX_BOUND_FACTOR, one rule):
# Bencher's ``lower_value``/``upper_value`` and github-action-benchmark's ``range`` are
# optional, so an interval wider than that is left out, and ``export --format json`` says
# which and why.

BENCHSTAT_MIN_SAMPLES = 6
"""benchstat prints ``± ∞ need >= 6 samples`` and does not test with fewer per side."""

COSTS = (*OFF_HEAP, *GC_COSTS)
"""Off-heap bytes and GC costs per operation: exported only for keys that have any."""


@dataclass(frozen=True)
class ExportOptions:
    """What every format is given: the metrics, and for benchstat what a sample is."""

    metrics: tuple[str, ...]
    samples: SampleUnit = SampleUnit.AUTO


@dataclass(frozen=True)
class ExportFile:
    """One file a format writes, with what it holds: the perfproof keys in it (benchmark,
    @Params, mode and metric) and its rows in the format's own terms (entries, result lines,
    CSV rows), counted where the file is built so nobody parses it back to say so."""

    text: str
    keys: int
    rows: int
    omitted: tuple[str, ...] = ()
    """Intervals left out of the file, each ``name: reason`` (see :data:`MAX_BOUND_FACTOR`)."""
    not_compared: tuple[str, ...] = ()
    """Metrics asked for and measured that the file has no rows of, each with why: a format
    of comparisons (CSV) has none for a metric the run's results.json never compared, while
    the formats of per-side values export it, so the reader is told rather than left to
    think it was not measured."""


@dataclass(frozen=True)
class Value:
    """One key on one side: the estimate, its fork-level interval (None with one fork)."""

    key: BenchKey
    unit: str
    direction: str
    mean: float
    lo: float | None
    hi: float | None
    fork_means: tuple[float, ...]
    iterations: tuple[int, ...]
    omitted: str | None = None
    """Why the interval is left out though there are forks enough (it is wider than
    :data:`MAX_BOUND_FACTOR` allows); None when it is given, or with one fork."""


@dataclass
class ExportRun:
    path: Path
    run_id: str
    time: str
    commits: dict[str, str | None]
    jdk: str | None
    jmh: str | None
    confidence: float
    inputs: tuple[Path, ...]
    sides: dict[str, dict[BenchKey, Samples]]
    machine: str | None = None
    """The ``--machine`` name the run was measured under (None: unnamed)."""
    comparisons: tuple[Comparison, ...] = ()
    """The run's comparisons as its results.json holds them (recomputed without one)."""

    def values(self, side: str = "head") -> list[Value]:
        found = self.sides.get(side, {})
        order = sorted(found, key=lambda k: (k.entry(), k.metric != PRIMARY, k.metric))
        return [value_of(found[k], self.confidence) for k in order]


def value_of(s: Samples, confidence: float) -> Value:
    means = s.fork_means()
    if means.size == 0:
        raise InputError(f"{s.key.label()}: no measurements to export")
    iv = mean_interval(means, confidence)
    lo, hi = side_bounds(means, confidence)
    omitted = unsupported(iv.mean, lo, hi, means.size)
    if omitted is not None:
        lo = hi = None
    return Value(
        s.key,
        s.unit,
        str(s.direction),
        iv.mean,
        lo,
        hi,
        tuple(float(m) for m in means),
        tuple(len(f) for f in s.forks if len(f)),
        omitted,
    )


def unsupported(mean: float, lo: float | None, hi: float | None, forks: int) -> str | None:
    """Why an interval is too wide to export (a bound beyond :data:`MAX_BOUND_FACTOR` of the
    value, or not finite), else None. A value at zero has no factor: only finiteness counts."""
    if lo is None or hi is None:
        return None
    if not (math.isfinite(lo) and math.isfinite(hi)):
        return f"its interval is not finite ({forks} forks)"
    if beyond_factor(mean, lo, hi):
        return (
            f"its interval {lo:.3g} to {hi:.3g} reaches beyond {MAX_BOUND_FACTOR:,.0f}× the "
            f"value {mean:.3g} ({forks} forks): the data cannot bound it"
        )
    return None


def side_bounds(means: np.ndarray, confidence: float) -> tuple[float | None, float | None]:
    """The interval of a side's mean of fork means, on the log scale the comparison uses.

    A linear t-interval over 2 forks reaches below zero for any noisy time (a latency of
    −5,846 ns in a dashboard); Student's t on the log fork means, applied as a factor around
    the mean (``mean ÷ f`` to ``mean × f``), never does and widens the way the ratio
    intervals do. Values at zero (no allocation) have no logarithm: their linear interval is
    cut at 0. ``None`` with one fork: no interval exists.
    """
    if means.size < 2:
        return None, None
    mean = float(np.mean(means))
    if bool(np.all(means > 0)):
        logs = mean_interval(np.log(means), confidence)
        half = logs.hi - logs.mean
        if not math.isfinite(half):
            return None, None
        return mean * bound_exp(-half), mean * bound_exp(half)
    iv = mean_interval(means, confidence)
    if not (math.isfinite(iv.lo) and math.isfinite(iv.hi)):
        return None, None
    return max(iv.lo, 0.0), iv.hi


def display_name(key: BenchKey, with_metric: bool = False) -> str:
    """``fx.Codes.sum(n=16)``: the benchmark with its @Param values, so variants never collide;
    the mode is added when it is not the usual avgt/thrpt (two modes of one benchmark)."""
    text = key.benchmark
    if key.params:
        text += "(" + ";".join(f"{k}={v}" for k, v in key.params) + ")"
    if key.mode not in ("avgt", "thrpt"):
        text += f"[{key.mode}]"
    if with_metric and key.metric != PRIMARY:
        text += f".{key.metric}"
    return text


def load(path: Path) -> ExportRun:
    """Read a run folder (``ab`` run, or a folder of ``<round>-<side>.json`` JMH files)."""
    from perfproof.history.records import iso_time
    from perfproof.jmh.reader import read_results
    from perfproof.report.rundir import load_run

    run = load_run(path)
    manifest = run.manifest
    env = manifest.environment
    sides = {}
    inputs = [path / "manifest.json", path / "results.json"]
    for side in ("base", "head"):
        files = [r.path for r in run.raw_for(side)]
        inputs.extend(files)
        if files:
            sides[side] = read_results(files)
    _drop_silent_costs(sides)
    if "head" not in sides:
        raise InputError(f"{path}: no JMH results of the head side under jmh/")
    stamp = manifest.created or manifest.updated
    machine = manifest.options.machine
    return ExportRun(
        path=path,
        run_id=manifest.id or path.name,
        time=iso_time(str(stamp)) if stamp else iso_time(None),
        commits={s: manifest.side(s).sha for s in ("base", "head")},
        jdk=env.jdk.version if env.jdk else None,
        jmh=env.jmh_version,
        confidence=run.document.confidence,
        inputs=tuple(p.resolve() for p in inputs),
        sides=sides,
        machine=machine if isinstance(machine, str) and machine else None,
        comparisons=tuple(run.document.comparisons),
    )


def _drop_silent_costs(sides: dict[str, dict[BenchKey, Samples]]) -> None:
    """Leave out the off-heap bytes and GC costs of a key that are zero on every side: a
    dashboard of every benchmark's ``0 B/op`` direct memory says nothing, while a key that had
    any keeps its series, also on a side where it fell to zero."""
    for key in {k for side in sides.values() for k in side if k.metric in COSTS}:
        found = [side[key] for side in sides.values() if key in side]
        if all(not np.any(np.concatenate(s.forks)) for s in found if s.forks):
            for side in sides.values():
                side.pop(key, None)
