"""Recompute the per-look levels of the sequential design and rewrite the shipped table.

    python3 benchmarks/calibrate_sequential.py            # rewrites the table (about 2 min)
    python3 benchmarks/calibrate_sequential.py --check    # recomputes, compares, writes nothing

For each look schedule and each number of looks K, the per-look nominal two-sided level α′ is
the α-quantile of the smallest Welch p-value over the K looks of simulated A/A paths; over
variance ratios 1, 1.5, 2 and 3 between the sides the smallest α′ is kept (the worst case), and
of that quantile the lower end of a 95% order-statistic interval, so that simulation noise errs
on the safe side. Seeded: the same command always writes the same file.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path

import numpy as np

from lab.sequential_sim import running_min_p, simulate
from lab.simulate import ForkNoise
from perfproof.stats.sequential import LEVELS_SCHEMA, Schedule

OUT = Path(__file__).resolve().parent.parent / "src/perfproof/stats/sequential_levels.json"
SEED = 20261124
PATHS = 400_000
CHUNK = 100_000
MAX_LOOKS = 20
RATIOS = (1.0, 1.5, 2.0, 3.0)
SCHEDULES = ((2, 1), (2, 2), (3, 1), (3, 2), (3, 3), (4, 2))
ALPHAS = (1e-4, 2e-4, 5e-4, 1e-3, 2e-3, 5e-3, 0.01, 0.02, 0.05, 0.1, 0.2, 0.3, 0.5)


def min_p_paths(schedule: Schedule, ratio: float, rng: np.random.Generator) -> np.ndarray:
    """Running minimum of the nominal p-value, (paths × looks), for one variance ratio."""
    parts = []
    for _ in range(PATHS // CHUNK):
        # Welch's p-values do not depend on the scale: unit-sd fork means
        paths = simulate(rng, CHUNK, schedule, variance_ratio=ratio, noise=ForkNoise(fork_sd=1.0))
        parts.append(running_min_p(paths.p_value).astype(np.float64))
    return np.concatenate(parts)


def lower_quantile(sorted_col: np.ndarray, alpha: float) -> float:
    """Lower end of a two-sided 95% interval for the α-quantile (binomial order statistic)."""
    n = sorted_col.size
    rank = math.floor(alpha * n - 1.96 * math.sqrt(n * alpha * (1 - alpha)))
    return float(sorted_col[max(rank, 0)])


def calibrate() -> dict:
    rng = np.random.default_rng(SEED)
    schedules = {}
    for first, step in SCHEDULES:
        schedule = Schedule(MAX_LOOKS, first, step)
        worst = np.full((MAX_LOOKS, len(ALPHAS)), np.inf)
        for ratio in RATIOS:
            started = time.perf_counter()
            min_p = np.sort(min_p_paths(schedule, ratio, rng), axis=0)
            for k in range(MAX_LOOKS):
                levels = [lower_quantile(min_p[:, k], a) for a in ALPHAS]
                worst[k] = np.minimum(worst[k], levels)
            print(
                f"schedule {schedule.name} ratio {ratio:g}: {time.perf_counter() - started:.1f} s",
                file=sys.stderr,
            )
        # more looks can only add chances to cross: keep α′ non-increasing in K, and
        # increasing in α (it is, up to simulation noise)
        worst = np.minimum.accumulate(worst, axis=0)
        worst = np.maximum.accumulate(worst, axis=1)
        schedules[schedule.name] = {
            str(k + 1): [float(f"{v:.4g}") for v in worst[k]] for k in range(MAX_LOOKS)
        }
    return {
        "schema": LEVELS_SCHEMA,
        "generated_by": "python3 benchmarks/calibrate_sequential.py",
        "seed": SEED,
        "paths": PATHS,
        "variance_ratios": list(RATIOS),
        "quantile": "lower end of a 95% order-statistic interval",
        "alphas": list(ALPHAS),
        "schedules": schedules,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare with the shipped table")
    args = parser.parse_args()
    table = calibrate()
    text = json.dumps(table, indent=1) + "\n"
    if args.check:
        same = OUT.read_text(encoding="utf-8") == text
        print("shipped table reproduced" if same else "shipped table DIFFERS")
        return 0 if same else 1
    tmp = OUT.with_suffix(".json.tmp")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(OUT)
    print(f"wrote {OUT}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
