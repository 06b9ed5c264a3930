"""How long the reports of one run take to render: Markdown, HTML (with plots), JSON, check.

A run of ``--entries`` benchmark entries (time and bytes/op, ``--forks`` forks of 5 iterations
per side, the synthetic suite of ``compare_scale.py``) is written as a run folder; each format
is rendered once and timed, then the Markdown is checked against the run with ``perfproof
check``'s engine.
Target: Markdown and JSON well under a second for 50 entries; HTML about 0.2 s per entry
(one fork figure each), so ``ab`` adds seconds, not minutes, to a run.

    python3 benchmarks/report_render.py [--entries 50] [--forks 6]
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

from perfproof.audit.check import check_file
from perfproof.compare import CompareOptions, compare_document, compare_sides
from perfproof.jmh.reader import read_results
from perfproof.report import render


def faster(entries: list, speedup: float) -> list:
    """Every fourth entry's time scaled by ``speedup``: some comparisons improve, most do not."""
    for i, entry in enumerate(entries):
        if i % 4 == 0:
            metric = entry["primaryMetric"]
            metric["rawData"] = [[v * speedup for v in fork] for fork in metric["rawData"]]
            metric["score"] *= speedup
    return entries


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entries", type=int, default=50)
    parser.add_argument("--forks", type=int, default=6)
    args = parser.parse_args()
    rng = np.random.default_rng(20261122)
    with tempfile.TemporaryDirectory() as tmp:
        run = Path(tmp) / "run"
        (run / "jmh").mkdir(parents=True)
        for side, speedup in (("base", 1.0), ("head", 0.9)):
            data = faster(side_file(rng, args.entries, args.forks, 5), speedup)
            (run / "jmh" / f"01-{side}.json").write_text(json.dumps(data))
        base = read_results([run / "jmh" / "01-base.json"])
        head = read_results([run / "jmh" / "01-head.json"])
        doc = compare_document(compare_sides(base, head, CompareOptions()))
        (run / "results.json").write_text(json.dumps(doc))
        timings = {}
        for fmt in ("md", "json", "html"):
            t0 = time.perf_counter()
            text = render(run, fmt)
            timings[fmt] = time.perf_counter() - t0
            (run / f"report.{fmt}").write_text(text)
        t0 = time.perf_counter()
        result = check_file(run / "report.md", run)
        timings["check"] = time.perf_counter() - t0
    print(f"{args.entries} entries × {args.forks} forks per side:")
    for name, seconds in timings.items():
        print(f"  {name:<6} {seconds:6.2f} s")
    print(f"  check: {result.checked} numbers, {len(result.mismatches)} mismatches")
    return 0 if result.ok else 1


if __name__ == "__main__":
    sys.exit(main())
