"""Time and peak memory of ``perfproof hunt``'s analysis on a large JFR recording.

The analysis is everything after the recordings exist: the census of each recording (the
profile package's Java helper), charging every stack to its project method, the ranking, the
source index of the recorded program, callers and call-graph walks for the first hypotheses,
and the four output files. It runs in a fresh worker process so peak memory is measured
alone (the worker's own peak RSS plus the helper JVM's).

The recording is the one ``benchmarks/jfr_census.py`` makes (an allocation-heavy program with
varied call paths, ``settings=profile``); its source is put in a git repository of its own so
the hunt has a source index to link hypotheses to. The census alone is timed too, in its own
worker, so the hunt's overhead over the census can be read off; ``jfr_census.py`` compares
that census with ``jfr print --json``.

Usage: python3 benchmarks/hunt_analysis.py [--recording REC.jfr] [--seconds 220] [--keep DIR]
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
import time
from pathlib import Path

from jfr_census import ALLOC_JAVA, _line, _peak_kb, make_recording, worker_perfproof

from perfproof.process import Command, Watch, run


def _source_repo(folder: Path) -> Path:
    """A git repository holding the recorded program's source (the hunt's source index)."""
    repo = folder / "source"
    repo.mkdir(parents=True, exist_ok=True)
    (repo / "Churn.java").write_text(ALLOC_JAVA)
    env = {"GIT_AUTHOR_NAME": "b", "GIT_AUTHOR_EMAIL": "b@x.invalid",
           "GIT_COMMITTER_NAME": "b", "GIT_COMMITTER_EMAIL": "b@x.invalid"}  # fmt: skip
    if not (repo / ".git").exists():
        run(Command(["git", "init", "-q"], cwd=repo), Watch(check=True))
        run(Command(["git", "add", "Churn.java"], cwd=repo), Watch(check=True))
        commit = ["git", "-c", "commit.gpgsign=false", "commit", "-qm", "churn"]
        run(Command(commit, cwd=repo, env=env), Watch(check=True))
    return repo


def worker_hunt(rec: Path, repo: Path) -> dict:
    from perfproof.pipeline.hunt.run import recordings_workload, run_hunt

    out = Path(tempfile.mkdtemp(prefix="hunt-bench-"))
    try:
        start = time.perf_counter()
        outcome = run_hunt(recordings_workload([rec], None), repo, out / "hunt")
        seconds = time.perf_counter() - start
        own, kids = _peak_kb()
        top = [h.method for h in outcome.result.hypotheses[:3]]
    finally:
        shutil.rmtree(out, ignore_errors=True)
    return {"seconds": seconds, "python_kb": own, "jvm_kb": kids, "top": top}


def _measure(args: list[str]) -> dict:
    result = run(Command([sys.executable, __file__, "--worker", *args]),
                 Watch(check=True, what="worker", merge_stderr=False))  # fmt: skip
    return json.loads(result.output.strip().splitlines()[-1])


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--recording", type=Path, help="Use this recording instead of making one.")
    ap.add_argument("--seconds", type=int, default=220, help="How long the program runs.")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--keep", type=Path, help="Make the recording in this folder and keep it.")
    ap.add_argument("--worker", nargs="+", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker:
        kind, rec, *rest = args.worker
        if kind == "hunt":
            doc = worker_hunt(Path(rec), Path(rest[0]))
        else:
            doc = worker_perfproof(Path(rec))
        print(json.dumps(doc))
        return 0
    folder = args.keep or Path(tempfile.mkdtemp(prefix="hunt-bench-"))
    folder.mkdir(parents=True, exist_ok=True)
    rec = args.recording or make_recording(folder, args.seconds, args.threads)
    try:
        mb = rec.stat().st_size / 1e6
        print(f"recording: {rec} ({mb:.1f} MB)")
        if mb < 100:
            print("warning: recording is under 100 MB; raise --seconds", file=sys.stderr)
        repo = _source_repo(folder)
        census = _measure(["census", str(rec)])
        hunt = _measure(["hunt", str(rec), str(repo)])
        print("| job | time | throughput | peak memory |")
        print("|---|---:|---:|---:|")
        print(_line("perfproof profile (census)", mb, census))
        print(_line("perfproof hunt --jfr (whole analysis)", mb, hunt))
        print(f"hunt / census: {hunt['seconds'] / census['seconds']:.2f}x; top: {hunt['top']}")
    finally:
        if args.keep is None:
            shutil.rmtree(folder, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
