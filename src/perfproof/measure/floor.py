"""The empty-benchmark floor: what one operation of JMH's own loop costs on this machine and
JDK, measured once and kept in perfproof's cache.

A benchmark whose time per operation is within a small factor of an empty ``@Benchmark``
measures the harness: the JIT folded its work away (a constant input, a result nobody
consumes), or the work never was there. Such a key can come out ``improved`` by 50× with a
tight interval while it says nothing about the change (the "new" variant runs in two cycles
because nothing is left of it). The floor is measured only when some key runs that fast
(below :data:`SUSPECT_NS`), with JMH's annotation processor found in the local Maven or Gradle
cache (``java/EmptyBench.java``, compiled against the benchmark's own JMH where its processor
is there), three forks, under JMH's lock like every other JMH run.
"""

from __future__ import annotations

import hashlib
import os
import platform
import shutil
import tempfile
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from importlib import resources
from pathlib import Path

from perfproof.env.cache import cache_root
from perfproof.env.java import java_version_key, javac_of
from perfproof.errors import InputError
from perfproof.jmh.reader import read_file
from perfproof.measure import lock, lock_queue
from perfproof.measure.environment import cpu_model
from perfproof.model.documents.machine_records import FloorRecord, read_record
from perfproof.process import Command, Watch, run
from perfproof.storage import write_json_atomic
from perfproof.workspace.artifact import Artifact, jmh_version

FLOOR_FACTOR = 2.0
"""A key within this factor of the empty benchmark's time per operation measures nothing: the
harness's own loop is at least half of what it times. Kept tight because some real work is
that cheap too (an early return, one array load costs a nanosecond above the loop)."""

SUSPECT_NS = 10.0
"""Keys at least this slow (ns/op, either side) are far above any machine's floor: when every
key is, the floor is not measured at all."""

JMH_ARGS = ("-f", "3", "-wi", "3", "-w", "300ms", "-i", "3", "-r", "300ms")
"""Three short forks: the floor of a JMH loop is steady within a few per cent."""

BENCHMARK = "perfproof.floor.EmptyBench.empty"


@dataclass(frozen=True)
class Floor:
    """The empty benchmark's time per operation on one machine and JDK."""

    ns_per_op: float
    fork_means: tuple[float, ...]
    jmh: str
    measured: str
    """When (UTC, ISO 8601)."""
    machine: str

    def near(self, ns_per_op: float) -> bool:
        """Whether a key's time per operation is within :data:`FLOOR_FACTOR` of the floor."""
        return 0 < ns_per_op < FLOOR_FACTOR * self.ns_per_op


def machine_name() -> str:
    """This machine as the cache tells machines apart: host, CPU model, cores."""
    return f"{platform.node()} / {cpu_model() or platform.machine()} / {os.cpu_count()} cores"


def _cache_file(java: Path) -> Path:
    key = f"{java_version_key(java)}\0{machine_name()}"
    return cache_root() / "floor" / f"{hashlib.sha256(key.encode()).hexdigest()[:16]}.json"


def cached_floor(java: Path) -> Floor | None:
    """The floor measured before on this machine and JDK, if any."""
    try:
        doc = read_record(FloorRecord, _cache_file(java))
    except (OSError, InputError):
        return None
    return Floor(doc.ns_per_op, tuple(doc.fork_means), doc.jmh, doc.measured, doc.machine)


def floor_for(
    java: Path, artifact: Artifact, say: Callable[[str], None], lock_timeout_s: float
) -> Floor | str:
    """The floor of this machine and JDK: from the cache, else measured now (and kept); or
    why it cannot be told."""
    found = cached_floor(java)
    if found is not None:
        return found
    javac = javac_of(java)
    if javac is None:
        return f"{java} has no javac to build the empty benchmark with"
    build = _jmh_jars(artifact)
    if isinstance(build, str):
        return build
    processor, runtime, version = build
    say("measuring this machine's empty-benchmark floor once (3 short forks)")
    work = Path(tempfile.mkdtemp(prefix="perfproof-floor-"))
    try:
        source = work / "src" / "perfproof" / "floor" / "EmptyBench.java"
        source.parent.mkdir(parents=True)
        text = resources.files("perfproof.measure") / "java" / "EmptyBench.java"
        source.write_text(text.read_text("utf-8"), "utf-8")
        classes = work / "classes"
        classes.mkdir()
        path = os.pathsep.join(str(p) for p in runtime)
        compiled = run(
            Command([javac, "-cp", path, "-processorpath", f"{processor}{os.pathsep}{path}",
                     "-d", classes, source]),
            Watch(what="javac (empty benchmark)", timeout=300),
        )  # fmt: skip
        if not compiled.ok:
            return "the empty benchmark does not compile: " + _last(compiled.output)
        result = work / "floor.json"
        argv: list[str | Path] = [java, "-cp", f"{classes}{os.pathsep}{path}",
                                  "org.openjdk.jmh.Main", BENCHMARK, *JMH_ARGS,
                                  "-rf", "json", "-rff", result]  # fmt: skip
        ran = _in_turn(argv, work / "floor.log", lock_timeout_s)
        if ran is not None:
            return ran
        (samples,) = [s for s in read_file(result) if s.key.metric == "primary"]
        means = tuple(float(m) for m in samples.fork_means())
    finally:
        shutil.rmtree(work, ignore_errors=True)
    floor = Floor(sum(means) / len(means), means, version,
                  time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), machine_name())  # fmt: skip
    target = _cache_file(java)
    target.parent.mkdir(parents=True, exist_ok=True)
    record = asdict(floor) | {"fork_means": list(floor.fork_means)}  # the document's list
    write_json_atomic(target, FloorRecord(**record).dump())
    return floor


