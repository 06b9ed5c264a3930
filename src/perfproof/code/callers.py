"""Who calls a method: the target named on the command line, its call sites across the
repository with their enclosing methods, scopes and source lines, and the counts a PR quotes.
How each site is judged to bind to the target lives in :mod:`perfproof.code.binding`."""

from __future__ import annotations

import difflib
import os
from collections import defaultdict
from dataclasses import dataclass, field, replace
from pathlib import Path

from perfproof.code.binding import CONSTRUCTOR, Matcher, Target, all_methods, overloads
from perfproof.code.classify import SCOPES
from perfproof.code.model import CallSite, FileIndex
from perfproof.code.project import Project
from perfproof.code.quote import quote
from perfproof.errors import InputError

PRIMITIVE_BAR = 3
"""Distinct production callers from which a method counts as a library primitive."""
_KINDS = {
    "call": "call",
    "new": "constructor",
    "ref": "reference",
    "super": "super",
    "this": "this",
}


@dataclass(frozen=True)
class Site:
    file: str
    line: int
    caller: str
    caller_key: tuple
    kind: str
    confidence: str
    via: str
    scope: str
    source: str = ""
    column: int = 0
    """Where on the line the call starts: two calls on one line are two sites."""
    receiver: str | None = None
    """The class the receiver is exactly an instance of, when the source fixes it
    (:meth:`Matcher.receiver_class`); ``None`` when it may be any subtype."""


@dataclass
class CallersResult:
    target: Target
    method: str
    sites: list[Site]
    counts: dict[str, int] = field(default_factory=dict)
    distinct_callers: int = 0

    @property
    def library_primitive(self) -> bool:
        return self.distinct_callers >= PRIMITIVE_BAR

    def in_scope(self, scope: str) -> list[Site]:
        return [s for s in self.sites if s.scope == scope]


def parse_spec(spec: str) -> tuple[str, str, int | None]:
    """``Class.method``, ``Class#method``, ``Class::method``; ``Class.<init>``, ``Class.new``,
    ``Class::new`` and ``new Class`` name constructors; a parameter list, as in
    ``Errors.forCode(short)`` or ``new Codec(int)``, selects the overload by its length.
    Returns (class text, method, parameter count or ``None``)."""
    text = spec.strip()
    arity = None
    if text.endswith(")") and "(" in text:
        text, _, params = text[:-1].partition("(")
        arity = len([p for p in params.split(",") if p.strip()])
        text = text.strip()
    if text.startswith("new "):
        cls = text[4:].strip()
        if not cls:
            raise InputError(f"method {spec!r}: expected `new Class`")
        return cls, CONSTRUCTOR, arity
    for sep in ("::", "#"):
        if sep in text:
            cls, _, method = text.rpartition(sep)
            break
    else:
        cls, _, method = text.rpartition(".")
    if method in ("new", "<init>"):
        method = CONSTRUCTOR
    if not cls or not method or not (method == CONSTRUCTOR or method.isidentifier()):
        raise InputError(
            f"method {spec!r}: expected Class.method (or pkg.Class.method, Class.<init>, new Class)"
        )
    return cls, method, arity


def find_target(project: Project, spec: str, arity: int | None = None) -> Target:
    cls, method, listed = parse_spec(spec)
    if listed is not None and arity is not None and listed != arity:
        raise InputError(f"--arity {arity}: {spec} lists {listed} parameter(s)")
    arity = listed if arity is None else arity
    candidates = [fqn for fqn in project.types if fqn == cls or fqn.endswith("." + cls)]
    if not candidates:
        close = difflib.get_close_matches(cls.rsplit(".", 1)[-1], list(project.by_name), n=3)
        hint = f"; did you mean {', '.join(close)}?" if close else ""
        raise InputError(f"method {spec!r}: no class {cls} in the repository{hint}")
    if method != CONSTRUCTOR:
        having = [c for c in candidates if overloads(project, c, method)]
        if not having:
            names = sorted({m.name for c in candidates for m in all_methods(project, c)})
            close = difflib.get_close_matches(method, names, n=3)
            hint = f"; did you mean {', '.join(close)}?" if close else ""
            raise InputError(f"method {spec!r}: {cls} has no method {method}{hint}")
        candidates = having
    if len(candidates) > 1:
        raise InputError(
            f"method {spec!r}: {cls} is ambiguous ({', '.join(sorted(candidates))}); qualify it"
        )
    target = Target(candidates[0], method, arity)
    if arity is not None:
        decls = overloads(project, target.fqn, method)
        if decls and not any(len(m.params) == arity for m in decls):
            have = ", ".join(str(n) for n in sorted({len(m.params) for m in decls}))
            raise InputError(
                f"--arity {arity}: {spec} takes {have} parameter(s) in its declarations"
            )
    return target


