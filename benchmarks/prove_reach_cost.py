"""What ``prove``'s recorded reach round costs and pays: ``--reach profile`` (the default)
against ``--reach static`` on the demo project with a dispatch-only benchmark.

Run by hand from the repository root: ``python3 benchmarks/prove_reach_cost.py [--jmh-args A]``.
It writes the demo repository, adds a ``Shape`` interface with two implementations and a
benchmark class with one benchmark that calls ``Square.area`` directly and one that calls
``Shape.area`` on circles only (the call graph reaches it through dynamic dispatch alone), then
changes ``Square.area``. Both settings run on one perfproof cache warmed by a first run (so no
run pays the builds): static, profile, static again. Per run it prints the wall time, the
stages' seconds, the benchmarks and keys the A/B measured and its fork-runs.
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

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def _run(repo: Path, root: Path, base: str, head: str, reach: str, n: int, jmh: str) -> None:
    out = root / f"bundle-{n}-{reach}"
    env = {**os.environ, "XDG_CACHE_HOME": str(root / "cache")}
    argv = [
        sys.executable, "-m", "perfproof", "prove", "--repo", str(repo), "--base", base,
        "--head", head, "--out", str(out), "--jmh-args", jmh, "--reach", reach,
        "--skip", "tests", "--skip", "profile",
    ]  # fmt: skip
    started = time.monotonic()
    code = subprocess.run(argv, env=env, check=False, capture_output=True).returncode
    wall = time.monotonic() - started
    doc = json.loads((out / "prove.json").read_text())
    ab = doc["stages"]["ab"]["result"]
    primary = [c for c in ab.get("comparisons", []) if c.get("metric") == "primary"]
    forks = 0
    for folder in ("ab", "reach"):
        manifest = out / folder / "manifest.json"
        if manifest.is_file():
            steps = json.loads(manifest.read_text())["steps"]
            forks += sum(1 for s in steps if s.get("status") == "done")
    seconds = {k: round(v.get("duration_s", 0.0), 1) for k, v in doc["stages"].items()}
    left = [s["benchmark"] for s in ab.get("left_out", [])]
    print(
        f"{reach:<8} exit {code} wall {wall:6.1f} s; benchmarks "
        f"{sorted({c['benchmark'].rsplit('.', 1)[1] for c in primary})}, keys {len(primary)}, "
        f"JMH steps (A/B + reach round) {forks}, left out {left}; "
        f"stages {seconds}"
    )


def main() -> int:
    from tests.prove.conftest import commit
    from tests.prove.test_prove_reach_profile_jvm import BENCH, CIRCLE, SHAPE, SHAPES, SQUARE

    from perfproof.demo.project import write_demo_repo
    from perfproof.demo.run import DEMO_JMH_ARGS

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jmh-args", default=DEMO_JMH_ARGS)
    args = parser.parse_args()
    root = Path(tempfile.mkdtemp(prefix="perfproof-reach-cost-"))
    repo = write_demo_repo(root / "project").path
    main_dir = "src/main/java/perfdemo/"
    files = {
        main_dir + "Shape.java": SHAPE,
        main_dir + "Square.java": SQUARE % "side * side",
        main_dir + "Circle.java": CIRCLE,
        main_dir + "Shapes.java": SHAPES,
        main_dir + "bench/ShapeBench.java": BENCH,
    }
    base = commit(repo, files, "shapes")
    head = commit(repo, {main_dir + "Square.java": SQUARE % "Math.pow(side, 2)"}, "pow")
    print(f"{os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}; JMH {args.jmh_args}")
    for n, reach in enumerate(("static", "profile", "static")):
        _run(repo, root, base, head, reach, n, args.jmh_args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
