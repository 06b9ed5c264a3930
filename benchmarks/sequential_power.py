"""Power and expected stopping look of the sequential design, by simulation (seeded).

    python3 benchmarks/sequential_power.py             # the BENCHMARKS.md table (about 1 min)
    python3 benchmarks/sequential_power.py --paths 4000
    python3 benchmarks/sequential_power.py --bimodal   # A/A with fork means in two code shapes,
                                                       # and clean 1.3–3× splits, reached or not
    python3 benchmarks/sequential_power.py --first-forks 2   # first look at 2 forks per side

For no change (A/A: the share of false improved/regressed) and true changes of −3/−5/−10/−30%,
at fork-to-fork sd of log fork means 3/4.5/6% (what real JVMs show), one key, α = 1%, θ = 1%:
the share of paths that end ``improved``, the mean look and forks per side at which a path
stops (undecided paths count at the last look), the share that stops improved at the first
look; next to it the power of the fixed design that always runs the sequential design's
maximum number of forks (one Welch test at 99%). Three designs: 10 looks, 20 looks, and 10
looks with the opt-in futility stop at 5%.
"""

from __future__ import annotations

import argparse
import math
import time

import numpy as np
from scipy import special

from lab.sequential_sim import Paths, paths_from_streams, play, simulate
from lab.simulate import ForkNoise
from perfproof.stats import sequential as seq
from perfproof.stats.welch import welch_rows

ALPHA = 0.01
THETA = 0.01
EFFECTS = (0.0, -0.03, -0.05, -0.10, -0.30)
SDS = (0.03, 0.045, 0.06)
DESIGNS = (
    (seq.Schedule(10, 3, 1), 0.0),
    (seq.Schedule(20, 3, 1), 0.0),
    (seq.Schedule(10, 3, 1), 0.05),
)
"""(schedule, futility γ): the default design, a longer one, and the default with futility."""
SEED = 11


def fixed_power(paths: Paths, schedule: seq.Schedule, effect: float) -> float:
    """Share of paths a single Welch test at 99% at the last look (all forks) calls improved
    (for A/A: improved or regressed)."""
    k = schedule.max_looks - 1
    q = special.stdtrit(paths.df[:, k], 1 - ALPHA / 2)
    hi = paths.diff[:, k] + q * paths.se[:, k]
    lo = paths.diff[:, k] - q * paths.se[:, k]
    beyond = np.abs(np.expm1(paths.diff[:, k])) > THETA
    called = (hi < 0) | (lo > 0) if effect == 0 else hi < 0
    return float((called & beyond).mean())


