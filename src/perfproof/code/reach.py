"""Which JMH benchmarks exercise a changed method: a bounded walk up the call graph.

Starting from the changed methods, each step asks :func:`perfproof.code.callers.find_callers`
(the same binding rules as ``perfproof callers``: exact and likely sites) who calls the
methods found so far, until a method annotated ``@Benchmark`` is met or the depth bound is
reached. The walk is breadth first, so the call path kept for each benchmark is a shortest
one. A call made through a supertype (an interface method the changed class implements) binds
to the supertype's declaration, so the walk also climbs from a changed method to the
declarations it overrides. Where the source fixes the receiver's class (a final field or an
effectively final local initialised with ``new C(...)``, see
:meth:`perfproof.code.binding.Matcher.receiver_class`), a site is followed only when ``C``
runs the method reached: ``C``'s own or the one it inherits, never an override in another
class. Everywhere else the climb stays conservative.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from perfproof.code.binding import CONSTRUCTOR, Target
from perfproof.code.callers import Site, SiteIndex, find_callers
from perfproof.code.classify import BENCHMARK
from perfproof.code.project import Project

DEFAULT_DEPTH = 6
"""Call levels walked up from a changed method: benchmark → setup-free helper → API →
internal → changed method is typical; deeper chains mostly reach everything."""

MAX_METHODS = 20_000
"""Methods visited before the walk stops widening: a utility called from everywhere would
otherwise pull in the whole repository, and the benchmarks near the change are found first."""

MethodKey = tuple[str, str, tuple[str, ...]]
_BENCHMARK = re.compile(rb"@(?:org\.openjdk\.jmh\.annotations\.)?Benchmark\b")
_GROUP = re.compile(
    rb'@(?:org\.openjdk\.jmh\.annotations\.)?Group\s*\(\s*(?:value\s*=\s*)?"([^"]+)"'
)
"""``@Group("rw")``: JMH names the benchmark after the group, not after each method in it."""


@dataclass(frozen=True)
class Reach:
    """One benchmark method and one shortest call path from it to a changed method."""

    benchmark: str
    """JMH's name for it: ``package.Class.method``."""
    path: tuple[str, ...]
    """Readable labels, benchmark first, changed method last."""
    changed: str
    """Label of the changed method reached."""
    via_dispatch: bool = False
    """Reached only through calls to a declaration the reached method overrides: whether the
    benchmark runs the changed override depends on the receiver's class at run time."""
    dispatch: str = ""
    """With ``via_dispatch``: the first such call on the path, ``Caller(...) → Super.m(...)``."""

    @property
    def depth(self) -> int:
        return len(self.path) - 1

    @property
    def regex(self) -> str:
        """A JMH include regex that selects exactly this benchmark."""
        return f"^{re.escape(self.benchmark)}$"

    def to_json(self) -> dict[str, Any]:
        doc: dict[str, Any] = {
            "benchmark": self.benchmark,
            "path": list(self.path),
            "changed": self.changed,
        }
        if self.via_dispatch:
            doc.update(via_dispatch=True, dispatch=self.dispatch)
        return doc

    @classmethod
    def from_json(cls, doc: dict[str, Any]) -> Reach:
        return cls(
            doc["benchmark"],
            tuple(doc["path"]),
            doc["changed"],
            bool(doc.get("via_dispatch")),
            str(doc.get("dispatch") or ""),
        )


def label(project: Project, key: MethodKey) -> str:
    owner, name, params = key
    cls = project.label(owner)
    if name == CONSTRUCTOR:
        return f"new {cls}({', '.join(params)})"
    return f"{cls}.{name}({', '.join(params)})"


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


def _targets(project: Project, key: MethodKey) -> list[Target]:
    """The declaration itself and, for a method, those it overrides in repository types."""
    owner, name, params = key
    if owner not in project.types:
        return []
    out = [Target(owner, name, len(params))]
    if name != CONSTRUCTOR:
        for sup in project.ancestors(owner):
            if any(m.name == name and m.params == params for m in project.methods_of(sup)):
                out.append(Target(sup, name, len(params)))
    return out


