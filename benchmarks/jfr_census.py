"""Census throughput and peak memory on a large JFR recording, against `jfr print --json`.

Makes (or reuses) an allocation-heavy recording of at least 100 MB, then reads it twice, each
in a fresh worker process so peak memory is measured alone:

- perfproof: ``perfproof.profile.api.run_census`` (Java helper streaming events + Python);
- baseline: ``jfr print --json --stack-depth 64 REC`` piped into Python, which parses every
  event object with ``json.loads`` as it arrives (a whole-document ``json.load`` would need
  tens of GB for this recording).

Peak memory is the helper or ``jfr`` JVM's peak RSS plus the Python worker's own peak RSS.
The recording uses ``settings=profile`` as it is; a small young generation makes the
program collect garbage often, which fills the recording with GC and promotion events the way
a busy service does, and gets it past 100 MB in a couple of minutes.

Usage: python3 benchmarks/jfr_census.py [--recording REC.jfr] [--seconds 60] [--keep DIR]
"""

from __future__ import annotations

import argparse
import json
import re
import resource
import shutil
import sys
import tempfile
import time
from pathlib import Path

from perfproof.process import Command, Watch, command_line, run

ALLOC_JAVA = """\
import java.util.*;

public final class Churn {
    static volatile Object sink;

    // varied call paths and depths so the recording holds many distinct stacks
    static Object build(int kind, int depth, Random r) {
        if (depth > 0) {
            return (depth & 1) == 0 ? even(kind, depth - 1, r) : odd(kind, depth - 1, r);
        }
        switch (kind) {
            case 0: return new byte[64 + r.nextInt(512)];
            case 1: {
                List<Integer> l = new ArrayList<>();
                for (int i = 0; i < 24; i++) l.add(i * 1000);
                return l;
            }
            case 2: return String.valueOf(r.nextLong()) + "-" + r.nextInt();
            case 3: {
                Map<String, Integer> m = new HashMap<>();
                m.put("k" + r.nextInt(100), 1);
                return m;
            }
            default: return Arrays.copyOf(new long[8], 64);
        }
    }
    static Object even(int kind, int depth, Random r) { return build(kind, depth, r); }
    static Object odd(int kind, int depth, Random r) { return build(kind, depth, r); }

    public static void main(String[] args) throws Exception {
        // survivors: a ring of recent objects that outlive a few young collections, so the
        // collector promotes (what a cache or a queue does in a real service)
        final Object[] ring = new Object[1 << 18];
        long until = System.nanoTime() + Long.parseLong(args[0]) * 1_000_000_000L;
        int threads = Integer.parseInt(args[1]);
        List<Thread> ts = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            final int seed = t;
            Thread th = new Thread(() -> {
                Random r = new Random(seed);
                int slot = seed;
                while (System.nanoTime() < until) {
                    for (int i = 0; i < 10_000; i++) {
                        Object o = build(r.nextInt(5), r.nextInt(24), r);
                        if ((i & 7) == 0) {
                            ring[slot & (ring.length - 1)] = o;
                            slot += 2;
                        } else {
                            sink = o;
                        }
                    }
                }
            }, "churn-" + t);
            th.start();
            ts.add(th);
        }
        for (Thread th : ts) th.join();
    }
}
"""


def _peak_kb() -> tuple[int, int]:
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    kids = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return own, kids


def worker_perfproof(rec: Path) -> dict:
    from perfproof.profile.api import run_census

    start = time.perf_counter()
    census, _ = run_census([rec], ("Churn",))
    seconds = time.perf_counter() - start
    own, kids = _peak_kb()
    return {
        "seconds": seconds,
        "python_kb": own,
        "jvm_kb": kids,
        "events": len(census.alloc) + len(census.cpu),
        "alloc_bytes": census.alloc_bytes,
        "cpu_samples": census.cpu_samples,
    }


class EventArrayParser:
    """Parses the objects of ``"events": [...]`` one by one as the text arrives.

    ``jfr print --json`` writes one document; loading it whole would need many times the
    recording's size in memory, so the baseline parses each event with ``raw_decode`` as soon
    as it is complete and keeps only the unparsed tail.
    """

    def __init__(self) -> None:
        self.decoder = json.JSONDecoder()
        self.parts: list[str] = []
        self.pending = 0
        self.buf = ""
        self.started = False
        self.events = 0

    def feed(self, line: str) -> None:
        self.parts.append(line)
        self.parts.append("\n")
        self.pending += len(line) + 1
        if self.pending >= 1 << 20:
            self.drain()

    def drain(self) -> None:
        self.buf += "".join(self.parts)
        self.parts.clear()
        self.pending = 0
        if not self.started:
            i = self.buf.find('"events": [')
            if i < 0:
                return
            self.buf = self.buf[i + len('"events": [') :]
            self.started = True
        buf, pos, n = self.buf, 0, len(self.buf)
        while True:
            while pos < n and buf[pos] in " \t\r\n,":
                pos += 1
            if pos >= n or buf[pos] == "]":
                break
            try:
                _event, pos = self.decoder.raw_decode(buf, pos)
            except json.JSONDecodeError:
                break
            self.events += 1
        self.buf = buf[pos:]


