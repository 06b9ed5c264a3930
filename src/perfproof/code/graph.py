"""The call graph as the reach walk reads it: who calls a method, and whether surely.

The index stores call sites, not edges; :func:`perfproof.code.callers.find_callers` tells which
sites bind to a declaration. A method ``M`` is called by:

- every site binding to ``M``'s own declaration;
- every site binding to a declaration ``M`` overrides (``Encoder.encode`` for
  ``VarIntEncoder.encode``, also when the supertype's parameter is a type variable:
  ``Serializer<T>.write(Kryo, Output, T)`` is overridden by ``write(Kryo, Output,
  BigDecimal)``) whose receiver may run ``M``. Such an edge is *dispatch* — which override
  runs is decided at run time — unless the source fixes the receiver's class
  (:meth:`perfproof.code.binding.Matcher.receiver_class`) to one that runs ``M``; then it is as
  sure as a call naming ``M`` (``s.enc.encode(...)`` with ``final Encoder<Integer> enc = new
  VarIntEncoder()``). A fixed receiver of another class (the decoy ``new FixedEncoder()``)
  gives no edge at all. A site binding to ``M`` itself only by name, its receiver's type
  unknown (an untyped lambda parameter, a type variable as in ``E enc`` with ``<E extends
  Encoder<Integer>>``, a generic result), is a dispatch edge too when ``M`` overrides
  something: any class with the method may receive it;
- for an override of a method of a type outside the repository (``SpscArrayQueue.offer``
  overriding ``java.util.Queue.offer``), the calls on receivers declared with that type
  (:mod:`perfproof.code.external`), as dispatch;
- for a method giving a field a lambda, a method reference or an anonymous class, the calls
  on that field;
- for a method of an anonymous class, the method creating the instance (:func:`creator`);
- for an instance initialiser, every constructor call of its class, whatever its arguments
  (the initialiser runs in each), and for a class's initialiser or no-argument constructor,
  every constructor of its direct subclasses (``super()`` is implicit in them).

The walk asks for each method's callers once per search, and both of its passes (all edges,
sure edges only) share the answers.
"""

from __future__ import annotations

import re
from collections import defaultdict
from typing import NamedTuple

from perfproof.code.binding import CONSTRUCTOR, Matcher, Target
from perfproof.code.callers import Site, SiteIndex, find_callers
from perfproof.code.external import external_sites, external_supertypes
from perfproof.code.memo import Memo
from perfproof.code.model import CallSite, FileIndex
from perfproof.code.project import Project

MethodKey = tuple[str, str, tuple[str, ...]]
_TYPE_VARIABLE = re.compile(r"[A-Z][A-Z0-9]?")
_PRIMITIVES = frozenset({"byte", "short", "char", "int", "long", "float", "double", "boolean"})


class Edge(NamedTuple):
    """One caller of a method."""

    caller: MethodKey
    via: str
    """``""`` when the call surely runs the method (it names it, or its receiver's class is
    fixed to one that runs it); otherwise the label of the supertype declaration it names."""


def label(project: Project, key: MethodKey) -> str:
    owner, name, params = key
    cls = project.label(owner)
    if name == CONSTRUCTOR:
        return f"new {cls}({', '.join(params)})"
    return f"{cls}.{name}({', '.join(params)})"


def _same_type(a: str, b: str) -> bool:
    dims_a, dims_b = a.count("[]"), b.count("[]")
    base_a, base_b = a.replace("[]", ""), b.replace("[]", "")
    if base_a == base_b and dims_a == dims_b:
        return True
    if base_a.rsplit(".", 1)[-1] == base_b.rsplit(".", 1)[-1] and dims_a == dims_b:
        return True  # a qualified and a simple name of one type
    for var, other, var_dims, other_dims in ((a, b, dims_a, dims_b), (b, a, dims_b, dims_a)):
        base_var, base_other = var.replace("[]", ""), other.replace("[]", "")
        # ``T`` stands for any reference type: ``T`` matches ``int[]`` but not ``int``
        reference = other_dims > var_dims or base_other not in _PRIMITIVES
        if _TYPE_VARIABLE.fullmatch(base_var) and other_dims >= var_dims and reference:
            return True
    return False


