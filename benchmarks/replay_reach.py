"""Replay an ``ab`` run's recorded rounds with and without the change's reach (timing-free).

The looks are a pure function of the forks, so replaying a run folder's ``jmh/`` rounds through
the sequential design gives, on real forks, what a run would have decided at each look: here
once with no reach known (as ``perfproof compare --sequential`` on files: the bimodal-forks rule
holds every clean split by side) and once with the reach the run recorded in its manifest before
its first look (as ``perfproof ab`` now does: a clean split on a benchmark the change reaches is
decided at the normal look). It prints, per key, the verdict and the round it stopped at in each
replay, how many keys each decided at the first look, and the fork-runs the replay implies
(both sides, every key up to the round it stopped; a round split into several JMH processes is
joined into one).

    python3 benchmarks/replay_reach.py RUN_DIR [--rounds 3] [--reach all]

``--rounds N`` replays the first N rounds only (a fixed run's rounds hold every key, so the
first three are what a sequential run's first look sees); ``--reach all`` treats every
benchmark as reached (for a run folder written before reach was recorded, when the change is
known to reach them all).
"""

from __future__ import annotations

import argparse
import json
import tempfile
from pathlib import Path

from perfproof.compare.sequential_replay import (
    FIRST_LOOK_FORKS,
    ReplaySettings,
    read_rounds,
    replay,
)
from perfproof.model import PRIMARY
from perfproof.model.documents.codec import decode
from perfproof.model.documents.reach import RunReach


def round_files(run: Path, side: str, rounds: int | None, into: Path) -> list[Path]:
    """One JMH file per round of ``side``: a round that ran several JMH processes (part files
    ``NN-side-K.json``, each with other keys) is joined into one file under ``into``, so the
    replay sees every key of the round, as the run's own looks did."""
    by_round: dict[str, list[Path]] = {}
    for p in sorted(run.glob(f"jmh/*-{side}*.json"), key=lambda p: p.name):
        if p.name.split("-")[1].removesuffix(".json") == side:
            by_round.setdefault(p.name.split("-", 1)[0], []).append(p)
    keep = sorted(by_round)[:rounds] if rounds else sorted(by_round)
    out = []
    for r in keep:
        joined = into / f"{r}-{side}.json"
        entries = [e for part in by_round[r] for e in json.loads(part.read_text())]
        joined.write_text(json.dumps(entries))
        out.append(joined)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("run", type=Path)
    parser.add_argument("--rounds", type=int, default=None)
    parser.add_argument("--reach", choices=("manifest", "all"), default="manifest")
    args = parser.parse_args()
    manifest = json.loads((args.run / "manifest.json").read_text())
    with tempfile.TemporaryDirectory() as tmp:
        into = Path(tmp)
        rounds = read_rounds(
            round_files(args.run, "base", args.rounds, into),
            round_files(args.run, "head", args.rounds, into),
        )
    names = {k.benchmark for b, _ in rounds for k in b}
    if args.reach == "all":
        flags: dict[str, bool] | None = dict.fromkeys(names, True)
    else:
        block = manifest.get("reach")
        known = None if block is None else decode(RunReach, block)
        flags = known.flags() if known is not None else None
    # the run's own design: as many looks as its most rounds allow (the first look at round 3),
    # not as many as the recorded rounds (a run that stopped early would replay a looser design)
    most = (manifest.get("stopping") or {}).get("max_rounds")
    looks = most - FIRST_LOOK_FORKS + 1 if most else None
    results = {}
    for label, reach in (("no reach known", None), ("with reach", flags)):
        settings = ReplaySettings(futility=0.05, reach=reach, max_looks=looks)
        r = replay(rounds, settings, str(args.run))
        results[label] = r
    said = "none recorded" if flags is None else f"{sum(flags.values())} of {len(flags)} reached"
    print(f"run {args.run}: {len(rounds)} round(s) replayed; benchmarks: {said}")
    print(f"\n| key | {' | '.join(results)} |\n|---|" + "---|" * len(results))
    first = dict.fromkeys(results, 0)
    runs = {label: 2 * sum(r.stopped_at_round(d) if d.decided else r.rounds
                           for d in r.decisions.values())
            for label, r in results.items()}  # fmt: skip
    keys = sorted(next(iter(results.values())).decisions)
    for key in keys:
        cells = []
        for label, r in results.items():
            d = r.decisions[key]
            c = next(c for c in d.comparisons if c.key.metric == PRIMARY)
            held = c.diagnostics.fork_groups is not None and c.diagnostics.fork_groups.held
            when = f"r{r.stopped_at_round(d)}" if d.decided else "undecided"
            cells.append(f"{c.verdict} {c.delta_pct:+.1f}% {when}{' (held)' if held else ''}")
            if d.settled and d.look == 1 and str(c.verdict) in ("improved", "regressed"):
                first[label] += 1
        print(f"| {key.label()} | " + " | ".join(cells) + " |")
    print("fork-runs (both sides, up to the round each key stopped): "
          + ", ".join(f"{label} {n}" for label, n in runs.items()))  # fmt: skip
    print("\nimproved/regressed at the first look: "
          + ", ".join(f"{label} {n}" for label, n in first.items()))  # fmt: skip


if __name__ == "__main__":
    main()