def worker_jfr_print(rec: Path, events: str | None) -> dict:
    jfr = shutil.which("jfr")
    if jfr is None:
        raise SystemExit("jfr not on PATH")
    parser = EventArrayParser()
    argv = [jfr, "print", "--json", "--stack-depth", "64"]
    if events:
        argv += ["--events", events]
    start = time.perf_counter()
    watch = Watch(
        on_line=parser.feed, capture=False, merge_stderr=False, check=True, what="jfr print"
    )
    run(Command([*argv, str(rec)]), watch)
    parser.drain()
    if not re.fullmatch(r"\s*\]\s*\}\s*\}\s*", parser.buf):
        raise SystemExit(f"unparsed tail: {parser.buf[:200]!r}")
    seconds = time.perf_counter() - start
    own, kids = _peak_kb()
    return {"seconds": seconds, "python_kb": own, "jvm_kb": kids, "events": parser.events}


def make_recording(folder: Path, seconds: int, threads: int) -> Path:
    src = folder / "Churn.java"
    src.write_text(ALLOC_JAVA)
    run(Command(["javac", "-d", str(folder), str(src)]), Watch(check=True, what="javac"))
    rec = folder / "churn.jfr"
    # a small young generation makes many collections, each with its GC and promotion events
    argv = ["java", "-Xmx1g", "-Xmn8m", "-XX:+UseG1GC",
            f"-XX:StartFlightRecording=filename={rec},settings=profile,maxsize=0",
            "-cp", str(folder), "Churn", str(seconds), str(threads)]  # fmt: skip
    print("recording:", command_line(argv), file=sys.stderr)
    run(Command(argv), Watch(check=True, what="java Churn", capture=False))
    return rec


CENSUS_EVENTS = "jdk.ExecutionSample,jdk.ObjectAllocationSample"


def _measure(which: str, rec: Path) -> dict:
    result = run(Command([sys.executable, __file__, "--worker", which, str(rec)]),
                 Watch(check=True, what=f"{which} worker", merge_stderr=False))  # fmt: skip
    return json.loads(result.output.strip().splitlines()[-1])


def _line(name: str, mb: float, r: dict) -> str:
    peak = (r["python_kb"] + r["jvm_kb"]) / 1024
    return (
        f"| {name} | {r['seconds']:.1f} s | {mb / r['seconds']:.1f} MB/s | {peak:.0f} MiB "
        f"(Python {r['python_kb'] / 1024:.0f} + JVM {r['jvm_kb'] / 1024:.0f}) |"
    )


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--recording", type=Path, help="Use this recording instead of making one.")
    ap.add_argument("--seconds", type=int, default=220, help="How long the program runs.")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--keep", type=Path, help="Make the recording in this folder and keep it.")
    ap.add_argument("--worker", nargs=2, metavar=("KIND", "REC"), help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker:
        kind, rec = args.worker
        if kind == "perfproof":
            doc = worker_perfproof(Path(rec))
        else:
            doc = worker_jfr_print(Path(rec), CENSUS_EVENTS if kind == "jfr-print-census" else None)
        print(json.dumps(doc))
        return 0
    tmp = None
    rec = args.recording
    if rec is None:
        folder = args.keep or Path(tempfile.mkdtemp(prefix="jfr-census-"))
        folder.mkdir(parents=True, exist_ok=True)
        tmp = None if args.keep else folder
        rec = make_recording(folder, args.seconds, args.threads)
    try:
        mb = rec.stat().st_size / 1e6
        print(f"recording: {rec} ({mb:.1f} MB)")
        if mb < 100:
            print("warning: recording is under 100 MB; raise --seconds", file=sys.stderr)
        ours = _measure("perfproof", rec)
        full = _measure("jfr-print", rec)
        only = _measure("jfr-print-census", rec)
        print("| reader | time | throughput | peak memory |")
        print("|---|---:|---:|---:|")
        print(_line("perfproof profile (census)", mb, ours))
        print(_line("jfr print --json --stack-depth 64, parsed", mb, full))
        print(_line(f"same, --events {CENSUS_EVENTS}", mb, only))
        print(f"speed-up: {full['seconds'] / ours['seconds']:.1f}x over the full print "
              f"({full['events']} events parsed), {only['seconds'] / ours['seconds']:.1f}x over "
              f"the print of the census's own event types ({only['events']} events)")  # fmt: skip
    finally:
        if tmp is not None:
            shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
