"""Stopping rules as a distribution: a recorded suite's forks resampled many times through the
sequential design a run takes (timing-free).

One run of a sequential design is one draw: whether a 1.5× key is decided at round 3 or stopped
for futility at round 4 depends on which forks it happened to get. A fixed-design run of many
rounds (``perfproof ab --rounds 16``) records a pool of forks for every key and side; this
script draws replays from it, feeds each through ``compare.sequential_replay.replay`` (the same
``look``/``judge`` a run uses: Benjamini–Hochberg over the suite, borrowing of the suite's spread,
the bimodal-forks rule with the run's recorded reach, the futility stop) and reports the
distribution:

* share of real-effect keys ``improved`` / stopped for futility / left undecided,
* false verdicts (``improved``/``regressed``) on unchanged keys,
* fork-runs per suite (a key's fork on one side, up to the round it stopped; floor 144 for 24
  keys × 3 rounds × 2 sides),
* the widest bound a futility note gave (the interval the key was shown with), and the rule.

Two ways to resample, because they keep different parts of the noise:

``rounds`` (the default)
    A replay is ``--max-rounds`` of the recorded rounds in a random order, drawn without
    replacement: every key and both sides of a round move together, so the machine-wide drift
    between rounds (all keys of a round slower) and the ABBA pairing inside a round stay as
    recorded. Without replacement, because a fork drawn twice would be a zero-variance pair.
``forks``
    Each key and side draws its forks from its own pool independently: keys become independent
    and the drift between rounds is spread over the forks, as fork-level Welch assumes.

Replays overlap (each uses 10 of the same 16 rounds), so they measure the spread of outcomes
*given this pool*, not across machines.

    python3 benchmarks/futility_replay.py RUN_DIR [--replays 200] [--mode rounds|forks]
        [--unchanged 'read:-20,read:20,...'] [--seed 37]

The unchanged keys (the truth) default to the kryo ``BigDecimalBenchmark`` suite's: read and
write at ``numOfDigits`` ±20 and ``null``, write ``one`` and ``zero``.
"""

from __future__ import annotations

import argparse
import json
import math
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from replay_reach import round_files

from perfproof.compare.sequential_replay import ReplaySettings, read_rounds, replay
from perfproof.model import PRIMARY, SideSamples
from perfproof.model.documents.codec import decode
from perfproof.model.documents.reach import RunReach

UNCHANGED = "read:-20,read:20,read:null,write:-20,write:20,write:null,write:one,write:zero"
MAX_ROUNDS = 10
"""``ab``'s default ``--max-rounds``: 8 looks from round 3."""


@dataclass
class Outcome:
    """One replay of the suite."""

    improved: int
    futile_real: int
    undecided_real: int
    false: int
    fork_runs: int
    bounds: list[float]
    """Each futility note's bound, max(1 − lo, hi − 1) of its interval, in percent."""
    rules: dict[str, int]


def _label(benchmark: str, params: dict[str, str]) -> str:
    return f"{benchmark.rsplit('.', 1)[-1]}:{params.get('numOfDigits', '')}"


def _resampled(
    rounds: list[tuple[SideSamples, SideSamples]], rng: np.random.Generator, mode: str, count: int
) -> list[tuple[SideSamples, SideSamples]]:
    if mode == "rounds":
        return [rounds[i] for i in rng.permutation(len(rounds))[:count]]
    out: list[tuple[SideSamples, SideSamples]] = [({}, {}) for _ in range(count)]
    for side in (0, 1):
        entries = {key.entry() for r in rounds for key in r[side]}
        for entry in entries:
            order = rng.permutation(len(rounds))[:count]
            for k, i in enumerate(order):
                for key, s in rounds[i][side].items():
                    if key.entry() == entry:
                        out[k][side][key] = s
    return out


