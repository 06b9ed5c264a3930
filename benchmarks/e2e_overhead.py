"""perfproof e2e's own cost: orchestration overhead per run and analysis time for many runs.

Run by hand (not a test):

    python3 benchmarks/e2e_overhead.py [RUNS_PER_SIDE]

The command measured is ``echo took 1`` so nearly all of the wall time is perfproof's: the
process start, the atomic writes of stdout/stderr/manifest per run, and metric extraction.
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from perfproof.model import Direction
from perfproof.pipeline.e2e import run as e2e
from perfproof.pipeline.e2e.options import E2EOptions
from perfproof.stats.end_to_end import analyse_metric


def orchestration(runs: int) -> tuple[float, float]:
    with tempfile.TemporaryDirectory() as tmp:
        opts = E2EOptions(
            metrics=(r"t=took (\d+)",),
            base_cmd="echo took 1",
            head_cmd="echo took 2",
            runs=runs,
            runs_dir=str(Path(tmp) / "runs"),
        )
        started = time.perf_counter()
        store = e2e.start(opts, Path(tmp))
        e2e.execute_and_analyse(store)
        wall = time.perf_counter() - started
        spent = sum(s.get("duration_s", 0.0) for s in store.manifest.steps)
    return wall, spent


def analysis(n: int) -> float:
    rng = np.random.default_rng(1)
    a = np.exp(rng.normal(0, 0.05, n))
    b = np.exp(rng.normal(-0.02, 0.05, n))
    started = time.perf_counter()
    analyse_metric(
        "t",
        "",
        Direction.LOWER,
        list(a),
        list(b),
        list(zip(a, b, strict=True)),
        confidence=0.99,
        threshold=0.01,
    )
    return time.perf_counter() - started


def main() -> None:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 100
    wall, spent = orchestration(runs)
    total = 2 * runs
    print(
        f"{total} runs: wall {wall:.2f}s, in the commands {spent:.2f}s, "
        f"perfproof overhead {(wall - spent) / total * 1000:.1f} ms per run"
    )
    for n in (10, 100, 1000, 10_000):
        print(f"analysis of {n} runs per side: {analysis(n) * 1000:.0f} ms")


if __name__ == "__main__":
    main()
