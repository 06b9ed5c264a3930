"""perfproof's own overhead in an ``ab`` run: wall time minus build time minus JMH time.

Writes the demo project into a temporary repository and runs ``ab`` baseline → feature with the
demo's settings, then splits the wall time using the run manifest (build durations, and each
JMH step's own process time). Whatever remains is perfproof: git worktrees, JMH's benchmark
listing, result checks, manifest writes, the comparison and the report.

    python3 benchmarks/ab_overhead.py            # uses (and fills) the normal build cache
    python3 benchmarks/ab_overhead.py --cold     # a fresh build cache: both sides are built
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path

from perfproof.demo.project import write_demo_repo
from perfproof.demo.run import DEMO_JMH_ARGS, DEMO_MAX_ROUNDS
from perfproof.measure.plan import parse_jmh_args
from perfproof.measure.progress import PlainReporter
from perfproof.model.documents.run import RunManifest
from perfproof.pipeline.ab.run import AbOptions, overhead_seconds, start_ab


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cold", action="store_true", help="use an empty build cache")
    parser.add_argument("--max-rounds", type=int, default=DEMO_MAX_ROUNDS)
    parser.add_argument("--jmh-args", default=DEMO_JMH_ARGS)
    args = parser.parse_args()
    root = Path(tempfile.mkdtemp(prefix="perfproof-overhead-"))
    if args.cold:
        os.environ["XDG_CACHE_HOME"] = str(root / "cache")
    repo = write_demo_repo(root / "project")
    opts = AbOptions(
        base="baseline",
        head="feature",
        repo=str(repo.path),
        max_rounds=args.max_rounds,
        jmh_args=parse_jmh_args(args.jmh_args),
        out=str(root / "run"),
    )
    start = time.monotonic()
    outcome = start_ab(opts, PlainReporter(open(os.devnull, "w")))  # noqa: SIM115
    wall = time.monotonic() - start
    manifest = json.loads((outcome.run_dir / "manifest.json").read_text())
    figures = overhead_seconds(RunManifest.read(manifest, "manifest.json"), wall)
    figures["steps"] = len(manifest["steps"])
    figures["builds_cached"] = [b["cached"] for b in manifest["builds"]]
    json.dump(figures, sys.stdout, indent=2)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
