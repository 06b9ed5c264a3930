"""Where a Maven module keeps its benchmarks, which profile compiles them, and which build
steps would start JMH inside the build.

Many libraries keep their JMH benchmarks in ``src/test/java`` and run them through a profile
(``-Pbenchmark``) that widens the compiler's test includes and hooks ``exec-maven-plugin``
(``java … org.openjdk.jmh.Main``) to a lifecycle phase. perfproof measures those benchmarks
itself, so the build it runs takes the profile's compiler settings but stops short of, or
skips, every step that would start JMH: a JMH run inside Maven would measure every benchmark
of the project with the build's own settings, holding the machine for hours.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from xml.etree import ElementTree

from perfproof.model.documents.run import OwnRun
from perfproof.workspace import pom as poms

PHASES = (
    "validate",
    "initialize",
    "generate-sources",
    "process-sources",
    "generate-resources",
    "process-resources",
    "compile",
    "process-classes",
    "generate-test-sources",
    "process-test-sources",
    "generate-test-resources",
    "process-test-resources",
    "test-compile",
    "process-test-classes",
    "test",
    "prepare-package",
    "package",
    "pre-integration-test",
    "integration-test",
    "post-integration-test",
    "verify",
    "install",
    "deploy",
)
"""Maven's default lifecycle, in order: a build to phase P runs every step bound up to P."""

SKIP_PROPERTY = {"exec-maven-plugin": "exec.skip", "maven-antrun-plugin": "maven.antrun.skip"}
"""The property that skips every execution of each plugin that can start a program."""

_JMH = re.compile(r"org\.openjdk\.jmh\.Main|\bjmh\b|benchmarks?\.jar", re.I)
_BENCHMARK_SOURCE = re.compile(r"^\s*@(org\.openjdk\.jmh\.annotations\.)?Benchmark\b", re.M)
_SOURCE_LIMIT = 200_000


@dataclass(frozen=True)
class LaunchStep:
    """An exec or antrun execution that starts JMH: plugin, execution id, phase, profile."""

    plugin: str
    execution: str
    phase: str
    profile: str | None

    def words(self) -> str:
        where = f"profile {self.profile}, " if self.profile else ""
        return f"{self.plugin} execution '{self.execution}' ({where}phase {self.phase})"


@dataclass(frozen=True)
class TestBenchmarks:
    """Benchmarks compiled with a module's tests, and how the project itself runs them."""

    __test__ = False  # not a pytest test class

    source_dir: str
    classes: int
    profile: str | None
    """The profile that compiles them or runs JMH (None: the default build compiles them)."""
    launches: tuple[LaunchStep, ...]
    selector: str | None
    """The property the project's own run takes a benchmark regex from (``benchmark``)."""

    def own_run(self, module_args: list[str]) -> OwnRun | None:
        """The project's own command that runs its benchmarks: the profile, to the phase its
        JMH step is bound to (None: no profile starts JMH)."""
        steps = [s for s in self.launches if s.profile == self.profile and s.phase in PHASES]
        if self.profile is None or not steps:
            return None
        phase = min((s.phase for s in steps), key=PHASES.index)
        return OwnRun(
            argv=["mvn", f"-P{self.profile}", *module_args, phase], selector=self.selector
        )


def benchmark_files(folder: Path) -> int:
    """How many ``.java`` files under ``folder`` declare a ``@Benchmark`` method."""
    if not folder.is_dir():
        return 0
    count = 0
    for path in folder.rglob("*.java"):
        try:
            head = path.read_text(encoding="utf-8", errors="replace")[:_SOURCE_LIMIT]
        except OSError:
            continue
        if "jmh" in head and _BENCHMARK_SOURCE.search(head):
            count += 1
    return count


def _source_dir(root: ElementTree.Element | None, tag: str, default: str) -> str:
    value = poms.text(root, f"build/{tag}")
    return value if value and "${" not in value else default