def _caller(project: Project, f: FileIndex, site: CallSite) -> tuple[str, tuple]:
    """Label and identity of the enclosing method; static initialisers of one class (every
    static block and field initialiser) are one method, as in the class file."""
    if site.method < 0:
        owner = project.label(site.owner) if site.owner else Path(f.path).stem
        return owner, (site.owner or f.path,)
    key = f.method_key(site.method)
    return f"{project.label(key[0])}.{key[1]}", key


class SiteIndex:
    """Call sites by name. Lazy by default (decodes only files that mention a name, which is
    what keeps a single query fast); ``eager`` decodes everything once for many queries."""

    def __init__(self, project: Project, eager: bool = False) -> None:
        self.files = project.files
        self.by_name: dict[str, list[tuple[FileIndex, CallSite]]] | None = None
        if eager:
            self.by_name = defaultdict(list)
            for f in self.files:
                for site in f.sites():
                    self.by_name[site.name].append((f, site))

    def named(self, names: tuple[str, ...]) -> list[tuple[FileIndex, CallSite]]:
        if self.by_name is not None:
            return [item for n in names for item in self.by_name.get(n, [])]
        out: list[tuple[FileIndex, CallSite]] = []
        for f in self.files:
            if any(f.mentions(n) for n in names):
                out.extend((f, s) for s in f.sites(names))
        return out


def find_callers(
    project: Project,
    target: Target,
    sites: SiteIndex | None = None,
    read_source: bool = True,
    root: Path | None = None,
) -> CallersResult:
    sites = sites or SiteIndex(project)
    matcher = Matcher(project, target)
    found: list[Site] = []
    names: tuple[str, ...] = (target.method,)
    if target.is_constructor:
        names = (project.types[target.fqn].name, CONSTRUCTOR)
    for f, site in sites.named(names):
        verdict = matcher.match(f, site)
        if verdict is None:
            continue
        caller, key = _caller(project, f, site)
        found.append(
            Site(
                f.path,
                site.line,
                caller,
                key,
                _KINDS[site.kind],
                verdict[0],
                verdict[1],
                project.scope(f),
                column=site.column,
                receiver=matcher.receiver_class(f, site),
            )
        )
    found.sort(key=lambda s: (s.scope != "production", s.file, s.line, s.column))
    found = list(dict.fromkeys(found))
    if read_source and root is not None:
        found = _with_source(found, root)
    counts = dict.fromkeys(SCOPES, 0)
    for s in found:
        counts[s.scope] = counts.get(s.scope, 0) + 1
    distinct = len({s.caller_key for s in found if s.scope == "production"})
    return CallersResult(target, target.display(project), found, counts, distinct)


def _with_source(found: list[Site], root: Path) -> list[Site]:
    lines_of: dict[str, list[str]] = {}
    out = []
    for s in found:
        if s.file not in lines_of:
            try:
                with open(os.path.join(root, s.file), "rb") as fh:
                    raw = fh.read()
            except OSError:
                raw = b""
            lines_of[s.file] = raw.decode("utf-8", "replace").splitlines()
        lines = lines_of[s.file]
        source = quote(lines[s.line - 1], s.column) if 0 < s.line <= len(lines) else ""
        out.append(replace(s, source=source))
    return out