def same_parameters(own: tuple[str, ...], declared: tuple[str, ...]) -> bool:
    """Whether a method with parameters ``own`` overrides a same-named one with ``declared``:
    the erased types agree, a type variable (``T``) standing for any reference type."""
    return len(own) == len(declared) and all(map(_same_type, own, declared))


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
            m.kind == "method" and m.name == name and same_parameters(m.params, params)
            for m in project.methods_of(between)
        ):
            return False  # ``between`` overrides it, and ``cls`` runs that one
    return True


def declarations(project: Project, key: MethodKey) -> list[Target]:
    """The method's own declaration and, for a method, those it overrides in repository
    types. An instance initialiser (and a no-argument constructor beside one: the two share
    a key) is run by every constructor, so its own target takes any argument count."""
    owner, name, params = key
    if owner not in project.types:
        return []
    if name == CONSTRUCTOR:
        init = not params and any(m.kind == "init" for m in project.methods_of(owner))
        return [
            Target(owner, name, None, None) if init else Target(owner, name, len(params), params)
        ]
    out = [Target(owner, name, len(params), params)]
    for sup in project.ancestors(owner):
        found = next(
            (
                m
                for m in project.methods_of(sup)
                if m.name == name and m.kind == "method" and same_parameters(params, m.params)
            ),
            None,
        )
        if found is not None:
            out.append(Target(sup, name, len(params), found.params))
    return out


def creator(project: Project, key: MethodKey) -> MethodKey | None:
    """For a method of an anonymous class, the method whose body creates the instance: it is
    charged with what the instance's methods do, as with a lambda's body (the instance is
    mostly handed to code outside the repository, a JDK executor or stream, that calls it)."""
    t = project.types.get(key[0])
    if t is None or t.kind != "anonymous":
        return None
    f = project.type_file[key[0]]
    own = next((m for m in project.methods_of(key[0]) if (m.name, m.params) == key[1:]), None)
    if own is None:
        return None
    around = [
        (m.end - m.start, i)
        for i, m in enumerate(f.methods)
        if m.owner != key[0] and m.start <= own.start < m.end
    ]
    return f.method_key(min(around)[1]) if around else None


