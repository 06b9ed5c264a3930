"""How long does the call graph take to find the benchmarks a change reaches?

Times what ``prove``'s benchmark stage and ``ab``'s reach do after the diff: open the index of
the head's tree (extracted with ``git archive``, so the repository's checkout is not touched;
warm: a first, untimed opening fills the cache) and walk up from the changed methods to the
``@Benchmark`` methods, both passes (every edge, sure edges only). Prints the tree's size, the
changed methods, the benchmarks reached (directly and only through dispatch) and the median
time of each part over ``--repeat`` runs in this process.

    python3 benchmarks/reach_time.py --repo /path/to/kryo --base 3e7f4991^ --head 3e7f4991
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

from perfproof.code.changes import REMOVED, changed_methods
from perfproof.code.query import open_project
from perfproof.code.reach import affected_benchmarks


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--repo", required=True, type=Path)
    ap.add_argument("--base", required=True)
    ap.add_argument("--head", required=True)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="perfproof-reach-time-") as tmp:
        tree = Path(tmp) / args.repo.name
        tree.mkdir()
        archive = subprocess.run(
            ["git", "-C", str(args.repo), "archive", args.head], check=True, capture_output=True
        ).stdout  # the head's tree, read without touching the repository's checkout
        subprocess.run(["tar", "-x", "-C", str(tree)], input=archive, check=True)
        measure(args, tree)


def measure(args: argparse.Namespace, tree: Path) -> None:
    found = changed_methods(args.repo, args.base, args.head)
    keys = [m.key for m in found.methods if m.kind != REMOVED]
    open_project(tree)  # fill the cache
    opening: list[float] = []
    walking: list[float] = []
    reached = []
    for _ in range(args.repeat):
        began = time.perf_counter()
        project = open_project(tree)
        opened = time.perf_counter()
        reached = affected_benchmarks(project, tree, keys)
        walking.append(time.perf_counter() - opened)
        opening.append(opened - began)
    dispatch = sum(r.via_dispatch for r in reached)
    print(
        f"{args.repo.name}: {len(project.files)} files, {len(keys)} changed methods; "
        f"reached {len(reached)} benchmarks ({len(reached) - dispatch} direct, {dispatch} only "
        f"via dispatch); warm open {statistics.median(opening):.2f} s, "
        f"walk {statistics.median(walking):.2f} s (median of {args.repeat})"
    )


if __name__ == "__main__":
    main()
