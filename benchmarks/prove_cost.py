"""What each stage of ``perfproof prove`` costs, with the defaults, on a small real project.

Run by hand::

    python3 benchmarks/prove_cost.py [--perfproof SRC] [--skip tests] [--repo PATH]

It writes the project of ``prove_cost_project.py`` (one benchmark, 8 keys, the change removes
an allocation from 4 of them) into a temporary folder unless ``--repo`` names one already
written, uses a fresh perfproof cache (both commits built; Maven's ~/.m2 stays warm) and runs
``perfproof prove --base base --head head`` with the defaults, the perfproof of ``--perfproof``
(a ``src`` folder put first on PYTHONPATH: a worktree of an older commit measures "before").
Any ``--repo``/``--bundle`` run of ``prove`` can be tabled the same way with ``--table BUNDLE``.
It prints, per stage, its wall time, the JMH time its steps ran and their wait for JMH's lock;
for the A/B, the builds too; and the two ratios the issue of this benchmark asks about
(profile / A/B, whole / (A/B + builds)).
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

sys.path.insert(0, str(Path(__file__).resolve().parent))

from prove_cost_project import write_project


def _steps(run_dir: Path) -> tuple[float, float, int]:
    """JMH seconds, lock-wait seconds and step count of every run folder under ``run_dir``."""
    jmh = wait = 0.0
    count = 0
    for manifest in run_dir.rglob("manifest.json"):
        doc = json.loads(manifest.read_text())
        for step in doc.get("steps", []):
            if step.get("status") != "done":
                continue
            count += 1
            jmh += step.get("jmh_seconds") or 0.0
            wait += step.get("lock_wait_s") or 0.0
    return jmh, wait, count


def _builds(run_dir: Path) -> float:
    manifest = run_dir / "manifest.json"
    if not manifest.is_file():
        return 0.0
    doc = json.loads(manifest.read_text())
    return sum((b.get("duration_s") or b.get("seconds") or 0.0) for b in doc.get("builds", []))


def table(bundle: Path, wall: float | None = None) -> str:
    """The stage-by-stage table of one bundle, in Markdown."""
    doc = json.loads((bundle / "prove.json").read_text())
    rows = ["| stage | status | wall s | JMH s (steps) | lock wait s |", "|---|---|---:|---:|---:|"]
    total = 0.0
    for name, entry in doc["stages"].items():
        seconds = entry.get("duration_s") or 0.0
        total += seconds
        folder = bundle / ("profile" if name == "profile" else name)
        jmh, wait, count = _steps(folder) if folder.is_dir() else (0.0, 0.0, 0)
        if name == "ab" and (bundle / "reach").is_dir():
            r = _steps(bundle / "reach")
            jmh, wait, count = jmh + r[0], wait + r[1], count + r[2]
        steps = f"{jmh:.0f} ({count})" if count else "–"
        rows.append(f"| {name} | {entry['status']} | {seconds:.1f} | {steps} | {wait:.0f} |")
    ab = doc["stages"].get("ab", {}).get("duration_s") or 0.0
    profile = doc["stages"].get("profile", {}).get("duration_s") or 0.0
    builds = _builds(bundle / "ab")
    whole = wall if wall is not None else total
    rows.append(f"| builds (inside the A/B) | | {builds:.1f} | | |")
    rows.append(f"| **whole prove** | | **{whole:.0f}** | | |")
    if ab:
        rows.append("")
        rows.append(f"profile / A/B = {profile / ab:.2f}; whole / A/B = {whole / ab:.2f} "
                    f"(the A/B stage's {ab:.0f} s include its builds, {builds:.0f} s)")  # fmt: skip
    return "\n".join(rows)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--perfproof", default=str(Path(__file__).resolve().parents[1] / "src"))
    parser.add_argument("--repo", help="a project already written by prove_cost_project.py")
    parser.add_argument("--skip", action="append", default=[])
    parser.add_argument("--table", help="only print the table of this bundle")
    args = parser.parse_args()
    if args.table:
        print(table(Path(args.table)))
        return 0
    root = Path(tempfile.mkdtemp(prefix="perfproof-prove-cost-"))
    repo = Path(args.repo) if args.repo else write_project(root / "project")
    bundle = root / "bundle"
    path = os.pathsep.join([args.perfproof, os.environ.get("PYTHONPATH", "")])
    env = {**os.environ, "XDG_CACHE_HOME": str(root / "cache"), "PYTHONPATH": path}
    argv = [sys.executable, "-m", "perfproof", "prove", "--repo", str(repo),
            "--base", "base", "--head", "head", "--out", str(bundle)]  # fmt: skip
    for stage in args.skip:
        argv += ["--skip", stage]
    started = time.monotonic()
    code = subprocess.run(argv, env=env, check=False).returncode
    wall = time.monotonic() - started
    print(f"exit {code}; wall {wall:.0f} s on {os.cpu_count()} cores; bundle {bundle}")
    print(table(bundle, wall))
    return code


if __name__ == "__main__":
    sys.exit(main())
