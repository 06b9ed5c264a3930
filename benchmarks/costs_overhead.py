"""What perfproof's off-heap profiler costs a timing fork: the same benchmarks with and without it.

perfproof's rule is that a timing fork carries no profiler that changes what it measures; the
off-heap profiler (``perfproof.measure.offheap``: a java agent that adds one counter call to
``Bits.reserveMemory`` and ``Unsafe.allocateMemory``, and a JMH profiler reading the counters
between iterations) runs in the timing forks only because this measures its cost to be lost
in the noise. The project is ``costs_project.py``'s baseline commit: ``FrameBench.frame``
allocates a 10 KiB direct buffer per call (the one path the agent touches), ``InlineBench.sum``
and ``InlineBench.emptyRange`` allocate nothing (the agent's other cost: being loaded at all).

Rounds alternate ``with`` and ``without`` in ABBA order, one fork each with ``ab``'s default
settings (``-f 1 -wi 3 -w 500ms -i 4 -r 500ms -prof gc``), every JMH process waiting its turn at
JMH's lock; the sides are compared as ``perfproof compare`` compares them (Welch on log fork
means), "with" as the feature. Prints, per key, Δ% with its 99% interval.

    /work/bin/measure python3 benchmarks/costs_overhead.py --rounds 8
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from costs_project import write_project

from perfproof.compare import CompareOptions, compare_sides
from perfproof.env.java import find_java
from perfproof.jmh.reader import read_results
from perfproof.measure import lock, lock_queue
from perfproof.measure.offheap import offheap_helper
from perfproof.model import PRIMARY
from perfproof.model.enums import Family
from perfproof.workspace.artifact import Artifact

JMH = ["-f", "1", "-wi", "3", "-w", "500ms", "-i", "4", "-r", "500ms", "-prof", "gc"]


def _in_turn(argv: list[str]) -> None:
    path = lock.lock_path_for()
    ticket = lock_queue.take(path, "costs_overhead.py")
    try:
        while ticket is not None and lock_queue.ahead(ticket):
            time.sleep(0.5)
        if ticket is not None:
            ticket = lock_queue.start(ticket)
        while True:
            lock.wait_for_lock(path, 3600, on_wait=lambda _t: None)
            done = subprocess.run(argv, capture_output=True, text=True)
            if not lock.refused_by_lock(done.stdout + done.stderr):
                if done.returncode:
                    sys.exit(done.stdout[-2000:] + done.stderr[-2000:])
                return
            time.sleep(1.0)
    finally:
        lock_queue.release(ticket)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=8, help="rounds of both sides (ABBA)")
    parser.add_argument(
        "--code",
        action="store_true",
        help="instead of timing, compare the C2 code the JIT made of each benchmark's measured "
        "loop and of the project's methods, with and without the profiler (one recorded fork each)",
    )
    args = parser.parse_args()
    root = Path(tempfile.mkdtemp(prefix="perfproof-costs-overhead-"))
    repo = write_project(root / "project")
    subprocess.run(["git", "checkout", "-q", "base"], cwd=repo, check=True)
    subprocess.run(["mvn", "-q", "-B", "package", "-DskipTests"], cwd=repo, check=True)
    jar = repo / "target" / "benchmarks.jar"
    artifact = Artifact("base", "maven", jar, [], [], repo, False, None)
    java = find_java(None)
    helper = offheap_helper(artifact, java)
    if isinstance(helper, str):
        sys.exit(helper)
    plain = artifact.jmh_argv(str(java))
    profiled = [*artifact.jmh_argv(str(java), [helper.jar]), *helper.jmh_args()]
    if args.code:
        return _code(root, java, plain, profiled)
    files: dict[str, list[Path]] = {"without": [], "with": []}
    for r in range(args.rounds):
        order = ("without", "with") if r % 2 == 0 else ("with", "without")
        for side in order:
            out = root / f"{r + 1:02d}-{side}.json"
            launcher = profiled if side == "with" else plain
            _in_turn([*launcher, "costs.", *JMH, "-rf", "json", "-rff", str(out)])
            files[side].append(out)
            print(f"round {r + 1} {side} done", file=sys.stderr)
    result = compare_sides(
        read_results(files["without"]),
        read_results(files["with"]),
        CompareOptions(family=Family.NONE),
    )
    for c in result.comparisons:
        if c.key.metric == PRIMARY:
            lo, hi = c.delta_ci_pct
            print(
                f"{c.key.benchmark}: without {c.base.value:.4g} ns/op, with {c.head.value:.4g} "
                f"ns/op, Δ {c.delta_pct:+.2f}% [{lo:+.2f}, {hi:+.2f}] ({c.verdict}, "
                f"{c.base.forks}+{c.head.forks} forks)"
            )
    return 0


def _code(root: Path, java: Path, plain: list[str], profiled: list[str]) -> int:
    """The size of every C2 (tier 4) compilation of the project's and JMH's generated methods
    in one recorded fork per benchmark, with and without the profiler: equal code means the
    measured loop is the same machine code, whatever the noise of the machine."""
    from perfproof.env.java import java_info
    from perfproof.measure.jfr_args import jit_settings
    from perfproof.profile.jdk import run_helper

    settings = jit_settings(java_info(str(java)).home)
    sizes: dict[str, dict[str, int]] = {}
    for side, launcher in (("without", plain), ("with", profiled)):
        folder = root / f"jfr-{side}"
        folder.mkdir()
        option = f"-XX:StartFlightRecording=filename={folder}/,settings={settings}"
        _in_turn([*launcher, "costs.", *JMH, "-jvmArgsAppend", option])
        lines: list[str] = []
        run_helper(java, sorted(folder.glob("*.jfr")), lines.append, "JfrJit", ("costs",))
        found = sizes.setdefault(side, {})
        for line in lines:
            kind, *rest = line.split("\t")
            if (
                kind == "C"
                and rest[1].startswith("costs.")
                and rest[2] == "4"
                and rest[4] == "true"
            ):
                name = rest[1].split("(")[0] + (" (OSR)" if rest[3] == "true" else "")
                found[name] = max(found.get(name, 0), int(rest[5]))
    for name in sorted(set(sizes["without"]) | set(sizes["with"])):
        a, b = sizes["without"].get(name), sizes["with"].get(name)
        print(f"{name}: {a} B without, {b} B with{'' if a == b else '  <- differs'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