def find_test_benchmarks(module: Path) -> TestBenchmarks | None:
    """The module's benchmarks when its tests hold them and its main sources do not."""
    root = poms.read_pom(module / "pom.xml")
    main = _source_dir(root, "sourceDirectory", "src/main/java")
    test = _source_dir(root, "testSourceDirectory", "src/test/java")
    if root is None or benchmark_files(module / main):
        return None
    classes = benchmark_files(module / test)
    if not classes:
        return None
    profile = benchmark_profile(root)
    return TestBenchmarks(
        source_dir=test,
        classes=classes,
        profile=profile,
        launches=tuple(s for s in launch_steps(root) if s.profile in (None, profile)),
        selector=_selector(root, profile),
    )


def benchmark_profile(root: ElementTree.Element) -> str | None:
    """The profile that runs ``org.openjdk.jmh.Main``, else one that sets the compiler's test
    includes, else one named for benchmarks."""
    ranked: list[tuple[int, str]] = []
    for profile in root.iterfind("profiles/profile"):
        pid = poms.text(profile, "id")
        body = ElementTree.tostring(profile, encoding="unicode")
        if "org.openjdk.jmh.Main" in body:
            ranked.append((0, pid))
        elif "testInclude" in body or "testExclude" in body:
            ranked.append((1, pid))
        elif re.search(r"bench|jmh", pid, re.I):
            ranked.append((2, pid))
    return min(ranked)[1] if ranked else None


def launch_steps(root: ElementTree.Element) -> list[LaunchStep]:
    """Every exec/antrun execution of the pom (its profiles' too) that starts JMH."""
    out = []
    for plugin in poms.plugins(root):
        if plugin.artifact not in SKIP_PROPERTY:
            continue
        for execution in plugin.element.iterfind("executions/execution"):
            body = ElementTree.tostring(execution, encoding="unicode")
            shared = plugin.element.find("configuration")
            if shared is not None:
                body += ElementTree.tostring(shared, encoding="unicode")
            phase = poms.text(execution, "phase")
            if phase and _JMH.search(body):
                name = poms.text(execution, "id") or "default"
                out.append(LaunchStep(plugin.artifact, name, phase, plugin.profile))
    return out


def reached(steps: tuple[LaunchStep, ...] | list[LaunchStep], goal: str) -> list[LaunchStep]:
    """The steps a build to phase ``goal`` runs (a phase Maven does not know counts as run)."""
    last = PHASES.index(goal)
    return [s for s in steps if s.phase not in PHASES or PHASES.index(s.phase) <= last]


def _selector(root: ElementTree.Element, profile: str | None) -> str | None:
    """The property named as an argument right after ``org.openjdk.jmh.Main``'s options."""
    for p in root.iterfind("profiles/profile"):
        if poms.text(p, "id") != profile:
            continue
        for args in p.iter("arguments"):
            values = [(a.text or "").strip() for a in args if a.tag == "argument"]
            if "org.openjdk.jmh.Main" in values:
                props = [re.fullmatch(r"\$\{([\w.\-]+)\}", v) for v in values]
                names = [m.group(1) for m in props if m]
                return names[-1] if names else None
    return None


def skip_flags(steps: list[LaunchStep]) -> list[str]:
    """``-Dexec.skip=true`` / ``-Dmaven.antrun.skip=true`` for the plugins of ``steps``."""
    return sorted({f"-D{SKIP_PROPERTY[s.plugin]}=true" for s in steps})


def profiles_asked(build_args: tuple[str, ...]) -> tuple[set[str], set[str]]:
    """The profiles ``-P`` arguments switch on (``-Pa,b``, ``-P a``) and off (``!x``, ``-x``)."""
    on: set[str] = set()
    off: set[str] = set()
    args = list(build_args)
    for i, arg in enumerate(args):
        value = arg[2:] if arg.startswith("-P") and len(arg) > 2 else None
        if arg == "-P" and i + 1 < len(args):
            value = args[i + 1]
        for name in (p.strip() for p in (value or "").split(",")):
            if name[:1] in ("!", "-"):
                off.add(name[1:])
            elif name:
                on.add(name)
    return on, off
