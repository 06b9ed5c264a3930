"""Which JMH benchmarks exercise a changed method: a bounded walk up the call graph.

Starting from the changed methods, each step asks the call graph
(:class:`perfproof.code.graph.CallGraph`: the binding rules of ``perfproof callers``, plus
calls through the declarations a method overrides, constructors and initialisers) who calls
the methods found so far, until a method annotated ``@Benchmark`` is met or the depth bound is
reached. The walk goes through every method it meets, changed or not: an unchanged override
(``VarIntEncoder.encode``) leads from its changed private helper to every call of the
interface method. The walk is breadth first, so the call path kept for each benchmark is a
shortest one, benchmark first and changed method last, given as prove's
:class:`~perfproof.model.documents.prove_stages.ReachedBenchmark`.

It runs twice: once over every edge, once over sure edges only (calls naming the method, or
made on a receiver whose class the source fixes). A benchmark only the first reaches is
marked ``via_dispatch``: whether it runs the changed override is decided at run time.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from pathlib import Path

from perfproof import defaults
from perfproof.code.callers import SiteIndex
from perfproof.code.classify import BENCHMARK
from perfproof.code.graph import CallGraph, MethodKey, label
from perfproof.code.project import Project
from perfproof.model.documents.prove_stages import ReachedBenchmark

MAX_METHODS = 20_000
"""Methods visited before the walk stops widening: a utility called from everywhere would
otherwise pull in the whole repository, and the benchmarks near the change are found first."""

_BENCHMARK = re.compile(rb"@(?:org\.openjdk\.jmh\.annotations\.)?Benchmark\b")
_GROUP = re.compile(
    rb'@(?:org\.openjdk\.jmh\.annotations\.)?Group\s*\(\s*(?:value\s*=\s*)?"([^"]+)"'
)
"""``@Group("rw")``: JMH names the benchmark after the group, not after each method in it."""


def benchmark_methods(project: Project, root: Path) -> dict[MethodKey, str]:
    """Every ``@Benchmark`` method of the repository, with its JMH name."""
    found: dict[MethodKey, str] = {}
    for f in project.files:
        if not f.jmh and project.scope(f) != BENCHMARK:
            continue
        try:
            src = (root / f.path).read_bytes()
        except OSError:
            continue
        for m in f.methods:
            if m.kind != "method":
                continue
            header = src[m.start : m.end].split(b"{", 1)[0]
            if _BENCHMARK.search(header):
                group = _GROUP.search(header)
                name = group.group(1).decode() if group else m.name
                found[(m.owner, m.name, m.params)] = f"{m.owner}.{name}"
    return found


_Parent = tuple[MethodKey, str] | None
"""Where the walk came from: the callee and the supertype declaration the call named (``""``
for a sure call); None for a method the walk started at."""


def _walk(
    graph: CallGraph,
    benchmarks: Mapping[MethodKey, str],
    start: list[MethodKey],
    max_depth: int,
    dispatch: bool,
) -> dict[MethodKey, _Parent]:
    """Breadth-first parents: caller → (its callee, the supertype declaration the call named
    or ``""`` for a sure call). Without ``dispatch`` only sure calls are followed."""
    parent: dict[MethodKey, _Parent] = dict.fromkeys(start)
    frontier = list(start)
    for _ in range(max_depth):
        if len(parent) > MAX_METHODS:
            break
        following: list[MethodKey] = []
        for key in frontier:
            if key in benchmarks:
                continue  # a benchmark is an end of the walk, not a step in it
            for caller, via in graph.callers(key):
                if (via and not dispatch) or caller in parent:
                    continue
                parent[caller] = (key, via)
                following.append(caller)
        if not following:
            break
        frontier = following
    return parent


class BenchmarkReach:
    """One repository's benchmarks and call graph, walked from changed methods. Built once per
    repository, so the scan for ``@Benchmark`` and the callers the graph has found serve every
    question asked of it (each hypothesis of a hunt, both questions of a prove)."""

    def __init__(
        self,
        project: Project,
        root: Path,
        max_depth: int = defaults.DEPTH,
        sites: SiteIndex | None = None,
    ) -> None:
        self.project = project
        self.benchmarks = benchmark_methods(project, root)
        self.max_depth = max_depth
        self._sites = sites
        self._graph: CallGraph | None = None

    @property
    def graph(self) -> CallGraph:
        """Built on first use: a repository without benchmarks never indexes its call sites."""
        if self._graph is None:
            self._graph = CallGraph(self.project, self._sites)
        return self._graph

    def _known(self, changed: Iterable[MethodKey]) -> list[MethodKey]:
        return [k for k in dict.fromkeys(changed) if k[0] in self.project.types]

    def _walk(self, start: list[MethodKey], dispatch: bool) -> dict[MethodKey, _Parent]:
        return _walk(self.graph, self.benchmarks, start, self.max_depth, dispatch)

    def reaching_each(
        self, changed: Iterable[MethodKey], dispatch: bool = True
    ) -> dict[MethodKey, frozenset[str]]:
        """Per changed method, the benchmarks (by JMH name) a walk from it alone reaches within
        ``max_depth`` calls, over sure calls only without ``dispatch``. Each is walked on its
        own: the one path kept per benchmark may end at another changed method, so missing
        from the kept paths says nothing."""
        out: dict[MethodKey, frozenset[str]] = {}
        for key in self._known(changed):
            walked = self._walk([key], dispatch) if self.benchmarks else {}
            out[key] = frozenset(name for b, name in self.benchmarks.items() if b in walked)
        return out

    def unreached(self, changed: Iterable[MethodKey]) -> list[MethodKey]:
        """The changed methods no benchmark reaches within ``max_depth`` calls."""
        return [key for key, found in self.reaching_each(changed).items() if not found]

    def affected(self, changed: Iterable[MethodKey]) -> list[ReachedBenchmark]:
        """Benchmarks from which a changed method is reachable within ``max_depth`` calls. A
        benchmark that only a walk through calls to a supertype's declaration reaches is marked
        ``via_dispatch``, with the first such call on its path."""
        if not self.benchmarks:
            return []
        start = self._known(changed)
        parent = self._walk(start, dispatch=True)
        direct = self._walk(start, dispatch=False)
        return _paths(self.project, self.benchmarks, parent, direct)


def affected_benchmarks(
    project: Project, root: Path, changed: Iterable[MethodKey], max_depth: int = defaults.DEPTH
) -> list[ReachedBenchmark]:
    """:meth:`BenchmarkReach.affected`, for one question about a repository."""
    return BenchmarkReach(project, root, max_depth).affected(changed)


def _paths(
    project: Project,
    benchmarks: Mapping[MethodKey, str],
    parent: dict[MethodKey, _Parent],
    direct: dict[MethodKey, _Parent],
) -> list[ReachedBenchmark]:
    """One shortest path per reached benchmark, a sure one whenever there is one."""
    out: list[ReachedBenchmark] = []
    for key, name in sorted(benchmarks.items(), key=lambda kv: kv[1]):
        only = key not in direct
        walk = parent if only else direct  # a sure path is shown whenever there is one
        if key not in walk:
            continue
        chain = [key]
        dispatch = ""
        step = walk[key]
        while step is not None:
            up, via = step
            if via and not dispatch:
                dispatch = f"{label(project, chain[-1])} → {via}"
            chain.append(up)
            step = walk[up]
        labels = tuple(label(project, k) for k in chain)
        out.append(
            ReachedBenchmark(
                benchmark=name,
                path=labels,
                changed=labels[-1],
                via_dispatch=only,
                dispatch=dispatch,
            )
        )
    return out
