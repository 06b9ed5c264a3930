"""How long the reports of one run take to render and how much they weigh: Markdown, HTML (with
plots), JSON, check.

A run of ``--entries`` benchmark entries (time and bytes/op, ``--forks`` forks of 5 iterations
per side, the synthetic suite of ``compare_scale.py``) is written as a run folder, or
``--run DIR`` renders a copy of a real run folder; each format is rendered once in a fresh
process (the imports it needs count: that is what ``perfproof report`` pays), timed in CPU
seconds of that process and weighed in bytes, then the Markdown is checked against the run with
``perfproof check``'s engine.
Target: report.html of 50 entries ≤ 1 MB and ≤ 5 s of CPU; a 24-key real run's ≤ 1 MB and
≤ 10 s of CPU on the shared 2-core machine.

    python3 benchmarks/report_render.py [--entries 50] [--forks 6]
    python3 benchmarks/report_render.py --run /path/to/run-folder
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
from compare_scale import side_file  # the same synthetic suite as the compare benchmark

from perfproof.audit.check import check_file
from perfproof.compare import CompareOptions, compare_document, compare_sides
from perfproof.jmh.reader import read_results

ONE_FORMAT = """
import sys, time
from pathlib import Path
start = time.process_time()
from perfproof.report import render
text = render(sys.argv[1], sys.argv[2])
Path(sys.argv[3]).write_text(text, encoding="utf-8")
print(time.process_time() - start)
"""
"""Render one format in a process of its own and print the CPU seconds it took."""


def faster(entries: list, speedup: float) -> list:
    """Every fourth entry's time scaled by ``speedup``: some comparisons improve, most do not."""
    for i, entry in enumerate(entries):
        if i % 4 == 0:
            metric = entry["primaryMetric"]
            metric["rawData"] = [[v * speedup for v in fork] for fork in metric["rawData"]]
            metric["score"] *= speedup
    return entries


def synthetic_run(run: Path, entries: int, forks: int) -> None:
    rng = np.random.default_rng(20261122)
    (run / "jmh").mkdir(parents=True)
    for side, speedup in (("base", 1.0), ("head", 0.9)):
        data = faster(side_file(rng, entries, forks, 5), speedup)
        (run / "jmh" / f"01-{side}.json").write_text(json.dumps(data))
    base = read_results([run / "jmh" / "01-base.json"])
    head = read_results([run / "jmh" / "01-head.json"])
    doc = compare_document(compare_sides(base, head, CompareOptions()))
    (run / "results.json").write_text(json.dumps(doc))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entries", type=int, default=50)
    parser.add_argument("--forks", type=int, default=6)
    parser.add_argument("--run", type=Path, help="render a copy of this run folder instead")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        run = Path(tmp) / "run"
        if args.run is not None:
            shutil.copytree(args.run, run)
            what = f"{args.run.name} (a copy)"
        else:
            synthetic_run(run, args.entries, args.forks)
            what = f"{args.entries} entries × {args.forks} forks per side"
        rows = []
        for fmt in ("md", "json", "html"):
            out = run / f"report.{fmt}"
            t0 = time.perf_counter()
            done = subprocess.run(
                [sys.executable, "-c", ONE_FORMAT, str(run), fmt, str(out)],
                check=True,
                capture_output=True,
                text=True,
            )
            wall = time.perf_counter() - t0
            rows.append((fmt, float(done.stdout.strip()), wall, out.stat().st_size))
        t0 = time.process_time()
        result = check_file(run / "report.md", run)
        check_cpu = time.process_time() - t0
    print(what + ":")
    print(f"  {'format':<6} {'CPU s':>7} {'wall s':>7} {'bytes':>11}")
    for fmt, cpu, wall, size in rows:
        print(f"  {fmt:<6} {cpu:7.2f} {wall:7.2f} {size:11,}")
    mismatches = len(result.mismatches)
    print(f"  check: {result.checked} numbers, {mismatches} mismatches, {check_cpu:.2f} s CPU")
    return 0 if result.ok else 1


if __name__ == "__main__":
    sys.exit(main())