def runs(project: Project, cls: str, key: MethodKey) -> bool:
    """Whether a call on an instance of exactly ``cls`` can run the method ``key``: its
    class is ``cls`` or a supertype of it and no type in between overrides it. Constructors
    and static methods do not dispatch on the receiver, so they always can. An abstract
    declaration never runs on a concrete class; the implementations a change touches are
    changed methods of their own."""
    owner, name, params = key
    if name == CONSTRUCTOR or owner == cls:
        return True
    if any(m.static for m in project.methods_of(owner) if m.name == name and m.params == params):
        return True
    lineage = project.ancestors(cls)
    if owner not in lineage:
        return False
    for between in (cls, *lineage):
        if between == owner or not project.is_subtype(between, owner):
            continue
        if any(
            m.kind == "method" and m.name == name and m.params == params
            for m in project.methods_of(between)
        ):
            return False  # ``between`` overrides it, and ``cls`` runs that one
    return True


def dispatching_sites(
    project: Project, key: MethodKey, sites: SiteIndex
) -> tuple[list[str], list[Site]]:
    """Calls that reach the method ``key`` through a declaration it overrides: the labels of
    those supertype declarations, and the sites calling them whose receiver may run ``key``
    (unknown class, or one that runs it). A method called only through its interface has no
    call naming it, yet its callers are all of these."""
    declarations = _targets(project, key)[1:]
    found: list[Site] = []
    for target in declarations:
        result = find_callers(project, target, sites, read_source=False)
        found += [s for s in result.sites if s.receiver is None or runs(project, s.receiver, key)]
    labels = [label(project, (t.fqn, key[1], key[2])) for t in declarations]
    return labels, found


def _walk(
    project: Project,
    benchmarks: Mapping[MethodKey, str],
    sites: SiteIndex,
    start: list[MethodKey],
    max_depth: int,
    dispatch: bool,
) -> dict[MethodKey, tuple[MethodKey, str] | None]:
    """Breadth-first parents: caller → (callee, the supertype declaration the call named, or
    ``""`` when it named the callee itself). Without ``dispatch`` only calls naming the
    callee's own declaration are followed."""
    parent: dict[MethodKey, tuple[MethodKey, str] | None] = dict.fromkeys(start)
    frontier = list(start)
    for _ in range(max_depth):
        if len(parent) > MAX_METHODS:
            break
        following: list[MethodKey] = []
        for key in frontier:
            if key in benchmarks:
                continue  # a benchmark is an end of the walk, not a step in it
            targets = _targets(project, key)
            for i, target in enumerate(targets if dispatch else targets[:1]):
                result = find_callers(project, target, sites, read_source=False)
                via = label(project, (target.fqn, key[1], key[2])) if i else ""
                for site in result.sites:
                    if site.receiver is not None and not runs(project, site.receiver, key):
                        continue  # the receiver's class runs another override
                    caller = site.caller_key
                    if len(caller) != 3 or caller in parent:
                        continue  # a static initialiser, or already reached
                    parent[caller] = (key, via)
                    following.append(caller)
        if not following:
            break
        frontier = following
    return parent


def affected_benchmarks(
    project: Project,
    root: Path,
    changed: Iterable[MethodKey],
    max_depth: int = DEFAULT_DEPTH,
) -> list[Reach]:
    """Benchmarks from which a changed method is reachable within ``max_depth`` calls. A
    benchmark that only a walk through calls to a supertype's declaration reaches is marked
    ``via_dispatch``, with the first such call on its path."""
    benchmarks = benchmark_methods(project, root)
    if not benchmarks:
        return []
    sites = SiteIndex(project, eager=True)
    start = [k for k in dict.fromkeys(changed) if k[0] in project.types]
    parent = _walk(project, benchmarks, sites, start, max_depth, dispatch=True)
    direct = _walk(project, benchmarks, sites, start, max_depth, dispatch=False)
    out: list[Reach] = []
    for key, name in sorted(benchmarks.items(), key=lambda kv: kv[1]):
        if key not in parent:
            continue
        chain = [key]
        dispatch = ""
        step = parent[key]
        while step is not None:
            up, via = step
            if via and not dispatch:
                dispatch = f"{label(project, chain[-1])} → {via}"
            chain.append(up)
            step = parent[up]
        labels = tuple(label(project, k) for k in chain)
        only = key not in direct
        out.append(Reach(name, labels, labels[-1], only, dispatch if only else ""))
    return out
