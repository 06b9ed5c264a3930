"""The Go benchmark text format, which ``benchstat`` (golang.org/x/perf) reads.

One result line per fork: benchstat then sees forks as its samples, the unit of replication
perfproof uses too, instead of iterations that share one JVM. Configuration lines name the
side, commit, JDK and JMH version; both sides are written, so
``benchstat -col side -ignore commit FILE`` compares them. Names keep @Param values as
``/name=value`` parts, which benchstat can group by. The iteration count field holds the
fork's number of measurement iterations; heap and off-heap bytes and GC costs per operation
ride on the same line, each in a unit of its own.
"""

from __future__ import annotations

import re

from perfproof.export.source import (
    BENCHSTAT_MIN_SAMPLES,
    ExportFile,
    ExportOptions,
    ExportRun,
    Value,
)
from perfproof.model import ALLOC_NORM, PRIMARY, BenchKey, Samples
from perfproof.model.enums import SampleUnit
from perfproof.model.metrics import DIRECT_NORM, GC_COUNT_NORM, GC_TIME_NORM, NATIVE_NORM

_UNIT = {"B/op": "B/op", "ns/op": "ns/op", "ops/s": "ops/s"}


def bench_name(key: BenchKey) -> str:
    """``Benchmarkfx.Codes.sum/n=16``: no spaces; mode added when not avgt/thrpt."""
    parts = [key.benchmark] + [f"{k}={v}" for k, v in key.params]
    if key.mode not in ("avgt", "thrpt"):
        parts.append(f"mode={key.mode}")
    return "Benchmark" + re.sub(r"\s+", "_", "/".join(parts))


def _unit(value: Value) -> str:
    return _UNIT.get(value.unit) or re.sub(r"\s+", "_", value.unit) or "value"


def _config(key: str, value: str | None) -> str:
    text = re.sub(r"\s+", " ", value or "unknown").strip()
    return f"{key}: {text}"


def samples_mode(runs: list[ExportRun], options: ExportOptions) -> SampleUnit:
    """``forks`` when every key has benchstat's six samples per side in forks, else
    ``iterations``: benchstat cannot test fewer than six, so with 3–5 forks (perfproof's
    usual design) one sample per fork would only ever print ``± ∞``. Iterations inside a fork
    are not independent (the reason perfproof's own verdicts use forks), so benchstat's
    intervals over them come out narrower than the report's; the header says so."""
    if options.samples is not SampleUnit.AUTO:
        return options.samples
    fewest = min(
        (len(v.fork_means) for run in runs for side in run.sides for v in run.values(side)),
        default=0,
    )
    return SampleUnit.FORKS if fewest >= BENCHSTAT_MIN_SAMPLES else SampleUnit.ITERATIONS


BESIDE = (
    (ALLOC_NORM, "B/op"),
    (DIRECT_NORM, "direct-B/op"),
    (NATIVE_NORM, "native-B/op"),
    (GC_TIME_NORM, "gc-ns/op"),
    (GC_COUNT_NORM, "GCs/op"),
)
"""The per-operation costs written beside a key's score on its result lines, with the unit
benchstat shows them in (a unit of its own each: benchstat compares a unit across lines)."""


def render(runs: list[ExportRun], options: ExportOptions) -> dict[str, ExportFile]:
    metrics = options.metrics
    mode = samples_mode(runs, options)
    lines: list[str] = []
    units = set()
    keys: set[BenchKey] = set()
    results = 0
    for run in runs:
        for side in ("base", "head"):
            if side not in run.sides:
                continue
            values = {v.key: v for v in run.values(side) if v.key.metric in metrics}
            lines += [
                _config("side", side),
                _config("commit", run.commits.get(side)),
                _config("jdk", run.jdk),
                _config("jmh", run.jmh),
                _config("run", run.run_id),
                "",
            ]
            for key, primary in values.items():
                if key.metric != PRIMARY:
                    continue
                if mode is SampleUnit.ITERATIONS:
                    forks = len(run.sides[side][key].forks)
                else:
                    forks = len(primary.fork_means)
                beside = [
                    (v, unit)
                    for m, unit in BESIDE
                    if (v := values.get(key.with_metric(m))) is not None
                    and len(v.fork_means) == forks
                ]
                before = len(lines)
                units.add(_unit(primary))
                if mode is SampleUnit.ITERATIONS:
                    lines += _iteration_lines(run.sides[side][key], key, primary, beside)
                else:
                    for i, mean in enumerate(primary.fork_means):
                        fields = [bench_name(key), str(primary.iterations[i]), f"{mean:.6g}"]
                        fields.append(_unit(primary))
                        for v, unit in beside:
                            fields += [f"{v.fork_means[i]:.6g}", unit]
                        lines.append(" ".join(fields))
                results += _count(keys, key, [v for v, _ in beside], len(lines) - before)
            lines.append("")
    header = [f"samples: {mode}", ""]
    if "ops/s" in units:
        header += ["Unit ops/s better=higher", ""]
    text = "\n".join(header + lines)
    return {"benchstat.txt": ExportFile(text, len(keys), results)}


def _count(keys: set[BenchKey], key: BenchKey, beside: list[Value], written: int) -> int:
    """Note the keys a key's result lines carry (its costs ride on its lines); their number."""
    if written:
        keys.add(key)
        keys.update(v.key for v in beside)
    return written


def _iteration_lines(
    samples: Samples, key: BenchKey, primary: Value, beside: list[tuple[Value, str]]
) -> list[str]:
    """One line per measurement iteration (iteration count 1), its fork's costs beside."""
    out = []
    for i, fork in enumerate(samples.forks):
        for value in fork:
            fields = [bench_name(key), "1", f"{float(value):.6g}", _unit(primary)]
            for v, unit in beside:
                fields += [f"{v.fork_means[i]:.6g}", unit]
            out.append(" ".join(fields))
    return out
