"""A parsed file as the scan rules see it: the tree plus the declarations found in it.

The scan rules ask two questions the tree alone answers slowly: which method or initialiser
encloses a node, and what a name refers to at a point (local, parameter, lambda parameter or
field, with its declared type as written). The indexer answers them while it sweeps the file
and leaves the answers here.
"""

from __future__ import annotations

from dataclasses import dataclass

from tree_sitter import Node

from perfproof.code.model import CallSite, FieldDecl, Import, MethodDecl, TypeDecl


@dataclass
class Decl:
    """A local, parameter or field name as the scan rules see it (full type text)."""

    name: str
    type: str
    kind: str
    """param, local, lambda or field."""
    scope_start: int
    scope_end: int
    at: int
    owner: str = ""
    """Declaring type, for fields."""


@dataclass
class Unit:
    """A parsed file with everything the scan rules need to ask about it."""

    path: str
    src: bytes
    root: Node
    package: str
    imports: list[Import]
    types: list[TypeDecl]
    type_ranges: list[tuple[int, int, str]]
    methods: list[MethodDecl]
    fields: list[FieldDecl]
    field_types: dict[tuple[str, str], str]
    decls: list[Decl]
    calls: list[CallSite]
    invocations: dict[str, list[Node]]
    """Method invocation nodes by method name."""
    nodes: dict[str, list[Node]]
    """Other captured nodes by kind: new, assign, update."""
    assigned: tuple[str, ...] = ()
    """Field names assigned through a path (:attr:`FileIndex.assigned`)."""
    functional: tuple[tuple[str, str, int], ...] = ()
    """Functional values given to fields (:attr:`FileIndex.functional`)."""

    def invoked(self, *names: str) -> list[Node]:
        """Invocation nodes of any of ``names`` in source order."""
        found = [n for name in names for n in self.invocations.get(name, [])]
        if len(names) > 1:
            found.sort(key=lambda n: n.start_byte)
        return found

    def method_at(self, byte: int) -> int:
        """Index of the innermost method (or initialiser) around ``byte``, -1 if none."""
        best, width = -1, None
        for i, m in enumerate(self.methods):
            if m.start <= byte < m.end and (width is None or m.end - m.start < width):
                best, width = i, m.end - m.start
        return best

    def owner_at(self, byte: int) -> str:
        best, width = "", None
        for start, end, fqn in self.type_ranges:
            if start <= byte < end and (width is None or end - start < width):
                best, width = fqn, end - start
        return best

    def declaration(self, name: str, byte: int) -> Decl | None:
        """The declaration ``name`` refers to at ``byte``: innermost local scope, then fields."""
        best: Decl | None = None
        for d in self.decls:
            if d.name != name or not (d.scope_start <= byte < d.scope_end) or d.at > byte:
                continue
            if best is None or (d.scope_start, d.at) >= (best.scope_start, best.at):
                best = d
        if best is not None:
            return best
        owner = self.owner_at(byte)
        while owner:
            full = self.field_types.get((owner, name))
            if full is not None:
                return Decl(name, full, "field", 0, len(self.src), 0, owner)
            owner = owner.rsplit(".", 1)[0] if "." in owner else ""
            if owner == self.package:
                break
        return None
