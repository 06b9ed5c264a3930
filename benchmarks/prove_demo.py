"""Wall time of ``perfproof prove`` on the embedded demo project (baseline → feature).

Run by hand: ``python3 benchmarks/prove_demo.py [--jmh-args ARGS] [--max-rounds N]``. It writes
the demo repository into a temporary folder, uses a fresh perfproof cache (so both commits are
built; Maven's own ~/.m2 stays warm) and runs the chain with the demo's JMH settings. It prints
the wall time of the whole chain and of each stage; the target is under 6 minutes on 2 cores.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def main() -> int:
    from perfproof.demo.project import write_demo_repo
    from perfproof.demo.run import DEMO_JMH_ARGS, DEMO_MAX_ROUNDS

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jmh-args", default=DEMO_JMH_ARGS)
    parser.add_argument("--max-rounds", type=int, default=DEMO_MAX_ROUNDS)
    args = parser.parse_args()
    root = Path(tempfile.mkdtemp(prefix="perfproof-prove-bench-"))
    repo = write_demo_repo(root / "project").path
    env = {**os.environ, "XDG_CACHE_HOME": str(root / "cache")}
    argv = [
        sys.executable, "-m", "perfproof", "prove", "--repo", str(repo),
        "--base", "baseline", "--head", "feature", "--out", str(root / "bundle"),
        "--jmh-args", args.jmh_args, "--max-rounds", str(args.max_rounds),
    ]  # fmt: skip
    started = time.monotonic()
    code = subprocess.run(argv, env=env, check=False).returncode
    wall = time.monotonic() - started
    doc = json.loads((root / "bundle" / "prove.json").read_text())
    print(f"exit {code}; wall {wall:.0f} s on {os.cpu_count()} cores; bundle {root / 'bundle'}")
    for name, entry in doc["stages"].items():
        print(f"  {name:<11} {entry['status']:<8} {entry.get('duration_s', 0):7.1f} s")
    return code


if __name__ == "__main__":
    sys.exit(main())