class CallGraph:
    """Callers of methods of one project, computed on demand and kept for the search."""

    def __init__(self, project: Project, sites: SiteIndex | None = None) -> None:
        self.project = project
        self.sites = sites or SiteIndex(project, eager=True)
        self._callers: Memo[MethodKey, list[Edge]] = Memo(self._find)
        self._sites: Memo[Target, list[Site]] = Memo(self._sites_binding)
        self._external: dict[str, list[tuple[FileIndex, CallSite, str]]] = {}
        self._receivers: dict[str, list[tuple[FileIndex, CallSite]]] | None = None
        self._subclasses: dict[str, list[str]] | None = None

    def sites_of(self, target: Target) -> list[Site]:
        """Sites binding to one declaration: an interface method is the declaration of every
        implementation the walk meets, so it is asked for once."""
        return self._sites[target]

    def _sites_binding(self, target: Target) -> list[Site]:
        return find_callers(self.project, target, self.sites, read_source=False).sites

    def callers(self, key: MethodKey) -> list[Edge]:
        return self._callers[key]

    def _find(self, key: MethodKey) -> list[Edge]:
        p = self.project
        edges: list[Edge] = []
        targets = declarations(p, key)
        overridden = label(p, (targets[1].fqn, key[1], key[2])) if len(targets) > 1 else ""
        for i, target in enumerate(targets):
            named = label(p, (target.fqn, key[1], key[2])) if i else ""
            for site in self.sites_of(target):
                if site.receiver is not None and not runs(p, site.receiver, key):
                    continue  # the receiver's class runs another override
                if len(site.caller_key) != 3:
                    continue  # a static initialiser: runs once, not per operation
                # a receiver whose type cannot be told (an untyped lambda parameter, a type
                # variable, a generic result) may be any class with the method
                guessed = not i and site.confidence == "likely"
                via = "" if site.receiver else overridden if guessed else named
                edges.append(Edge(site.caller_key, via))
        edges += self._through_external(key)
        edges += self._through_fields(key)
        owner, name, params = key
        made = creator(p, key)
        if made is not None:
            edges.append(Edge(made, ""))
        if name == CONSTRUCTOR and not params:
            for sub in self.subclasses(owner):
                ctors = [m for m in p.methods_of(sub) if m.kind == "constructor"]
                keys = [(sub, CONSTRUCTOR, m.params) for m in ctors] or [(sub, CONSTRUCTOR, ())]
                edges.extend(Edge(k, "") for k in keys)
        return list(dict.fromkeys(edges))

    def _through_external(self, key: MethodKey) -> list[Edge]:
        """Calls on a receiver declared with a type outside the repository that the method's
        class extends or implements (:mod:`perfproof.code.external`)."""
        p = self.project
        owner, name, params = key
        if name == CONSTRUCTOR or any(
            m.static for m in p.methods_of(owner) if m.name == name and m.params == params
        ):
            return []
        supers = external_supertypes(p, owner)
        if not supers:
            return []
        if name not in self._external:
            self._external[name] = list(external_sites(p, self.sites.named((name,))))
        matcher = Matcher(p, Target(owner, name, len(params)))
        edges: list[Edge] = []
        for f, site, typ in self._external[name]:
            if typ not in supers or site.arity not in (-1, len(params)):
                continue
            fixed = matcher.receiver_class(f, site)
            if (site.recv_new and fixed is None) or (fixed and not runs(p, fixed, key)):
                continue  # a class outside the repository, or one running another override
            if site.method < 0:
                continue
            caller = f.method_key(site.method)
            edges.append(Edge(caller, "" if fixed else f"{typ}.{name}({', '.join(params)})"))
        return edges

    def _through_fields(self, key: MethodKey) -> list[Edge]:
        """Calls on a field this method gives a lambda, a method reference or an anonymous
        class (``op = v -> pack(v)`` in ``@Setup``, ``static final IntUnaryOperator OP =
        ...``): they run the value's code, which the index keeps as part of this method."""
        p = self.project
        f = p.type_file.get(key[0])
        given = f.functional if f is not None else ()
        if f is None or not given:
            return []
        mine = {i for i, m in enumerate(f.methods) if (m.owner, m.name, m.params) == key}
        edges: list[Edge] = []
        for holder, field_name, method in given:
            if method not in mine:
                continue
            for g, site in self._on_field(field_name):
                if site.recv in ("var", "name", "field") and holder:
                    found = p.find_field(site.owner, field_name)
                    if found is None or found[0] != holder:
                        continue  # a local, or another class's field of that name
                if site.method >= 0:
                    edges.append(Edge(g.method_key(site.method), ""))
        return edges

    def _on_field(self, name: str) -> list[tuple[FileIndex, CallSite]]:
        """Calls whose receiver is named ``name`` (``op.apply(x)``, ``state.op.apply(x)``),
        for the field names some file gives a functional value."""
        if self._receivers is None:
            names = {n for g in self.project.files for _h, n, _m in g.functional}
            self._receivers = {}
            for g in self.project.files if names else ():
                for site in g.sites():
                    last = site.recv_text.rsplit(".", 1)[-1]
                    if site.kind == "call" and last in names and site.recv != "path":
                        self._receivers.setdefault(last, []).append((g, site))
        return self._receivers.get(name, [])

    def subclasses(self, fqn: str) -> list[str]:
        """Repository classes naming ``fqn`` as their superclass."""
        if self._subclasses is None:
            found: dict[str, list[str]] = defaultdict(list)
            p = self.project
            for t in p.types.values():
                if t.superclass and t.kind == "class":
                    sup = p.resolve(p.type_file[t.fqn], t.outer or "", t.superclass)
                    if sup is not None and sup != t.fqn:
                        found[sup].append(t.fqn)
            self._subclasses = found
        return self._subclasses.get(fqn, [])


def dispatching_sites(
    project: Project, key: MethodKey, sites: SiteIndex
) -> tuple[list[str], list[Site]]:
    """Calls that reach the method ``key`` through a declaration it overrides: the labels of
    those supertype declarations, and the sites calling them whose receiver may run ``key``
    (unknown class, or one that runs it). A method called only through its interface has no
    call naming it, yet its callers are all of these."""
    found: list[Site] = []
    supers = declarations(project, key)[1:]
    for target in supers:
        result = find_callers(project, target, sites, read_source=False)
        found += [s for s in result.sites if s.receiver is None or runs(project, s.receiver, key)]
    return [label(project, (t.fqn, key[1], key[2])) for t in supers], found
