"""Borrowing the fork spread of a suite's other keys: what it would save, and what it breaks.

With 3–6 forks a side, Welch's t on log fork means has 2–10 degrees of freedom, and at the
sequential design's per-look level (about 0.2%, less after Benjamini–Hochberg) its critical
value is 5–10 instead of the normal 3.1: on a suite whose forks spread ±13% (kryo's
``BigDecimalBenchmark``), a 1.5× change needs about six forks a side. The standard remedy for
many features with few replicates is empirical-Bayes moderation of the variances (Smyth 2004,
limma): fit a scaled inverse-χ² prior to all keys' sample variances (d0, s0²) and give each key
the variance (d0·s0² + d·s²)/(d0 + d) with d0 + d degrees of freedom.

Its guarantee is over the prior, not per key: a key noisier than the suite's typical key gets
its spread understated. This script plays the default sequential design (8 looks from 3 forks a
side, Benjamini–Hochberg over 24 keys, futility 5%) on A/A families whose keys differ in
spread, and on a kryo-like suite (16 real 1.3–2.3× effects, every key's log fork sd 13%), with
each key's own spread only (Welch), limma's plain moderation, and perfproof's guarded
borrowing (:mod:`perfproof.stats.moderation`: pulled towards the prior's 90th percentile, never
below a key's own variance, a key noisier than that keeps its own).

    python3 benchmarks/variance_moderation.py            # 3,000 families per row, about 4 min
"""

from __future__ import annotations

import argparse

import numpy as np

from lab.sequential_sim import at_looks, cumulate
from perfproof.stats import moderation, welch_look
from perfproof.stats import sequential as seq
from perfproof.stats.welch import SideMoments, welch_where_tested

SCHEDULE = seq.Schedule(8, 3, 1)
EFFECTS = np.repeat([1.3, 1.5, 1.7, 1.9, 2.1, 2.3, 1.4, 2.0], 2)
SEED = 2811


def look_rows(base, head, keys: int, variant: str) -> welch_look.LookRows:
    """One look of every family (rows) under ``variant``: ``welch`` (each key's own spread),
    ``perfproof`` (:func:`perfproof.stats.moderation.moderate`, the guarded borrowing a run
    uses) or ``limma`` (plain moderation towards the prior's centre, every key)."""
    base, head = (SideMoments(*(a.reshape(-1, keys) for a in side[:3])) for side in (base, head))
    if variant != "limma":
        return welch_look.moments_rows(base, head, borrow=variant == "perfproof")
    sides = []
    for side in (base, head):
        n, v = side.n, side.var
        d0, s0 = moderation.fit_prior(n, v)
        d0, s0 = d0[:, None], np.where(d0 > 0, s0, 0.0)[:, None]
        sides.append(side._replace(var=(d0 * s0 + (n - 1.0) * v) / (d0 + n - 1.0), df=d0 + n - 1.0))
    w, tested = welch_where_tested(sides[0], sides[1])
    return welch_look.LookRows(w.diff, w.se, w.df, w.p_value, tested)


def play(rng: np.random.Generator, families: int, sds: np.ndarray, shift: np.ndarray, variant: str):
    """Codes, looks and fork-runs (both sides) per key of ``families`` suites."""
    keys, capacity = len(sds), SCHEDULE.forks_at(SCHEDULE.max_looks)
    sides = []
    for s in (np.zeros(keys), shift):
        values = (rng.standard_normal((capacity, families, keys)) * sds + s).reshape(capacity, -1)
        sides.append(at_looks(cumulate(values, None), SCHEDULE))
    shape = (families, keys)
    frozen = np.full(shape, np.nan)
    code = np.full(shape, seq.CONTINUE, dtype=np.int8)
    look = np.full(shape, SCHEDULE.max_looks)
    for k in range(SCHEDULE.max_looks):
        rows = look_rows(
            *(SideMoments(m.n[:, k], m.mean[:, k], m.var[:, k]) for m, _ in sides),
            keys=keys,
            variant=variant,
        )
        j = seq.judge(rows, frozen, SCHEDULE, 0.01, "bh", 0.01, k + 1, 0.05)
        newly = np.isnan(frozen) & (j.code != seq.CONTINUE)
        code[newly], look[newly], frozen[newly] = j.code[newly], k + 1, j.seq_p[newly]
    at = np.clip(look - 1, 0, SCHEDULE.max_looks - 1).reshape(-1)
    ran = (sides[0][1] + sides[1][1])[np.arange(at.size), at].reshape(shape)
    return code, look, ran


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--families", type=int, default=3000)
    args = parser.parse_args()
    spread = np.exp(0.5 * np.random.default_rng(5).standard_normal(24))
    aa = {
        "every key sd 13%": np.full(24, 0.13),
        "sd 13% × lognormal(0, 0.5)": 0.13 * spread,
        "one key at 2× the others' sd": np.r_[np.full(23, 0.13), 0.26],
        "one key at 3×": np.r_[np.full(23, 0.13), 0.39],
        "20 keys sd 3%, 4 keys 15%": np.r_[np.full(20, 0.03), np.full(4, 0.15)],
    }
    variants = ("welch", "limma", "perfproof")
    print(f"{args.families} families of 24 keys per cell, seed {SEED}\n")
    print("A/A: share of families with any improved/regressed (α = 1%)\n")
    print("| keys' spread | " + " | ".join(variants) + " |\n|---|" + "---:|" * len(variants))
    rng = np.random.default_rng(SEED)
    for label, sds in aa.items():
        cells = []
        for v in variants:
            code, _, _ = play(rng, args.families, sds, np.zeros(24), v)
            cells.append(f"{np.isin(code, (seq.LOWER, seq.HIGHER)).any(axis=1).mean():.2%}")
        print(f"| {label} | " + " | ".join(cells) + " |")
    print("\nkryo-like suite (16 real 1.3–2.3×, 8 unchanged, every key sd 13%): real effects "
          "decided / at the first look / fork-runs\n")  # fmt: skip
    print("| | " + " | ".join(variants) + " |\n|---|" + "---:|" * len(variants))
    shift = np.r_[np.log(EFFECTS), np.zeros(8)]
    cells = []
    for v in variants:
        code, look, ran = play(rng, args.families, np.full(24, 0.13), shift, v)
        hit = np.isin(code, (seq.LOWER, seq.HIGHER))
        cells.append(
            f"{hit[:, :16].sum(1).mean():.1f} / {(hit & (look == 1))[:, :16].sum(1).mean():.1f}"
            f" / {ran.sum(1).mean():.0f}"
        )
    print("| decided / first look / fork-runs | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
