"""The repository-wide view: every type by name, and what a type name in a file refers to.

Java name resolution is done the way the compiler does it for the cases that matter when
counting callers: nested and inherited member types, types of the same file, single-type
imports, the same package, on-demand imports, then fully qualified names. Names that resolve
to nothing in the repository (JDK and library types) stay unresolved, which callers treat as
"not the class you asked about" rather than a guess.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field

from perfproof.code.memo import Memo
from perfproof.code.model import FileIndex, MethodDecl, TypeDecl


@dataclass
class Project:
    files: list[FileIndex]
    scopes: dict[str, str] = field(default_factory=dict)
    """File path -> production, test or benchmark."""
    types: dict[str, TypeDecl] = field(default_factory=dict)
    type_file: dict[str, FileIndex] = field(default_factory=dict)
    by_name: dict[str, list[str]] = field(default_factory=lambda: defaultdict(list))
    _methods: dict[str, list[MethodDecl]] = field(default_factory=dict)
    _fields: dict[str, dict[str, str]] = field(default_factory=dict)
    _supers: dict[str, tuple[str, ...]] = field(default_factory=dict)
    _names: dict[tuple[str, str, str], str | None] = field(default_factory=dict)
    _assigned: dict[str, list[str]] | None = None
    _ancestors: Memo[str, list[str]] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        self._ancestors = Memo(self._lineage)

    @classmethod
    def build(cls, files: Iterable[FileIndex], scopes: dict[str, str]) -> Project:
        project = cls(list(files), dict(scopes))
        for f in project.files:
            for t in f.types:
                # the first declaration wins on duplicates (generated copies, split sources)
                if t.fqn in project.types:
                    continue
                project.types[t.fqn] = t
                project.type_file[t.fqn] = f
                project.by_name[t.name].append(t.fqn)
        return project

    def methods_of(self, fqn: str) -> list[MethodDecl]:
        """Methods declared in a repository type (read from its file on first use)."""
        if fqn not in self._methods:
            f = self.type_file.get(fqn)
            self._methods[fqn] = [m for m in f.methods if m.owner == fqn] if f else []
        return self._methods[fqn]

    def fields_of(self, fqn: str) -> dict[str, str]:
        """Field name -> declared type (erased) of a repository type."""
        if fqn not in self._fields:
            f = self.type_file.get(fqn)
            found: dict[str, str] = {}
            for fd in f.fields if f else ():
                if fd.owner == fqn:
                    found.setdefault(fd.name, fd.type)
            self._fields[fqn] = found
        return self._fields[fqn]

    def scope(self, f: FileIndex) -> str:
        return self.scopes.get(f.path, "production")

    # name resolution -------------------------------------------------------------------------

    def resolve(self, f: FileIndex, owner: str, name: str) -> str | None:
        """The fully qualified name ``name`` (simple or dotted) denotes in ``f`` inside ``owner``.

        Returns a repository type's name, or ``None`` when it names nothing in the repository.
        """
        key = (f.path, owner, name)
        if key not in self._names:
            self._names[key] = self._resolve(f, owner, name)
        return self._names[key]

    def _resolve(self, f: FileIndex, owner: str, name: str) -> str | None:
        head, _, rest = name.partition(".")
        base = self._resolve_simple(f, owner, head)
        if base is not None:
            candidate = f"{base}.{rest}" if rest else base
            return candidate if candidate in self.types else None
        if not rest:
            return None
        parts = name.split(".")
        for i in range(len(parts), 1, -1):
            prefix = ".".join(parts[:i])
            if prefix in self.types:
                candidate = ".".join([prefix, *parts[i:]])
                return candidate if candidate in self.types else None
        return None

    def _resolve_simple(self, f: FileIndex, owner: str, name: str) -> str | None:
        scope: str | None = owner or None
        while scope:
            if self.types[scope].name == name if scope in self.types else False:
                return scope
            member = self._member_type(scope, name, 0)
            if member is not None:
                return member
            scope = self.types[scope].outer if scope in self.types else None
        for t in f.types:
            if t.outer is None and t.name == name:
                return t.fqn
        for imp in f.imports:
            if not imp.static and not imp.wildcard and imp.name.rsplit(".", 1)[-1] == name:
                return imp.name if imp.name in self.types else None
        same_package = f"{f.package}.{name}" if f.package else name
        if same_package in self.types:
            return same_package
        for imp in f.imports:
            if imp.wildcard:
                candidate = f"{imp.name}.{name}"
                if candidate in self.types:
                    return candidate
        if name in self.types:
            return name
        return None

    def _member_type(self, fqn: str, name: str, depth: int) -> str | None:
        """A nested type ``name`` declared in ``fqn`` or inherited from its supertypes."""
        direct = f"{fqn}.{name}"
        if direct in self.types:
            return direct
        if depth > 8:
            return None
        for sup in self.supertypes(fqn):
            found = self._member_type(sup, name, depth + 1)
            if found is not None:
                return found
        return None

    # hierarchy -------------------------------------------------------------------------------

    def supertypes(self, fqn: str) -> tuple[str, ...]:
        """Direct supertypes of ``fqn`` that are in the repository."""
        if fqn not in self._supers:
            self._supers[fqn] = ()  # guards against cycles while resolving
            t = self.types.get(fqn)
            found: list[str] = []
            if t is not None:
                f = self.type_file[fqn]
                context = t.outer or ""
                for written in (t.superclass, *t.interfaces):
                    if written:
                        resolved = self.resolve(f, context, written)
                        if resolved is not None and resolved != fqn:
                            found.append(resolved)
            self._supers[fqn] = tuple(found)
        return self._supers[fqn]

    def ancestors(self, fqn: str) -> list[str]:
        """All repository supertypes, nearest first."""
        return self._ancestors[fqn]

    def _lineage(self, fqn: str) -> list[str]:
        seen: list[str] = []
        queue = list(self.supertypes(fqn))
        while queue:
            cur = queue.pop(0)
            if cur in seen or cur == fqn:
                continue
            seen.append(cur)
            queue.extend(self.supertypes(cur))
        return seen

    def is_subtype(self, fqn: str, target: str) -> bool:
        return fqn == target or target in self.ancestors(fqn)

    def find_field(self, owner: str, name: str) -> tuple[str, str] | None:
        """(declaring type, declared type text) of the field ``name`` visible in ``owner``."""
        scope: str | None = owner
        while scope:
            for cur in (scope, *self.ancestors(scope)):
                typ = self.fields_of(cur).get(name)
                if typ is not None:
                    return cur, typ
            scope = self.types[scope].outer if scope in self.types else None
        return None

    def field_class(self, owner: str, name: str) -> str | None:
        """The repository class the field ``name`` visible in ``owner`` always holds (every
        value its file gives it is ``new C(...)``, :attr:`FieldDecl.new`, and no other file
        assigns it), resolved where it is declared; ``None`` when it may hold any subtype of
        its declared type."""
        found = self.find_field(owner, name)
        if found is None:
            return None
        holder = found[0]
        f = self.type_file[holder]
        decl = next((fd for fd in f.fields if fd.owner == holder and fd.name == name), None)
        if decl is None or not decl.new:
            return None
        if decl.open and any(path != f.path for path in self.assigned_in(name)):
            return None
        return self.resolve(f, holder, decl.new)

    def assigned_in(self, name: str) -> list[str]:
        """Files assigning a field called ``name`` through a path (``state.enc = ...``)."""
        if self._assigned is None:
            self._assigned = defaultdict(list)
            for f in self.files:
                for field_name in f.assigned:
                    self._assigned[field_name].append(f.path)
        return self._assigned.get(name, [])

    def declares(self, fqn: str, name: str, arity: int | None = None) -> bool:
        return any(
            m.name == name and (arity is None or m.accepts(arity)) for m in self.methods_of(fqn)
        )

    def label(self, fqn: str) -> str:
        """``pkg.Outer.Inner`` -> ``Outer.Inner``: the name a reader recognises."""
        t = self.types.get(fqn)
        if t is None:
            return fqn
        f = self.type_file[fqn]
        return fqn[len(f.package) + 1 :] if f.package and fqn.startswith(f.package + ".") else fqn
