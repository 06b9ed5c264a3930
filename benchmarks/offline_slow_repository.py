"""What Maven's ``-o`` saves when the remote repository is slow: the build perfproof runs,
online and offline, through a local mirror that adds latency to every request.

A CI runner far from its repository manager (or behind a slow proxy) pays a round trip per
request Maven makes; this machine's path to Maven Central is fast, so the gain of ``-o`` does
not show here without making the remote slow on purpose. The mirror is a small HTTP server
on 127.0.0.1 that waits ``--latency`` seconds, then forwards the request to the upstream
repository and returns its answer unchanged (status, body). A throwaway ``settings.xml``
(``-s``) points every repository at it under the id ``central``, so the artifacts ``~/.m2``
already holds from Central count as coming from it and are not fetched again.

The builds: a clone of ``--repo`` at ``--ref`` (the user's checkout is never built in), the
exact command perfproof plans for ``--module`` (``clean package`` with its skipped checks and
the classpath goal), one warm-up online build (so ``~/.m2`` holds what the build resolves:
perfproof's own condition for going offline), then ``--pairs`` pairs of online and offline
builds, alternating. Per build: wall and CPU time and the requests the mirror served.

    PYTHONPATH=src python3 benchmarks/offline_slow_repository.py --repo /work/real/kryo \
        --module benchmarks --latency 0.2 --pairs 2
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from dataclasses import asdict, dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from perfproof.env.java import java_info
from perfproof.workspace import build_maven
from perfproof.workspace.plan import java_env
from perfproof.workspace.spec import BuildSpec

UPSTREAM = "https://repo.maven.apache.org/maven2"


class SlowMirror:
    """A forwarding mirror that delays every request and counts them."""

    def __init__(self, upstream: str, latency_s: float) -> None:
        self.upstream = upstream.rstrip("/")
        self.latency_s = latency_s
        self.requests: list[tuple[str, str, int]] = []
        self._lock = threading.Lock()
        mirror = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                mirror.serve(self, "GET")

            def do_HEAD(self) -> None:
                mirror.serve(self, "HEAD")

            def log_message(self, format: str, *args: object) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def serve(self, handler: BaseHTTPRequestHandler, method: str) -> None:
        time.sleep(self.latency_s)
        request = urllib.request.Request(self.upstream + handler.path, method=method)
        try:
            with urllib.request.urlopen(request, timeout=60) as answer:
                status, body = answer.status, answer.read()
                kind = answer.headers.get("Content-Type", "application/octet-stream")
        except urllib.error.HTTPError as exc:
            status, body, kind = exc.code, b"", "text/plain"
        with self._lock:
            self.requests.append((method, handler.path, status))
        handler.send_response(status)
        handler.send_header("Content-Type", kind)
        handler.send_header("Content-Length", str(len(body)))
        handler.end_headers()
        if method == "GET":
            handler.wfile.write(body)

    def count(self) -> int:
        with self._lock:
            return len(self.requests)

    def close(self) -> None:
        self.server.shutdown()


SETTINGS = """<settings>
  <mirrors>
    <mirror><id>central</id><mirrorOf>*</mirrorOf><url>{url}</url></mirror>
  </mirrors>
</settings>
"""


@dataclass
class Timed:
    """One build: how it ran and what it cost."""

    mode: str
    ok: bool
    wall_s: float
    cpu_s: float
    requests: int
    waited_s: float
    load_start: float
    load_end: float


def timed_build(
    argv: list[str], cwd: Path, env: dict[str, str], mirror: SlowMirror, mode: str, log: Path
) -> Timed:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    seen = mirror.count()
    load = os.getloadavg()[0]
    started = time.monotonic()
    with log.open("w") as out:
        res = subprocess.run(argv, cwd=cwd, env=env, stdout=out, stderr=subprocess.STDOUT)
    wall = time.monotonic() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    requests = mirror.count() - seen
    return Timed(mode, res.returncode == 0, round(wall, 1), round(cpu, 1), requests,
                 round(requests * mirror.latency_s, 1), round(load, 1),
                 round(os.getloadavg()[0], 1))  # fmt: skip


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repo", type=Path, required=True)
    parser.add_argument("--ref", default="HEAD")
    parser.add_argument("--module", required=True)
    parser.add_argument("--build-arg", action="append", default=[])
    parser.add_argument("--latency", type=float, default=0.2, help="seconds added per request")
    parser.add_argument("--pairs", type=int, default=2)
    parser.add_argument("--upstream", default=UPSTREAM)
    parser.add_argument("--work", type=Path, default=None, help="folder for the clone and logs")
    args = parser.parse_args()

    work = args.work or Path(tempfile.mkdtemp(prefix="offline-slow-"))
    clone = work / "clone"
    if not clone.exists():
        subprocess.run(["git", "clone", "-q", "--no-checkout", str(args.repo), str(clone)],
                       check=True)  # fmt: skip
    subprocess.run(["git", "-C", str(clone), "checkout", "-q", "--detach", args.ref], check=True)
    mirror = SlowMirror(args.upstream, args.latency)
    settings = work / "settings.xml"
    settings.write_text(SETTINGS.format(url=mirror.url))
    spec = BuildSpec(kind="maven", maven="mvn", module=args.module,
                     build_args=("-s", str(settings), *args.build_arg))  # fmt: skip
    env = java_env(java_info(None).home)
    plan = build_maven.plan(clone, spec, fresh=True, env=env)
    online = list(plan.argv)
    offline = [online[0], "-o", *online[1:]]
    print("command:", " ".join(online), file=sys.stderr)
    runs = [timed_build(online, clone, plan.env, mirror, "warm-up online", work / "warm.log")]
    for n in range(1, args.pairs + 1):
        for mode, argv in (("online", online), ("offline", offline)):
            runs.append(timed_build(argv, clone, plan.env, mirror, mode, work / f"{mode}-{n}.log"))
            print(json.dumps(asdict(runs[-1])), file=sys.stderr)
    mirror.close()
    print(f"latency {args.latency} s per request; logs in {work}")
    print("| build (in order) | ok | load start → end | wall | CPU | requests | added wait |")
    print("|---|---|---|---:|---:|---:|---:|")
    for r in runs:
        print(f"| {r.mode} | {'yes' if r.ok else 'no'} | {r.load_start} → {r.load_end} | "
              f"{r.wall_s} s | {r.cpu_s} s | {r.requests} | {r.waited_s} s |")  # fmt: skip
    paths = sorted({p for _, p, _ in mirror.requests})
    (work / "requests.json").write_text(json.dumps(mirror.requests, indent=0))
    print(f"distinct paths requested: {len(paths)} (all requests: {work / 'requests.json'})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
