"""What the source index says about a hot method: where it is, the lines that make the cost,
the ``scan`` pattern that matches it, its production callers and the benchmarks that reach it.

Profiles name methods the way the JVM does (``pkg.Outer$Inner.method``, no parameter types),
so a frame is matched to every overload of that name; the first declared stands for them.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Sequence
from dataclasses import dataclass

from perfproof.code.binding import CONSTRUCTOR, Target
from perfproof.code.callers import SiteIndex, find_callers
from perfproof.code.classify import PRODUCTION
from perfproof.code.graph import MethodKey
from perfproof.code.model import FileIndex, MethodDecl
from perfproof.code.project import Project
from perfproof.code.reach import BenchmarkReach
from perfproof.code.rules import RULES
from perfproof.model.documents.hunt import Callers, Pattern
from perfproof.profile.attribute import Method

_ANONYMOUS = re.compile(r"(?:\$\d+)+$")


@dataclass(frozen=True)
class Declared:
    """A frame's method in the index: its record and the file that declares it."""

    method: Method
    decl: MethodDecl
    file: FileIndex
    index: int
    """Position in the file's methods (scan findings point at it)."""

    @property
    def key(self) -> MethodKey:
        return (self.decl.owner, self.decl.name, self.decl.params)


def jvm_class_name(project: Project, fqn: str) -> str:
    """``pkg.Outer.Inner`` → ``pkg.Outer$Inner``, the name the JVM gives a nested class."""
    t = project.types[fqn]
    package = project.type_file[fqn].package
    nested = project.label(fqn).replace(".", "$") if t.outer else t.name
    return f"{package}.{nested}" if package else nested


class SourceMap:
    """Frame name → declared project method, built once over the index."""

    def __init__(self, project: Project) -> None:
        self.project = project
        self.by_frame: dict[str, Declared] = {}
        for f in project.files:
            scope = project.scope(f)
            for i, m in enumerate(f.methods):
                if m.owner not in project.types:
                    continue
                frame = f"{jvm_class_name(project, m.owner)}.{m.name}"
                if frame in self.by_frame:
                    continue
                label = f"{project.label(m.owner)}.{m.name}"
                method = Method(frame, label, f.path, m.line, m.end_line, scope)
                self.by_frame[frame] = Declared(method, m, f, i)

    def resolve(self, frame: str) -> Method | None:
        """The method a frame runs; an anonymous class's method (``E$3.max``, an enum
        constant's body or an anonymous implementation) is charged to the same-named method
        of the class that declares it, when that class has one."""
        found = self.by_frame.get(frame)
        if found is None and "$" in frame:
            cls, _, name = frame.rpartition(".")
            outer = _ANONYMOUS.sub("", cls)
            if outer != cls:
                found = self.by_frame.get(f"{outer}.{name}")
        return found.method if found else None


def call_lines(d: Declared, via: Sequence[str]) -> list[tuple[int, str]]:
    """Lines inside the method where it makes the calls the cost lands in (``merge`` of
    ``java.util.HashMap.merge``); a call the compiler inserted (autoboxing) has no line."""
    names = {v.rsplit(".", 1)[-1]: v for v in via if v != d.method.frame}
    wanted = {
        n if n != CONSTRUCTOR else v.rsplit(".", 2)[-2].split("$")[-1] for n, v in names.items()
    }
    if not wanted:
        return []
    out: list[tuple[int, str]] = []
    for site in d.file.sites(tuple(wanted)):
        if site.method == d.index or d.decl.line <= site.line <= d.decl.end_line:
            out.append((site.line, site.name))
    return sorted(set(out))


def pattern_of(d: Declared) -> Pattern | None:
    """The first ``scan`` finding inside the method, with its rule's rewrite."""
    for raw in d.file.findings:
        if raw.method == d.index and raw.rule in RULES:
            info = RULES[raw.rule]
            return Pattern(raw.rule, info.title, raw.line, info.rewrite)
    return None


def callers_of(project: Project, sites: SiteIndex, d: Declared) -> Callers | None:
    if d.decl.kind not in ("method", "constructor"):
        return None
    name = CONSTRUCTOR if d.decl.kind == "constructor" else d.decl.name
    result = find_callers(project, Target(d.decl.owner, name, None), sites, read_source=False)
    return Callers(
        result.counts.get(PRODUCTION, 0), result.distinct_callers, result.library_primitive
    )


def reaching(reach: BenchmarkReach, d: Declared) -> list[str]:
    """Benchmarks whose call graph reaches the method, as ``prove`` finds them."""
    return [r.benchmark for r in reach.affected([d.key])]


def prove_line(repo: str, base: str, benchmarks: Sequence[str], extra: Sequence[str]) -> str:
    """A ready ``perfproof prove`` for the fix, on the benchmarks that show the cost."""
    argv = ["perfproof", "prove", "--repo", repo, "--base", base, "--head", "HEAD"]
    for b in list(dict.fromkeys(benchmarks))[:3]:
        argv += ["--bench", f"^{re.escape(b)}$"]
    return shlex.join([*argv, *extra])
