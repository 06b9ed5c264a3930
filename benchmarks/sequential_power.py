"""Power and expected stopping look of the sequential design, by simulation (seeded).

    python3 benchmarks/sequential_power.py             # the BENCHMARKS.md table (about 1 min)
    python3 benchmarks/sequential_power.py --paths 4000

For true changes of −3/−5/−10/−30% and fork-to-fork sd of log fork means 3/4.5/6% (what real
JVMs show), one key, α = 1%, θ = 1%: the share of paths that end ``improved``, the mean look
and forks per side at which a path stops (undecided paths count at the last look), the share
that stops at the first look; next to it the power of the fixed design that always runs the
sequential design's maximum number of forks (one Welch test at 99%).
"""

from __future__ import annotations

import argparse
import math
import time

import numpy as np
from scipy import special

from perfproof.stats import sequential as seq
from perfproof.stats.sequential_sim import play, simulate

ALPHA = 0.01
THETA = 0.01
EFFECTS = (-0.03, -0.05, -0.10, -0.30)
SDS = (0.03, 0.045, 0.06)
DESIGNS = (seq.Schedule(10, 3, 1), seq.Schedule(20, 3, 1))
SEED = 11


def fixed_power(paths, schedule: seq.Schedule) -> float:
    """Share of paths a single Welch test at the last look (all forks) calls improved."""
    k = schedule.max_looks - 1
    q = special.stdtrit(paths.df[:, k], 1 - ALPHA / 2)
    hi = paths.diff[:, k] + q * paths.se[:, k]
    return float(((hi < 0) & (np.exp(paths.diff[:, k]) < 1 - THETA)).mean())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--paths", type=int, default=20_000)
    args = parser.parse_args()
    rng = np.random.default_rng(SEED)
    started = time.perf_counter()
    for schedule in DESIGNS:
        most = schedule.forks_at(schedule.max_looks)
        print(
            f"\nDesign: first look at {schedule.first_forks} forks per side, +"
            f"{schedule.forks_per_look} per look, at most {schedule.max_looks} looks "
            f"({most} forks per side); per-look level "
            f"{float(seq.per_look_level(ALPHA, schedule)):.4g}\n"
        )
        print(
            "| change | fork sd | power | mean stop look | mean forks/side | stop at look 1 "
            f"| fixed {most} forks: power |"
        )
        print("|---:|---:|---:|---:|---:|---:|---:|")
        for effect in EFFECTS:
            for sd in SDS:
                paths = simulate(rng, args.paths, schedule, 1.0, math.log1p(effect), sd)
                played = play(paths, 1, schedule, ALPHA, "bh", THETA)
                improved = played.code == seq.LOWER
                stop = played.look
                forks = schedule.first_forks + (stop - 1) * schedule.forks_per_look
                first = ((stop == 1) & improved).mean()
                print(
                    f"| {effect * 100:+.0f}% | {sd * 100:.1f}% | {improved.mean():.1%} "
                    f"| {stop.mean():.2f} | {forks.mean():.1f} "
                    f"| {first:.1%} | {fixed_power(paths, schedule):.1%} |"
                )
    print(f"\n{args.paths} paths per row, seed {SEED}, {time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
