"""The Go benchmark text format, which ``benchstat`` (golang.org/x/perf) reads.

One result line per fork: benchstat then sees forks as its samples, the unit of replication
perfproof uses too, instead of iterations that share one JVM. Configuration lines name the
side, commit, JDK and JMH version; both sides are written, so
``benchstat -col side -ignore commit FILE`` compares them. Names keep @Param values as
``/name=value`` parts, which benchstat can group by. The iteration count field holds the
fork's number of measurement iterations.
"""

from __future__ import annotations

import re

from perfproof.export.source import ExportRun, Value
from perfproof.model import ALLOC_NORM, PRIMARY, BenchKey

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


def render(runs: list[ExportRun], metrics: tuple[str, ...]) -> dict[str, str]:
    lines: list[str] = []
    units = set()
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
                alloc = values.get(key.with_metric(ALLOC_NORM))
                same_forks = alloc is not None and len(alloc.fork_means) == len(primary.fork_means)
                for i, mean in enumerate(primary.fork_means):
                    fields = [
                        bench_name(key),
                        str(primary.iterations[i]),
                        f"{mean:.6g}",
                        _unit(primary),
                    ]
                    units.add(_unit(primary))
                    if same_forks and alloc is not None:
                        fields += [f"{alloc.fork_means[i]:.6g}", "B/op"]
                    lines.append(" ".join(fields))
            lines.append("")
    header = []
    if "ops/s" in units:
        header = ["Unit ops/s better=higher", ""]
    return {"benchstat.txt": "\n".join(header + lines)}
