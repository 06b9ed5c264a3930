"""Whether a call site binds to a given method, and how surely.

``exact`` means the compiler would bind the site to the method: a qualified static call, a
static import, an unqualified call inside the class or a subclass that does not override it,
``super.m()``, or a receiver whose static type — declared (local, parameter, field, also
inherited or reached through a path), cast, ``new``, or the declared return type of a
repository method — is the class or a subclass. ``likely`` means the receiver's type cannot
be told (an untyped lambda parameter, a generic result) but the name and argument count match
and the file can see the class (imports it or shares its package). Everything else, in
particular same-named methods of other classes, does not bind.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from perfproof.code.model import CallSite, FileIndex, MethodDecl
from perfproof.code.overload import MAYBE, NO, YES, can_pick
from perfproof.code.project import Project

CONSTRUCTOR = "<init>"
TYPE_VARIABLE = "type-variable"
"""How a site binds whose receiver is typed by a type variable: the index keeps no bounds, so
it may be any class with the method, as a call through the bound's declaration would."""


@dataclass(frozen=True)
class Target:
    """The method asked about: declaring type, name (``<init>`` for constructors) and,
    with ``--arity``, the overload's parameter count."""

    fqn: str
    method: str
    arity: int | None = None
    params: tuple[str, ...] | None = None
    """The overload's declared parameter types (erased): a call binds only if its argument
    types let Java pick that overload (:mod:`perfproof.code.overload`). None: any overload
    of the arity."""

    @property
    def is_constructor(self) -> bool:
        return self.method == CONSTRUCTOR

    def display(self, project: Project) -> str:
        name = project.label(self.fqn)
        return f"new {name}" if self.is_constructor else f"{name}.{self.method}"


# calls whose result is a JDK stream, collection view, string or class: a method called on
# such a result is never a method of a repository class
_JDK_RESULTS = frozenset(
    {
        "stream",
        "parallelStream",
        "filter",
        "map",
        "flatMap",
        "sorted",
        "distinct",
        "peek",
        "limit",
        "skip",
        "boxed",
        "mapToObj",
        "mapToInt",
        "mapToLong",
        "entrySet",
        "keySet",
        "values",
        "chars",
        "lines",
        "toString",
        "getClass",
        "trim",
        "substring",
    }
)
_TYPE_VARIABLE = re.compile(r"[A-Z][A-Z0-9]?")


def all_methods(project: Project, fqn: str) -> Iterator[MethodDecl]:
    """Methods declared in ``fqn`` and in its repository supertypes."""
    for cur in (fqn, *project.ancestors(fqn)):
        yield from project.methods_of(cur)


def overloads(project: Project, fqn: str, method: str) -> list[MethodDecl]:
    """Declarations of ``method`` in ``fqn`` and its supertypes (constructors: own only)."""
    if method == CONSTRUCTOR:
        return [m for m in project.methods_of(fqn) if m.kind == "constructor"]
    return [m for m in all_methods(project, fqn) if m.name == method and m.kind == "method"]


