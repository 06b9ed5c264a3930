"""A 24-key suite through the sequential design, timing-free: verdicts, first looks, fork-runs.

The shape of a real serializer suite (16 keys with real effects of 1.3–2.3×, 8 unchanged keys)
drawn as fork means and judged by the same looks a run takes (``stats.sequential.judge``
through ``sequential_sim.play``: Benjamini–Hochberg over the 24 keys, the bimodal-forks rule,
``ab``'s default futility stop at 5%, 10 rounds = 8 looks from 3 forks a side). Changed keys
have tight forks (sd 2% or 3%), so their forks split cleanly by side, as real ones did;
unchanged keys have sd 3% (four) or 15% (four: intervals of ±20–60% at the first look, as on
the real suite). A share of forks is left out as not warmed up and run again next round.

Each suite is judged four times: with the change reaching every key (``ab``/``prove`` with a
diff: a clean split by side is the change), the same with each key's own fork spread only (no
borrowing of the suite's spread, as before ``stats.moderation``), with no reach known
(``compare --sequential`` on files: every clean split is held), and without the bimodal-forks
rule (as before it). ``--fork-sd`` gives every key one spread (kryo's forks: 13%). Printed
per variant: real effects decided ``improved``, false verdicts on unchanged keys
(Benjamini–Hochberg bounds their share among the verdicts, not their number, when most keys
changed), real effects decided at the first look, real effects and unchanged keys stopped by
futility, and
fork-runs (forks of both sides, re-runs included; the floor is
24 keys × 3 forks × 2 sides = 144).

    python3 benchmarks/suite_verdicts.py                 # 2,000 suites, about 1 min
    python3 benchmarks/suite_verdicts.py --suites 500 --left-out 0.15
"""

from __future__ import annotations

import argparse
import math

import numpy as np

from lab.sequential_sim import paths_from_streams, play
from perfproof.stats import sequential as seq
from perfproof.stats.futility import FutilityRule

SCHEDULE = seq.Schedule(8, 3, 1)
"""``ab``'s default: 10 rounds, one fork a side per round, the first look after round 3."""
EFFECTS = np.repeat([1.3, 1.5, 1.7, 1.9, 2.1, 2.3, 1.4, 2.0], 2)
"""16 real effects (head faster by these factors)."""
CHANGED_SD = np.tile([0.02, 0.03], 8)
UNCHANGED_SD = np.array([0.03] * 4 + [0.15] * 4)
SEED = 28


def suites(rng: np.random.Generator, n: int, left_out: float, fork_sd: float | None = None):
    """Fork streams of ``n`` suites, key k of suite s in column s × 24 + k (``fork_sd``: every
    key's log fork sd, in place of the per-key ones)."""
    keys = len(EFFECTS) + len(UNCHANGED_SD)
    shift = np.concatenate([-np.log(EFFECTS), np.zeros(len(UNCHANGED_SD))])
    sd = np.concatenate([CHANGED_SD, UNCHANGED_SD])
    if fork_sd is not None:
        sd = np.full(keys, fork_sd)
    capacity = SCHEDULE.forks_at(SCHEDULE.max_looks) + 12
    streams = []
    for side_shift in (np.zeros(keys), shift):
        values = rng.standard_normal((capacity, n, keys)) * sd + side_shift
        usable = rng.random((capacity, n, keys)) >= left_out
        streams.append((values.reshape(capacity, n * keys), usable.reshape(capacity, n * keys)))
    return streams, keys


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--suites", type=int, default=2000)
    parser.add_argument("--left-out", type=float, default=0.1)
    parser.add_argument("--fork-sd", type=float, default=None,
                        help="every key's sd of log fork means (default: 2-3%% changed, "
                        "3%% or 15%% unchanged)")  # fmt: skip
    parser.add_argument("--bound", type=float, default=None,
                        help="the futility stop's bound on the change (default: 0.5)")  # fmt: skip
    args = parser.parse_args()
    futility = 0.05 if args.bound is None else FutilityRule(0.05, bound=args.bound)
    rng = np.random.default_rng(SEED)
    (base, head), keys = suites(rng, args.suites, args.left_out, args.fork_sd)
    paths = paths_from_streams(base, head, SCHEDULE)
    assert paths.forks is not None
    changed = np.arange(keys) < len(EFFECTS)
    print(
        f"{args.suites} suites of {keys} keys, {args.left_out:.0%} of forks left out; "
        "means per suite\n\n| reach | real effects improved | false verdicts | decided at the "
        "first look (real effects) | real effects stopped by futility | unchanged keys stopped by "
        "futility | fork-runs |\n|---|---:|---:|---:|---:|---:|---:|"
    )
    variants = (
        ("reaches every key", True, True, True),
        ("reaches every key, own spread only (no borrowing)", True, True, False),
        ("not known (held)", True, False, True),
        ("no bimodal-forks rule", False, False, True),
    )
    for label, rule, reached, borrow in variants:
        played = play(
            paths, keys, SCHEDULE, 0.01, "bh", 0.01, futility, bimodal_rule=rule, reached=reached,
            borrow=borrow,
        )  # fmt: skip
        code, look = played.code, played.look
        # forks each side had run at the look a key stopped (re-runs included), both sides
        at = np.clip(look - 1, 0, SCHEDULE.max_looks - 1).reshape(-1)
        rows = np.arange(at.size)
        runs = paths.forks.base_ran[rows, at] + paths.forks.head_ran[rows, at]
        improved = (code[:, changed] == seq.LOWER).sum(axis=1).mean()
        false = np.isin(code[:, ~changed], (seq.LOWER, seq.HIGHER)).sum(axis=1).mean()
        decided = ~np.isin(code, (seq.CONTINUE, seq.FUTILE))
        first = (decided & (look == 1))[:, changed].sum(axis=1).mean()
        futile = (code[:, ~changed] == seq.FUTILE).sum(axis=1).mean()
        lost = (code[:, changed] == seq.FUTILE).sum(axis=1).mean()
        fork_runs = runs.reshape(code.shape).sum(axis=1).mean()
        print(
            f"| {label} | {improved:.2f} of {changed.sum()} | {false:.3f} | {first:.1f} of 16 "
            f"| {lost:.2f} of 16 | {futile:.1f} of {(~changed).sum()} | {fork_runs:.0f} |"
        )
    print(f"\nseed {SEED}; per-look level {float(seq.per_look_level(0.01, SCHEDULE)):.4g}")
    assert math.isfinite(fork_runs)


if __name__ == "__main__":
    main()