def bimodal(rng: np.random.Generator, paths: int) -> None:
    """A/A when fork means split between two code shapes 10% apart (within-shape sd 1%):
    the sequential design with its bimodal-forks rule on a key the change does not reach (or
    whose reach is not known: the hold applies; an A/A run's empty diff reaches nothing), the
    same on a key the change reaches but does not move (a clean split by side is then taken as
    the change), without the rule, and fixed designs of 3 and 12 forks per side (one Welch
    test, no rule); then the mean forks per side the sequential design ran with the rule.
    Then :func:`clean_splits`."""
    schedule = DESIGNS[0][0]
    print(
        "\n| minority shape share | sequential, not reached (≤ 12 forks) | sequential, reached "
        "| without the bimodal rule | fixed 3 forks | fixed 12 forks | mean forks/side |"
    )
    print("|---:|---:|---:|---:|---:|---:|---:|")

    def draw(shape: tuple[int, ...], share: float) -> np.ndarray:
        return rng.standard_normal(shape) * 0.01 + np.where(rng.random(shape) < share, 0.1, 0.0)

    for share in (0.1, 0.2, 0.5):
        stream = [draw((schedule.forks_at(schedule.max_looks), paths), share) for _ in range(2)]
        simulated = paths_from_streams((stream[0], None), (stream[1], None), schedule)
        rates = []
        for rule, reached in ((True, False), (True, True), (False, False)):
            played = play(
                simulated, 1, schedule, ALPHA, "bh", THETA, bimodal_rule=rule, reached=reached
            )
            rates.append(np.isin(played.code, (seq.LOWER, seq.HIGHER)).mean())
            if rule and not reached:
                forks = (schedule.first_forks + (played.look - 1) * schedule.forks_per_look).mean()
        fixed = []
        for n in (3, 12):
            w = welch_rows(draw((paths, n), share), draw((paths, n), share), 1 - ALPHA)
            alarm = ((w.lo > 0) | (w.hi < 0)) & (np.abs(np.expm1(w.diff)) > THETA)
            fixed.append(alarm.mean())
        print(
            f"| {share:.0%} | {rates[0]:.2%} | {rates[1]:.2%} | {rates[2]:.2%} | {fixed[0]:.2%} "
            f"| {fixed[1]:.2%} | {forks:.1f} |"
        )
    clean_splits(rng, paths // 3)


def clean_splits(rng: np.random.Generator, paths: int) -> None:
    """Real changes of 1.3–3× whose forks split cleanly by side (every head fork faster),
    fork sd 1% and 3%: the share decided ``improved`` at the first look (3 forks per side)
    when the change reaches the key, when it does not (held until the occupancy test can
    decide), and without the rule; and the mean forks per side each spent."""
    schedule = DESIGNS[0][0]
    print(
        "\n| change | fork sd | first look, reached | first look, not reached "
        "| first look, no rule | forks/side reached | forks/side not reached |"
    )
    print("|---:|---:|---:|---:|---:|---:|---:|")
    for factor in (1.3, 1.5, 2.0, 2.3, 3.0):
        for sd in (0.01, 0.03):
            simulated = simulate(rng, paths, schedule, 1.0, -math.log(factor), ForkNoise(sd))
            first, forks = [], []
            for rule, reached in ((True, True), (True, False), (False, False)):
                played = play(
                    simulated, 1, schedule, ALPHA, "bh", THETA, bimodal_rule=rule, reached=reached
                )
                first.append(((played.code == seq.LOWER) & (played.look == 1)).mean())
                forks.append(
                    (schedule.first_forks + (played.look - 1) * schedule.forks_per_look).mean()
                )
            print(
                f"| {factor:g}× | {sd:.0%} | {first[0]:.1%} | {first[1]:.1%} | {first[2]:.1%} "
                f"| {forks[0]:.1f} | {forks[1]:.1f} |"
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--paths", type=int, default=20_000)
    parser.add_argument("--bimodal", action="store_true", help="only the bimodal A/A table")
    parser.add_argument(
        "--first-forks", type=int, default=3, help="forks per side at the first look (2 or 3)"
    )
    args = parser.parse_args()
    rng = np.random.default_rng(SEED)
    if args.bimodal:
        bimodal(rng, args.paths * 3)
        return
    started = time.perf_counter()
    for design, futility in DESIGNS:
        schedule = seq.Schedule(design.max_looks, args.first_forks, design.forks_per_look)
        most = schedule.forks_at(schedule.max_looks)
        print(
            f"\nDesign: first look at {schedule.first_forks} forks per side, +"
            f"{schedule.forks_per_look} per look, at most {schedule.max_looks} looks "
            f"({most} forks per side); per-look level "
            f"{float(seq.per_look_level(ALPHA, schedule)):.4g}; futility "
            f"{f'{futility:.0%}' if futility else 'off'}\n"
        )
        print(
            "| change | fork sd | power | mean stop look | mean forks/side | stop at look 1 "
            f"| fixed {most} forks: power |"
        )
        print("|---:|---:|---:|---:|---:|---:|---:|")
        for effect in EFFECTS:
            for sd in SDS:
                paths = simulate(rng, args.paths, schedule, 1.0, math.log1p(effect), ForkNoise(sd))
                played = play(paths, 1, schedule, ALPHA, "bh", THETA, futility)
                # for the A/A row, "power" is the share of false improved/regressed
                wanted = (seq.LOWER, seq.HIGHER) if effect == 0 else (seq.LOWER,)
                improved = np.isin(played.code, wanted)
                stop = played.look
                forks = schedule.first_forks + (stop - 1) * schedule.forks_per_look
                first = ((stop == 1) & improved).mean()
                print(
                    f"| {effect * 100:+.0f}% | {sd * 100:.1f}% | {improved.mean():.1%} "
                    f"| {stop.mean():.2f} | {forks.mean():.1f} "
                    f"| {first:.1%} | {fixed_power(paths, schedule, effect):.1%} |"
                )
    print(f"\n{args.paths} paths per row, seed {SEED}, {time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
