"""Time to verdict: the sequential design against the fixed design on a real Maven/JMH project.

Writes the planted-change project (``ttv_project.py``: eight benchmark × @Param keys, four with
a large planted change, two with identical code, two whose code head touched) into a temporary
git repository and runs ``perfproof ab base → head`` twice with the same fork length: once with
the default sequential design (``--max-rounds N``: a key stops when its verdict is in) and
once with the fixed design (``--rounds N``: every key in every round). It prints the machine
time of measurement (the JMH processes' own time, from each run's manifest) and the verdicts
side by side, then checks:

- the sequential run takes at least 3× less machine time;
- the keys with a planted change get the same verdict in both runs, ``improved``, with an
  interval that agrees (entirely on the improved side, as the verdict says);
- no key whose code is identical on both commits is ever ``improved`` or ``regressed`` (keys
  whose code head touched without a planted effect are reported, not checked).

    python3 benchmarks/time_to_verdict.py                 # about 15 minutes on 2 cores
    python3 benchmarks/time_to_verdict.py --max-rounds 8 --jmh-args "-wi 3 -w 500ms -i 4 -r 500ms"
"""

from __future__ import annotations

import argparse
import io
import json
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from ttv_project import PLANTED, write_project

from perfproof.defaults import MAX_ROUNDS
from perfproof.measure.plan import parse_jmh_args
from perfproof.measure.progress import PlainReporter
from perfproof.pipeline.ab.run import AbOptions, resume_ab, start_ab


def run(repo: Path, out: Path, *, adaptive: bool, rounds: int, jmh_args: str | None) -> dict:
    opts = AbOptions(
        base="base",
        head="head",
        repo=str(repo),
        rounds=None if adaptive else rounds,
        max_rounds=rounds if adaptive else None,
        jmh_args=parse_jmh_args(jmh_args),
        out=str(out),
    )
    log = io.StringIO()
    started = time.monotonic()
    try:
        outcome = start_ab(opts, PlainReporter(log))
    except Exception as exc:  # a failed report step: finish from the forks on disk
        print(f"{out.name}: {exc.__class__.__name__}: {exc}; resuming", file=sys.stderr)
        outcome = resume_ab(out, PlainReporter(log))
    wall = time.monotonic() - started
    manifest = json.loads((outcome.run_dir / "manifest.json").read_text())
    jmh_s = sum(float(s.get("jmh_seconds") or 0.0) for s in manifest["steps"])
    stopped = {e["key"]: e.get("stopped_round") for e in manifest["stopping"]["keys"]}
    rows = {}
    results = json.loads((outcome.run_dir / "results.json").read_text())
    for c in results["comparisons"]:
        if c["metric"] != "primary":
            continue
        params = ", ".join(f"{k}={v}" for k, v in sorted(c["params"].items()))
        label = c["benchmark"].split(".", 1)[1] + (f"({params})" if params else "")
        full = c["benchmark"] + (f"({params})" if params else "")
        rows[label] = {**c, "stopped_round": stopped.get(full)}
    return {"jmh_s": jmh_s, "wall_s": wall, "steps": len(manifest["steps"]), "rows": rows,
            "run_dir": str(outcome.run_dir), "rounds": manifest["plan"]["rounds"],
            "ended": manifest["stopping"]["ended"]}  # fmt: skip


def cell(c: dict | None) -> str:
    if c is None:
        return "missing"
    lo, hi = c["delta_ci_pct"]
    fmt = lambda x: "∞" if x is None else f"{x:+.1f}"  # noqa: E731
    return f"{c['verdict']:<12} {c['delta_pct']:+7.1f}% [{fmt(lo)}, {fmt(hi)}]"


def agrees(c: dict) -> bool:
    """An improved verdict whose interval lies entirely on the improved side."""
    lo, hi = c["delta_ci_pct"]
    if c["verdict"] != "improved" or lo is None or hi is None:
        return False
    return hi < 0 if c["direction"] == "lower" else lo > 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--max-rounds",
        type=int,
        default=MAX_ROUNDS,
        help="rounds of the fixed design = most rounds of the sequential one",
    )
    parser.add_argument("--jmh-args", default=None, help="JMH options for both runs")
    args = parser.parse_args()  # fmt: skip
    root = Path(tempfile.mkdtemp(prefix="perfproof-ttv-"))
    repo = write_project(root / "project")
    print(f"project: {repo}", flush=True)
    adaptive = run(repo, root / "adaptive", adaptive=True, rounds=args.max_rounds,
                   jmh_args=args.jmh_args)  # fmt: skip
    fixed = run(repo, root / "fixed", adaptive=False, rounds=args.max_rounds,
                jmh_args=args.jmh_args)  # fmt: skip
    print(f"\n{'key':<38} {'change':<10} {'sequential (round stopped)':<50} fixed")
    failures = []
    for label, change in PLANTED.items():
        a, f = adaptive["rows"].get(label), fixed["rows"].get(label)
        stop = f"r{a['stopped_round']}" if a and a["stopped_round"] else "-"
        print(f"{label:<38} {change:<10} {cell(a):<44} {stop:>4}  {cell(f)}")
        for name, c in (("sequential", a), ("fixed", f)):
            if c is None:
                failures.append(f"{label}: no {name} result")
            elif change == "planted" and not agrees(c):
                failures.append(f"{label}: planted change not improved with an agreeing "
                                f"interval in the {name} run")  # fmt: skip
            elif change == "identical" and c["verdict"] in ("improved", "regressed"):
                failures.append(f"{label}: {c['verdict']} on identical code ({name})")
    ratio = fixed["jmh_s"] / adaptive["jmh_s"] if adaptive["jmh_s"] else float("inf")
    print(f"\nmachine time of measurement: sequential {adaptive['jmh_s']:.0f} s "
          f"({adaptive['steps']} JMH steps, ended: {adaptive['ended']}), fixed "
          f"{fixed['jmh_s']:.0f} s ({fixed['steps']} steps, {fixed['rounds']} rounds): "
          f"{ratio:.2f}x less")  # fmt: skip
    print(f"wall clock: sequential {adaptive['wall_s']:.0f} s, fixed {fixed['wall_s']:.0f} s")
    print(f"run folders: {adaptive['run_dir']}  {fixed['run_dir']}")
    if ratio < 3.0:
        failures.append(f"machine time only {ratio:.2f}x less (target 3x)")
    for line in failures:
        print(f"FAIL {line}")
    print("PASS" if not failures else f"{len(failures)} target(s) missed")
    return 0 if not failures else 1


if __name__ == "__main__":
    sys.exit(main())