class Matcher:
    """Decides for one target whether a call site binds to it, and how surely."""

    def __init__(self, project: Project, target: Target) -> None:
        self.p = project
        self.t = target
        self.decls = overloads(project, target.fqn, target.method)
        t_file = project.type_file[target.fqn]
        self.package = t_file.package
        top = target.fqn
        while project.types[top].outer:
            top = project.types[top].outer or top
        self.visible_names = {target.fqn, top}

    def arity_ok(self, n: int) -> bool:
        if n < 0:
            return True
        want = self.t.arity
        if not self.decls:
            if self.t.is_constructor and self.p.types[self.t.fqn].kind != "record":
                return n == 0 and want in (None, 0)
            return want is None or n == want
        return any(m.accepts(n) and (want is None or len(m.params) == want) for m in self.decls)

    def is_target_type(self, fqn: str | None) -> bool:
        return fqn is not None and self.p.is_subtype(fqn, self.t.fqn)

    def sees_target(self, f: FileIndex) -> bool:
        if f.package == self.package:
            return True
        for imp in f.imports:
            if imp.name in self.visible_names:
                return True
            if imp.wildcard and not imp.static and imp.name == self.package:
                return True
            if imp.static and imp.name.rsplit(".", 1)[0] in self.visible_names:
                return True
        return False

    def match(self, f: FileIndex, site: CallSite) -> tuple[str, str] | None:
        if self.t.is_constructor:
            return self._constructor(f, site)
        if site.kind not in ("call", "ref") or site.name != self.t.method:
            return None
        if not self.arity_ok(site.arity) or not self.overload_ok(f, site):
            return None
        return self._receiver(f, site)

    def overload_ok(self, f: FileIndex, site: CallSite) -> bool:
        """Whether the site's argument types let Java pick the target's overload."""
        want = self.t.params
        if want is None or not site.args:
            return True
        mine = [d for d in self.decls if d.params == want]
        if not mine:
            return True
        target = next((d for d in mine if d.owner == self.t.fqn), mine[0])

        def subtype(arg: str, param: str) -> int:
            a = self.p.resolve(f, site.owner, arg)
            decl_file = self.p.type_file.get(target.owner)
            b = self.p.resolve(decl_file, target.owner, param) if decl_file else None
            if a is None or b is None:
                return MAYBE  # a class outside the repository may be a subtype of either
            return YES if self.p.is_subtype(a, b) else NO

        return can_pick(target, self.decls, site.args, subtype)

    def receiver_class(self, f: FileIndex, site: CallSite) -> str | None:
        """The repository class the receiver of ``site`` is exactly an instance of, when the
        source fixes it: ``new C().m()``, an effectively final local or a final field
        initialised with ``new C(...)`` (also reached through ``state.field`` or
        ``Holder.FIELD``). ``None`` when the receiver may be any subtype of its static type:
        parameters, non-final fields, method results, anything not written down.

        Binding does not use it (a call through the supertype still binds to the supertype's
        declaration); :mod:`perfproof.code.reach` does, to drop overrides the call cannot run.
        """
        if site.kind not in ("call", "ref"):
            return None
        if site.recv_new:
            return self.p.resolve(f, site.owner, site.recv_new)
        if site.recv in ("name", "field"):
            return self.p.field_class(site.owner, site.recv_text)
        if site.recv == "dotted":
            head, _, last = site.recv_text.rpartition(".")
            if not head:
                return None
            state, holder, _via = self._path_type(f, site.owner, head, site.recv_type)
            if state != "resolved" or holder is None:
                return None
            return self.p.field_class(holder, last)
        return None

    def _constructor(self, f: FileIndex, site: CallSite) -> tuple[str, str] | None:
        if site.kind == "new" or (site.kind == "ref" and site.name == CONSTRUCTOR):
            hit = self.p.resolve(f, site.owner, site.recv_text) == self.t.fqn
        elif site.kind == "super":
            hit = self.t.fqn in self.p.supertypes(site.owner)
        elif site.kind == "this":
            hit = site.owner == self.t.fqn
        else:
            return None
        if not hit or not self.arity_ok(site.arity) or not self.overload_ok(f, site):
            return None
        return "exact", "constructor"

    def _typed(self, f: FileIndex, owner: str, typ: str | None) -> tuple[str, str] | None:
        if typ is None:
            return self._likely(f)
        resolved = self.p.resolve(f, owner, typ)
        if resolved is None and _TYPE_VARIABLE.fullmatch(typ):
            # ``E enc`` with ``<E extends Encoder<Integer>>``: any class within the bound
            return ("likely", TYPE_VARIABLE) if self.sees_target(f) else None
        return ("exact", "typed-receiver") if self.is_target_type(resolved) else None

    def _field(self, f: FileIndex, owner: str, name: str) -> tuple[str, str] | None:
        """A receiver that names an inherited or outer field: typed where it is declared."""
        found = self.p.find_field(owner, name)
        if found is None:
            return self._likely(f)
        holder, typ = found
        return self._typed(self.p.type_file[holder], holder, typ)

    def _likely(self, f: FileIndex) -> tuple[str, str] | None:
        if self.sees_target(f):
            via = "same-package" if f.package == self.package else "imports-class"
            return "likely", via
        return None

    def _receiver(self, f: FileIndex, site: CallSite) -> tuple[str, str] | None:
        recv = site.recv
        if recv == "none":
            return self._unqualified(f, site)
        if recv == "this":
            owner = site.owner
            if owner == self.t.fqn:
                return "exact", "same-class"
            if self.is_target_type(owner) and not self.p.declares(owner, self.t.method):
                return "exact", "subclass"
            return None
        if recv == "super":
            if self.t.fqn in self.p.ancestors(site.owner):
                return "exact", "subclass"
            return None
        if recv == "var":
            return self._typed(f, site.owner, site.recv_type)
        if recv == "type":
            resolved = self.p.resolve(f, site.owner, site.recv_type or "")
            return ("exact", "typed-receiver") if self.is_target_type(resolved) else None
        if recv == "field":
            return self._field(f, site.owner, site.recv_text)
        if recv == "name":
            return self._named(f, site)
        if recv in ("dotted", "path"):
            return self._path(f, site)
        if site.recv_text in _JDK_RESULTS:
            return None  # the result of a JDK stream, view or string call
        return self._likely(f)

    def _path_type(
        self, f: FileIndex, owner: str, path: str, head_type: str | None
    ) -> tuple[str, str | None, str]:
        """The static type of a receiver path: ``a.b.C`` (a type), ``C.FIELD``, ``this.x.y``,
        ``local.field`` (``head_type`` is the local's declared type, ``?`` if it has none),
        ``helper().x``, ``Errors.forException(e)``, ``acl.entry().operation()``; fields are
        typed by their declarations and calls by the declared return types.

        Returns (state, fqn, via): state ``resolved`` (a repository type), ``external`` (a
        class outside the repository) or ``unknown`` (the path cannot be typed).
        """
        parts = path.split(".")
        calls = any(p.endswith("()") for p in parts)
        via = "return-type" if calls else "typed-receiver"
        if head_type == "?":
            return "unknown", None, via
        head_field = self.p.find_field(owner, parts[0])
        current: str | None
        state = "resolved"
        if parts[0] == "this":
            current, rest = owner, parts[1:]
        elif head_type is not None:
            current, rest = self.p.resolve(f, owner, head_type), parts[1:]
        elif parts[0].endswith("()"):
            state, current = self._own_call_type(f, owner, parts[0][:-2])
            rest = parts[1:]
        elif head_field is not None:
            holder, typ = head_field
            current, rest = self.p.resolve(self.p.type_file[holder], holder, typ), parts[1:]
        else:
            names = next((i for i, p in enumerate(parts) if p.endswith("()")), len(parts))
            for i in range(names, 0, -1):
                current = self.p.resolve(f, owner, ".".join(parts[:i]))
                if current is not None:
                    rest = parts[i:]
                    via = "qualified" if not rest else via
                    break
            else:
                if parts[-1][:1].isupper() and all(p[:1].islower() for p in parts[:-1]):
                    return "external", None, via  # a fully qualified class elsewhere
                return "unknown", None, via
        for segment in rest:
            if state == "unknown":
                return "unknown", None, via
            if current is None:
                return "unknown", None, via  # through a class outside the repository
            if segment.endswith("()"):
                returns = self._returns(current, segment[:-2])
                if returns is None:
                    return "unknown", None, via  # not declared in the repository
                state, current = self._pick(returns)
            else:
                found = self.p.find_field(current, segment)
                if found is None:
                    return "unknown", None, via
                holder, typ = found
                state, current = self._pick(
                    [(typ, self.p.resolve(self.p.type_file[holder], holder, typ))]
                )
        if state == "unknown":
            return "unknown", None, via
        return ("resolved" if current else "external"), current, via

    def _pick(self, typed: list[tuple[str, str | None]]) -> tuple[str, str | None]:
        """One type out of the declared types of overloads (or one field): the target when
        any overload returns it; a type variable (``T``) cannot be told."""
        resolved = [fqn for _text, fqn in typed if fqn is not None]
        for fqn in resolved:
            if self.is_target_type(fqn):
                return "resolved", fqn
        if resolved:
            return "resolved", resolved[0]
        if any(_TYPE_VARIABLE.fullmatch(text) for text, _fqn in typed):
            return "unknown", None
        return "resolved", None  # a class outside the repository

    def _returns(self, fqn: str, name: str) -> list[tuple[str, str | None]] | None:
        """(declared, resolved) return types of ``fqn``'s methods called ``name``, own or
        inherited; ``None`` when the repository declares no such method there."""
        for cur in (fqn, *self.p.ancestors(fqn)):
            returns = [m.returns for m in self.p.methods_of(cur) if m.name == name and m.returns]
            if returns:
                context = self.p.type_file[cur]
                return [(r, self.p.resolve(context, cur, r)) for r in returns]
        return None

    def _own_call_type(self, f: FileIndex, owner: str, name: str) -> tuple[str, str | None]:
        """Type of an unqualified call ``name()``: a method of the class, an outer class or a
        static import."""
        scope: str | None = owner
        while scope:
            returns = self._returns(scope, name)
            if returns is not None:
                return self._pick(returns)
            scope = self.p.types[scope].outer if scope in self.p.types else None
        for imp in f.imports:
            if not imp.static:
                continue
            holder = imp.name if imp.wildcard else imp.name.rpartition(".")[0]
            if (imp.wildcard or imp.name.endswith("." + name)) and holder in self.p.types:
                returns = self._returns(holder, name)
                if returns is not None:
                    return self._pick(returns)
        return "unknown", None

    def _path(self, f: FileIndex, site: CallSite) -> tuple[str, str] | None:
        state, fqn, via = self._path_type(f, site.owner, site.recv_text, site.recv_type)
        if state == "unknown":
            last = site.recv_text.rsplit(".", 1)[-1].removesuffix("()")
            return None if last in _JDK_RESULTS else self._likely(f)
        return ("exact", via) if self.is_target_type(fqn) else None

    def _named(self, f: FileIndex, site: CallSite) -> tuple[str, str] | None:
        name = site.recv_text
        if self.p.find_field(site.owner, name) is not None:
            return self._field(f, site.owner, name)
        resolved = self.p.resolve(f, site.owner, name)
        if resolved is not None:
            return ("exact", "qualified") if self.is_target_type(resolved) else None
        for imp in f.imports:
            if imp.static and not imp.wildcard and imp.name.rsplit(".", 1)[-1] == name:
                holder = imp.name.rsplit(".", 1)[0]
                if holder in self.p.types and name in self.p.fields_of(holder):
                    return self._field(f, holder, name)
                return None
        if name[:1].isupper():
            return None  # a class outside the repository
        return self._likely(f)

    def _unqualified(self, f: FileIndex, site: CallSite) -> tuple[str, str] | None:
        scope: str | None = site.owner
        method = self.t.method
        while scope:
            if scope == self.t.fqn:
                return "exact", "same-class"
            if self.p.declares(scope, method, site.arity):
                return None  # the class's own method of that name hides the target
            if self.is_target_type(scope):
                return "exact", "subclass"
            scope = self.p.types[scope].outer if scope in self.p.types else None
        for imp in f.imports:
            if not imp.static:
                continue
            if (not imp.wildcard and imp.name == f"{self.t.fqn}.{method}") or (
                imp.wildcard and imp.name == self.t.fqn
            ):
                return "exact", "static-import"
        return None
