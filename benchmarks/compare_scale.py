"""How long ``perfproof compare`` takes on a large suite: 2,000 entries × 10 forks × 10 iterations.

Target: under 2 s for the comparison of two sides (time and bytes/op of every entry, so 4,000
comparisons with diagnostics, power and Holm). Reading the JSON is timed separately, since
it depends on the disk and JSON parser more than on perfproof.

    python3 benchmarks/compare_scale.py [--entries 2000] [--forks 10] [--iterations 10]
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from lab.simulate import hierarchical
from perfproof.compare import CompareOptions, compare_sides
from perfproof.jmh.reader import read_results


def side_file(rng: np.random.Generator, entries: int, forks: int, iterations: int) -> list:
    """A JMH 1.37 result list with a fork random effect (3%) over iteration noise (1%)."""
    out = []
    for i in range(entries):
        level = 50.0 * (1 + i % 17)
        raw = np.array(hierarchical(rng, forks, iterations, level=level))
        alloc = np.full((forks, iterations), 24.0 * (i % 5)) + rng.uniform(0, 0.01, (forks, 1))
        out.append(
            {
                "jmhVersion": "1.37",
                "benchmark": f"bench.Suite{i // 50}.m{i % 50}",
                "mode": "avgt",
                "params": {"size": str(i % 7)},
                "primaryMetric": {
                    "score": float(raw.mean()),
                    "scoreError": 0.0,
                    "scoreUnit": "ns/op",
                    "rawData": raw.tolist(),
                },
                "secondaryMetrics": {
                    "gc.alloc.rate.norm": {
                        "score": float(alloc.mean()),
                        "scoreError": 0.0,
                        "scoreUnit": "B/op",
                        "rawData": alloc.tolist(),
                    }
                },
            }
        )
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entries", type=int, default=2000)
    parser.add_argument("--forks", type=int, default=10)
    parser.add_argument("--iterations", type=int, default=10)
    args = parser.parse_args()
    rng = np.random.default_rng(20240601)
    with tempfile.TemporaryDirectory() as tmp:
        paths = []
        for side in ("base", "head"):
            path = Path(tmp) / f"{side}.json"
            path.write_text(json.dumps(side_file(rng, args.entries, args.forks, args.iterations)))
            paths.append(path)
        t0 = time.perf_counter()
        base = read_results([paths[0]])
        head = read_results([paths[1]])
        t1 = time.perf_counter()
        c1 = time.process_time()
        result = compare_sides(base, head, CompareOptions())
        t2 = time.perf_counter()
        c2 = time.process_time()
    verdicts: dict[str, int] = {}
    for c in result.comparisons:
        verdicts[str(c.verdict)] = verdicts.get(str(c.verdict), 0) + 1
    print(
        f"entries={args.entries} forks={args.forks} iterations={args.iterations} "
        f"comparisons={len(result.comparisons)}"
    )
    print(
        f"read both sides: {t1 - t0:.2f} s; compare: {t2 - t1:.2f} s wall, "
        f"{c2 - c1:.2f} s CPU (target < 2 s)"
    )
    print(f"verdicts: {dict(sorted(verdicts.items()))}")
    return 0 if t2 - t1 < 2.0 else 1


if __name__ == "__main__":
    sys.exit(main())
