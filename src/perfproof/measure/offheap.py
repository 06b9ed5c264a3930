"""perfproof's JMH profiler of off-heap bytes per operation, built for a side's JMH and JDK.

JMH's ``-prof gc`` counts heap bytes only: a direct ``ByteBuffer`` or memory from
``Unsafe.allocateMemory`` costs nothing there. perfproof ships a small profiler of its own
(``java/OffHeapProfiler.java`` with the agent it adds to every fork, ``java/OffHeapAgent.java``
and ``java/OffHeapPatch.java``) that counts those bytes exactly and writes them as the secondary
metrics ``direct.alloc.norm`` and ``native.alloc.norm`` (B/op) beside JMH's own.

It is compiled with the side's JDK against the JMH the benchmark jar carries (its interfaces
have to match), once per JDK, JMH version and source, into ``$XDG_CACHE_HOME/perfproof``, and
put on JMH's class path after the benchmark's own: ``java -cp BENCH:HELPER org.openjdk.jmh.Main
… -prof perfproof.offheap.OffHeapProfiler``. It runs in the timing forks because what it adds
there was measured to be lost in the noise (BENCHMARKS.md, "Costs -prof gc cannot see"): one
counter addition per direct buffer or ``allocateMemory`` call, nothing on any other path.
Where it cannot be built (a JRE without javac, a JMH whose profiler interfaces differ, an
unusual cache path) the run goes on without it and says why once.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import tempfile
import zipfile
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from perfproof.env.cache import cache_root
from perfproof.env.java import java_version_key, javac_of
from perfproof.process import Command, Watch, run
from perfproof.workspace.artifact import Artifact, jmh_version

PROFILER = "perfproof.offheap.OffHeapProfiler"
"""The class JMH's ``-prof`` is given."""

JAR = "perfproof-offheap.jar"
COUNTERS = "PerfproofOffHeap"
"""The counter class, compiled into ``java.nio`` and defined there by the agent at run time."""

_AGENT = ("OffHeapAgent", "OffHeapPatch", "OffHeapProfiler")
_MANIFEST = (
    "Manifest-Version: 1.0\r\n"
    "Premain-Class: perfproof.offheap.OffHeapAgent\r\n"
    "Can-Retransform-Classes: true\r\n\r\n"
)
_ASM = "java.base/jdk.internal.org.objectweb.asm=ALL-UNNAMED"


@dataclass(frozen=True)
class OffHeapHelper:
    """The built profiler: its jar (class path entry and java agent at once)."""

    jar: Path

    def jmh_args(self) -> list[str]:
        return ["-prof", PROFILER]


def _source(name: str) -> str:
    return (resources.files("perfproof.measure") / "java" / f"{name}.java").read_text("utf-8")


def offheap_helper(artifact: Artifact, java: Path) -> OffHeapHelper | str:
    """The profiler built for ``artifact``'s JMH on ``java``, or why it cannot be."""
    javac = javac_of(java)
    if javac is None:
        return f"{java} has no javac beside it to build perfproof's off-heap profiler"
    sources = "\0".join(_source(n) for n in (COUNTERS, *_AGENT))
    jmh = jmh_version(artifact) or _files_key(artifact)
    key = "\0".join((sources, java_version_key(java), jmh))
    target = cache_root() / "offheap-profiler" / hashlib.sha256(key.encode()).hexdigest()[:16]
    if any(c in str(target) for c in "=,:") or any(c.isspace() for c in str(target)):
        return f"the cache path {target} has a character a -javaagent option cannot carry"
    jar = target / JAR
    if jar.is_file():
        return OffHeapHelper(jar)
    target.parent.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=".build-", dir=target.parent))
    try:
        problem = _build(javac, artifact, work)
        if problem is not None:
            return f"perfproof's off-heap profiler does not compile against JMH {jmh}: {problem}"
        try:
            os.replace(work / "out", target)
        except OSError:
            if not jar.is_file():
                raise
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return OffHeapHelper(jar)


def _files_key(artifact: Artifact) -> str:
    """The artifact's jars by name, size and time: what JMH it carries, when no version says."""
    parts = []
    for path in artifact.files():
        try:
            stat = path.stat()
        except OSError:
            continue
        parts.append(f"{path}:{stat.st_size}:{stat.st_mtime_ns}")
    return "\n".join(parts)


def _build(javac: Path, artifact: Artifact, work: Path) -> str | None:
    """Compile the counters into java.nio and the agent and profiler against the artifact's
    JMH, and pack them into ``work/out/perfproof-offheap.jar``; the last line of javac's
    complaint when it fails."""
    boot_src = work / "boot" / "java" / "nio"
    agent_src = work / "agent" / "perfproof" / "offheap"
    for folder in (boot_src, agent_src, work / "classes", work / "boot-classes"):
        folder.mkdir(parents=True)
    (boot_src / f"{COUNTERS}.java").write_text(_source(COUNTERS), "utf-8")
    for name in _AGENT:
        (agent_src / f"{name}.java").write_text(_source(name), "utf-8")
    classpath = os.pathsep.join(str(p) for p in artifact.files())
    steps: tuple[list[str | Path], ...] = (
        [javac, "--patch-module", f"java.base={work / 'boot'}", "-d", work / "boot-classes",
         boot_src / f"{COUNTERS}.java"],
        [javac, "-nowarn", "--add-exports", _ASM, "-cp", classpath, "-d", work / "classes",
         *(agent_src / f"{n}.java" for n in _AGENT)],
    )  # fmt: skip
    for argv in steps:
        result = run(Command(argv), Watch(what="javac (off-heap profiler)", timeout=300))
        if not result.ok:
            lines = [ln for ln in result.output.strip().splitlines() if ln.strip()]
            return (lines[:1] or ["no output"])[0][:160]
    out = work / "out"
    out.mkdir()
    with zipfile.ZipFile(out / JAR, "w", zipfile.ZIP_DEFLATED) as jar:
        jar.writestr("META-INF/MANIFEST.MF", _MANIFEST)
        for path in sorted((work / "classes").rglob("*.class")):
            jar.write(path, path.relative_to(work / "classes").as_posix())
        counters = work / "boot-classes" / "java" / "nio" / f"{COUNTERS}.class"
        jar.write(counters, f"perfproof/offheap/{COUNTERS}.bin")
    return None