def _one(
    rounds: list[tuple[SideSamples, SideSamples]], settings: ReplaySettings, unchanged: set[str]
) -> Outcome:
    r = replay(rounds, settings, "pool")
    improved = futile_real = undecided = false = 0
    bounds: list[float] = []
    rules: dict[str, int] = {}
    runs = 0
    for d in r.decisions.values():
        c = next(c for c in d.comparisons if c.key.metric == PRIMARY)
        runs += 2 * (r.stopped_at_round(d) if d.decided else r.rounds)
        look = c.diagnostics.sequential
        futile = bool(look is not None and look.futile)
        real = _label(c.key.benchmark, c.key.params_dict) not in unchanged
        verdict = str(c.verdict)
        if futile:
            lo, hi = c.ratio_ci
            bounds.append(max(1.0 - lo, hi - 1.0) * 100.0)
            rule = getattr(look, "futility_rule", None) or "conditional power"
            rules[rule] = rules.get(rule, 0) + 1
        if real:
            improved += verdict == "improved"
            futile_real += futile
            undecided += verdict == "inconclusive" and not futile
        else:
            false += verdict in ("improved", "regressed")
    return Outcome(improved, futile_real, undecided, false, runs, bounds, rules)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("run", type=Path)
    parser.add_argument("--replays", type=int, default=200)
    parser.add_argument("--mode", choices=("rounds", "forks"), default="rounds")
    parser.add_argument("--max-rounds", type=int, default=MAX_ROUNDS)
    parser.add_argument("--futility", type=float, default=0.05)
    parser.add_argument("--unchanged", default=UNCHANGED)
    parser.add_argument("--seed", type=int, default=37)
    args = parser.parse_args()
    manifest = json.loads((args.run / "manifest.json").read_text())
    with tempfile.TemporaryDirectory() as tmp:
        into = Path(tmp)
        pool = read_rounds(
            round_files(args.run, "base", None, into), round_files(args.run, "head", None, into)
        )
    block = manifest.get("reach")
    known = None if block is None else decode(RunReach, block)
    reach = known.flags() if known is not None else None
    settings = ReplaySettings(futility=args.futility, reach=reach, max_looks=args.max_rounds - 2)
    unchanged = set(args.unchanged.split(","))
    keys = {_label(k.benchmark, k.params_dict) for k in pool[0][0] if k.metric == PRIMARY}
    missing = unchanged - keys
    if missing:
        raise SystemExit(f"unchanged keys not in the run: {sorted(missing)}")
    real = len(keys - unchanged)
    rng = np.random.default_rng(args.seed)
    started = time.perf_counter()
    out = [
        _one(_resampled(pool, rng, args.mode, args.max_rounds), settings, unchanged)
        for _ in range(args.replays)
    ]
    took = time.perf_counter() - started
    runs = np.array([o.fork_runs for o in out])
    widest = np.array([b for o in out for b in o.bounds])
    notes = widest.size
    rules: dict[str, int] = {}
    for o in out:
        for k, v in o.rules.items():
            rules[k] = rules.get(k, 0) + v
    within = int((widest <= 50.0 + 1e-9).sum())
    print(
        f"{args.run}: {len(pool)} recorded rounds, {len(keys)} keys ({real} real effects, "
        f"{len(unchanged)} unchanged); {args.replays} replays of {args.max_rounds} rounds, "
        f"resampling {args.mode}, seed {args.seed}, futility {args.futility:g} ({took:.0f} s)\n"
    )
    print("| figure | mean per replay | over all replays |\n|---|---:|---:|")
    total = real * len(out)
    for name, attr in (
        ("real effects `improved`", "improved"),
        ("real effects stopped for futility", "futile_real"),
        ("real effects undecided after the last look", "undecided_real"),
    ):
        n = sum(getattr(o, attr) for o in out)
        print(f"| {name} | {n / len(out):.2f} of {real} | {n / total:.1%} |")
    false = sum(o.false for o in out)
    print(
        f"| unchanged keys with a verdict | {false / len(out):.2f} of {len(unchanged)} | "
        f"{false / (len(unchanged) * len(out)):.1%} |"
    )
    print(
        f"| fork-runs per suite | {runs.mean():.1f} (p10 {np.percentile(runs, 10):.0f}, median "
        f"{np.median(runs):.0f}, p90 {np.percentile(runs, 90):.0f}) | max {runs.max()} |"
    )
    shown = ", ".join(f"{k} {v}" for k, v in sorted(rules.items())) or "none"
    print(f"| futility notes (rule) | {notes / len(out):.2f} | {shown} |")
    worst = f"{widest.max():.1f}%" if widest.size else "n/a"
    print(
        f"| futility notes bounding the change within ±50% | "
        f"{within}/{notes} | widest bound {worst} |"
    )
    assert math.isfinite(runs.mean())


if __name__ == "__main__":
    main()
