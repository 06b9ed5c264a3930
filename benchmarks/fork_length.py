"""Which fork length buys the most evidence per minute of machine time?

Runs a few benchmarks of the planted-change project (``ttv_project.py``) with many long forks
and no warm-up (every iteration recorded), then replays shorter designs on the same forks:
the first W iterations of each fork are its warm-up, the next M its measurement. For each
design it reports the spread of fork means between forks (the sd that decides how many forks a
comparison needs), the machine time per fork (iterations plus the measured JVM start), and
the machine time per side to see a 5% change at α = 1% with 80% power:
``n = 2 (z(0.995) + z(0.8))² sd² / log(1.05)²`` forks per side, times the fork time.

    python3 benchmarks/fork_length.py                 # build, run (~4 min on 2 cores), analyse
    python3 benchmarks/fork_length.py --from RUN.json # analyse a recorded run again
"""

from __future__ import annotations

import argparse
import json
import math
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).parent))
from ttv_project import write_project

ITERATION_S = 0.5
ITERATIONS = 16
FORKS = 8
SELECT = r"^ttv\.Kernels\.(crc|search|sumBoxed)$"
DESIGNS = [(2, 2), (2, 4), (3, 3), (3, 4), (4, 4), (4, 6), (6, 6), (6, 10)]
"""(warm-up, measurement) iterations of 0.5 s; (6, 10) is the former default's 3 s + 5 s."""


def run_jmh(out: Path) -> tuple[Path, float]:
    """Build the project's head commit and run the study; returns the JSON and seconds/fork."""
    repo = write_project(out / "project")
    subprocess.run(["mvn", "-q", "-DskipTests", "package"], cwd=repo, check=True)
    result = out / "forks.json"
    argv = ["java", "-jar", str(repo / "target" / "benchmarks.jar"), SELECT,
            "-p", "size=256", "-p", "hit=late", "-f", str(FORKS), "-wi", "0",
            "-i", str(ITERATIONS), "-r", f"{int(ITERATION_S * 1000)}ms",
            "-rf", "json", "-rff", str(result)]  # fmt: skip
    started = time.monotonic()
    subprocess.run(argv, check=True, stdout=subprocess.DEVNULL)
    elapsed = time.monotonic() - started
    entries = len(json.loads(result.read_text()))
    return result, elapsed / (entries * FORKS)


def forks_needed(sd: float, effect: float = 0.05) -> float:
    z = 2.5758 + 0.8416  # two-sided 1% and 80% power
    return 2 * z * z * sd * sd / math.log(1 + effect) ** 2


def analyse(path: Path, fork_s: float) -> list[dict]:
    overhead = max(fork_s - ITERATIONS * ITERATION_S, 0.0)
    rows = []
    for entry in json.loads(path.read_text()):
        raw = np.array(entry["primaryMetric"]["rawData"], dtype=float)
        name = entry["benchmark"].rsplit(".", 1)[1]
        for w, m in DESIGNS:
            means = np.log(raw[:, w : w + m].mean(axis=1))
            sd = float(np.std(means, ddof=1))
            cost = (w + m) * ITERATION_S + overhead
            n = max(forks_needed(sd), 2.0)
            rows.append({"benchmark": name, "warmup": w, "measure": m, "sd_pct": sd * 100,
                         "fork_s": cost, "forks_5pct": n, "machine_s_5pct": n * cost})  # fmt: skip
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--from", dest="source", type=Path, help="a recorded forks.json")
    parser.add_argument("--fork-seconds", type=float, default=9.0,
                        help="measured seconds per 8 s fork, with --from")  # fmt: skip
    args = parser.parse_args()
    if args.source:
        path, fork_s = args.source, args.fork_seconds
    else:
        path, fork_s = run_jmh(Path(tempfile.mkdtemp(prefix="perfproof-forks-")))
    print(f"JVM start and hand-over per fork: {fork_s - ITERATIONS * ITERATION_S:.2f} s")
    print(f"{'benchmark':<10} {'design':>10} {'sd %':>6} {'fork s':>7} {'forks':>6} "
          f"{'machine s':>9}  (per side, to see 5% at α = 1%, 80% power)")  # fmt: skip
    totals: dict[str, float] = {}
    for r in analyse(path, fork_s):
        design = f"{r['warmup']}+{r['measure']}"
        totals[design] = totals.get(design, 0.0) + r["machine_s_5pct"]
        print(f"{r['benchmark']:<10} {design:>10} {r['sd_pct']:6.2f} {r['fork_s']:7.1f} "
              f"{r['forks_5pct']:6.1f} {r['machine_s_5pct']:9.0f}")  # fmt: skip
    print("machine seconds per side over all benchmarks, by design (warm-up + measurement):")
    for design, total in sorted(totals.items(), key=lambda kv: kv[1]):
        print(f"  {design:>5} x {ITERATION_S} s: {total:7.0f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