def _jmh_jars(artifact: Artifact) -> tuple[Path, list[Path], str] | str:
    """JMH's annotation processor and the jars to compile and run the empty benchmark with:
    the benchmark's own JMH where the processor of its version is in a local cache, else the
    newest JMH found there whole (core, processor and their two libraries)."""
    own = jmh_version(artifact)
    found = _local_jars("jmh-generator-annprocess")
    if own is not None and own in found:
        return found[own], artifact.files(), own
    cores = _local_jars("jmh-core")
    libs = [_newest(_local_jars(name)) for name in ("jopt-simple", "commons-math3")]
    shared = sorted(set(found) & set(cores), key=_version_key)
    if not shared or None in libs:
        return (
            "no JMH annotation processor (jmh-generator-annprocess) with its jmh-core in the "
            "local Maven or Gradle cache to build the empty benchmark with"
        )
    version = shared[-1]
    return found[version], [cores[version], *(p for p in libs if p is not None)], version


def _local_jars(artifact_id: str) -> dict[str, Path]:
    """``version → jar`` of one artifact in ``~/.m2`` and Gradle's module cache."""
    home = Path.home()
    groups = {"jopt-simple": "net/sf/jopt-simple", "commons-math3": "org/apache/commons"}
    group = groups.get(artifact_id, "org/openjdk/jmh")
    patterns = [
        (home / ".m2" / "repository" / group / artifact_id, f"*/{artifact_id}-*.jar"),
        (home / ".gradle" / "caches" / "modules-2" / "files-2.1" / group.replace("/", "."),
         f"{artifact_id}/*/*/{artifact_id}-*.jar"),
    ]  # fmt: skip
    out: dict[str, Path] = {}
    for root, pattern in patterns:
        for jar in sorted(root.glob(pattern)) if root.is_dir() else []:
            version = jar.name[len(artifact_id) + 1 : -len(".jar")]
            if version and version[0].isdigit() and "-" not in version:
                out.setdefault(version, jar)
    return out


def _version_key(version: str) -> tuple[int, ...]:
    return tuple(int(p) if p.isdigit() else 0 for p in version.split("."))


def _newest(jars: dict[str, Path]) -> Path | None:
    return jars[max(jars, key=_version_key)] if jars else None


def _in_turn(argv: list[str | Path], log: Path, timeout_s: float) -> str | None:
    """Run one JMH process when perfproof's queue gives it its turn and JMH's lock is free;
    why it failed, or None."""
    path = lock.lock_path_for()
    ticket = lock_queue.take(path, "empty-benchmark floor")
    deadline = time.monotonic() + timeout_s
    try:
        while ticket is not None and lock_queue.ahead(ticket):
            if time.monotonic() > deadline:
                return "JMH's lock stayed taken (--lock-timeout)"
            time.sleep(0.5)
        if ticket is not None:
            ticket = lock_queue.start(ticket)
        while True:
            left = max(0.0, deadline - time.monotonic())
            if lock.wait_for_lock(path, left, on_wait=lambda _text: None) < 0:
                return "JMH's lock stayed taken (--lock-timeout)"
            res = run(Command(argv), Watch(what="JMH (empty benchmark)", log=log))
            if not lock.refused_by_lock(res.output):
                return None if res.ok else f"JMH exited with code {res.returncode}"
            time.sleep(1.0)
    finally:
        lock_queue.release(ticket)


def _last(output: str) -> str:
    lines = [line for line in output.strip().splitlines() if line.strip()]
    return (lines[:1] or ["no output"])[0][:160]
