"""How ``perfproof check`` scales with the size of the PR body: it must be linear.

A run of ``--entries`` benchmark entries (the synthetic suite of ``compare_scale.py``) is
written as a run folder and rendered as Markdown; PR bodies of growing size are made by
repeating that report (tables, prose, JMH console blocks) and, separately, as one single
line of prose quoting numbers (a body with no line breaks at all). Each body is checked once
and timed; the seconds per MB should stay flat as the body grows.
Target: about a second per MB, and the largest body no slower per MB than the smallest. CPU
seconds are printed beside wall seconds: on a busy machine the wall clock measures the others.

    python3 benchmarks/check_scale.py [--entries 50] [--sizes 0.25,0.5,1,2,4]
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
from compare_scale import side_file  # the same synthetic suite as the compare benchmark

from perfproof.audit.check import check_text
from perfproof.compare import CompareOptions, compare_document, compare_sides
from perfproof.jmh.reader import read_results
from perfproof.report import render
from perfproof.report.rundir import load_run


def make_run(folder: Path, entries: int, rng: np.random.Generator) -> Path:
    run = folder / "run"
    (run / "jmh").mkdir(parents=True)
    for side, speedup in (("base", 1.0), ("head", 0.9)):
        data = side_file(rng, entries, 4, 5)
        for e in data[::4]:
            m = e["primaryMetric"]
            m["rawData"] = [[v * speedup for v in fork] for fork in m["rawData"]]
            m["score"] *= speedup
        (run / "jmh" / f"01-{side}.json").write_text(json.dumps(data))
    base = read_results([run / "jmh" / "01-base.json"])
    head = read_results([run / "jmh" / "01-head.json"])
    (run / "results.json").write_text(
        json.dumps(compare_document(compare_sides(base, head, CompareOptions())))
    )
    return run


def one_line(report: str, size: int) -> str:
    """The report's prose numbers joined into one line with no break, ``size`` bytes long."""
    words = "Results: " + " ".join(report.split())
    return (words * (size // len(words) + 1))[:size]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entries", type=int, default=50)
    parser.add_argument("--sizes", default="0.25,0.5,1,2,4", help="body sizes in MB")
    args = parser.parse_args()
    rng = np.random.default_rng(20261124)
    with tempfile.TemporaryDirectory() as tmp:
        run_dir = make_run(Path(tmp), args.entries, rng)
        report = render(run_dir, "md")
        run = load_run(run_dir)
        print(f"run of {args.entries} entries; report {len(report.encode()) / 1e3:.0f} KB")
        print(f"{'body':<10} {'MB':>6} {'numbers':>9} {'wall s':>7} {'CPU s':>6} {'CPU s/MB':>8}")
        for shape in ("report", "one-line"):
            for mb in (float(x) for x in args.sizes.split(",")):
                size = int(mb * 1e6)
                if shape == "report":
                    body = "\n\n".join([report] * (size // len(report) + 1))[:size]
                else:
                    body = one_line(report, size)
                t0, c0 = time.perf_counter(), time.process_time()
                result = check_text(body, run)
                wall, cpu = time.perf_counter() - t0, time.process_time() - c0
                real = len(body.encode()) / 1e6
                print(
                    f"{shape:<10} {real:6.2f} {result.checked:9,d} {wall:7.2f} {cpu:6.2f} "
                    f"{cpu / real:8.2f}"
                )
    return 0


if __name__ == "__main__":
    sys.exit(main())
