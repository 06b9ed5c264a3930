"""How many forks does the warm-up check throw away, and why?

Reads JMH result files (files or run folders' ``jmh/*.json``), judges every fork's primary trace
with the look's own detector (``stats.warmup.unsettled_prefixes``, blind to the side) and counts,
per source:

* forks flagged: a leading run of iterations far from the rest of their own fork;
* lost before: the former rule dropped every flagged fork whole and ran it again;
* lost now: a flagged fork counts with its steady iterations; only one left with fewer than
  ``MIN_STEADY`` would be dropped;
* why: how many leading iterations, and how far they sat from the steady level (median ratio).

    python3 benchmarks/warmup_forks.py /work/real/runs/*/ tests/fixtures/jmh/rounds-*/
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

from perfproof.compare.effects import worse_side
from perfproof.compare.sequential_forks import MIN_STEADY
from perfproof.jmh.reader import read_results
from perfproof.model import PRIMARY
from perfproof.stats.warmup import unsettled_prefixes


def files_of(source: Path) -> list[Path]:
    if source.is_file():
        return [source]
    folder = source / "jmh" if (source / "jmh").is_dir() else source
    return sorted(p for p in folder.glob("*.json") if not p.name.startswith("."))


def judge(files: list[Path]) -> dict[str, object]:
    forks = flagged = lost_now = keys_hit = 0
    keys: set[str] = set()
    prefixes: list[int] = []
    ratios: list[float] = []
    for path in files:
        for key, s in read_results([path]).items():
            if key.metric != PRIMARY or not s.forks:
                continue
            keys.add(key.label())
            cut = unsettled_prefixes(s.forks, worse_side(s))
            hit = False
            for fork, k in zip(s.forks, cut, strict=True):
                forks += 1
                if k == 0:
                    continue
                hit = True
                flagged += 1
                lost_now += int(len(fork) - k < MIN_STEADY)
                prefixes.append(k)
                ratios.append(float(np.mean(fork[:k]) / np.mean(fork[k:])))
            keys_hit += int(hit)
    return {
        "files": len(files),
        "keys": len(keys),
        "forks": forks,
        "flagged": flagged,
        "lost_before": flagged,
        "lost_now": lost_now,
        "key_files_hit": keys_hit,
        "prefix_counts": {k: prefixes.count(k) for k in sorted(set(prefixes))},
        "median_ratio": float(np.median(ratios)) if ratios else None,
    }


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sources", nargs="+", type=Path)
    args = parser.parse_args(argv)
    print("| source | files | keys | forks | flagged | lost before | lost now | leading "
          "iterations (forks) | first / steady level |")  # fmt: skip
    print("|---|---:|---:|---:|---:|---:|---:|---|---:|")
    for source in args.sources:
        files = files_of(source)
        if not files:
            continue
        r = judge(files)
        n = int(r["forks"]) or 1  # type: ignore[call-overload]
        counts = ", ".join(f"{k}: {v}" for k, v in r["prefix_counts"].items())  # type: ignore[attr-defined]
        ratio = f"{r['median_ratio']:.2f}×" if r["median_ratio"] is not None else "-"
        print(
            f"| {source} | {r['files']} | {r['keys']} | {r['forks']} | {r['flagged']} | "
            f"{r['lost_before']} ({100 * int(r['lost_before']) / n:.1f} %) | "  # type: ignore[call-overload]
            f"{r['lost_now']} ({100 * int(r['lost_now']) / n:.1f} %) | {counts or '-'} | {ratio} |"  # type: ignore[call-overload]
        )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
