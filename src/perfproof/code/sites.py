"""Call sites: the second half of the one sweep over a Java file's syntax tree.

:class:`perfproof.code.index._Sweep` walks declarations (types, methods, fields, locals) and
mixes this class in for the uses: method calls, constructor calls, method references and
``this(...)``/``super(...)``, each recorded with what stands before the dot and, when the
file says it, the receiver's declared type. Kept apart so each half stays readable; both share
the sweep's scope stack.

A receiver's exact class (``CallSite.recv_new``) is recorded only where Java fixes it: ``new
C().m()``; a field of this file that always holds a ``new C(...)``
(:mod:`perfproof.code.fields`); and a local initialised with ``new C(...)`` that is
effectively final (JLS 4.12.4: never the left side of an assignment or an increment). That
last check is by name over the whole method or lambda declaring the local (a local cannot be
assigned outside it, and a nested lambda or anonymous class may not assign it at all), so a
same-named variable elsewhere in the method only makes the record more cautious. An anonymous
class body (``new C() { ... }``) may override anything: no record.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from tree_sitter import Node

from perfproof.code.arguments import FIELD, UNKNOWN, argument_types
from perfproof.code.model import CallSite
from perfproof.code.syntax import arity, erase, line, text

if TYPE_CHECKING:
    from perfproof.code.model import FieldDecl, TypeDecl

Receiver = tuple[str, str, str | None] | tuple[str, str, str | None, str]
"""What stands before a call's dot: kind, text, declared type, and (when the source fixes
it) the exact class the receiver is an instance of."""


@dataclass
class Scope:
    end: int
    kind: str
    """type, anon, method or lambda."""
    start: int = 0
    fqn: str = ""
    method: int = -1
    locals: dict[str, str | None] = field(default_factory=dict)
    news: dict[str, str] = field(default_factory=dict)
    """Locals initialised with ``new C(...)``: name -> erased ``C``."""


class SiteSweep:
    """The call-site half of the sweep (mixed into ``index._Sweep``, which owns the state)."""

    calls: list[CallSite]
    stack: list[Scope]
    types: list[TypeDecl]
    _pending: list[int]
    _pending_locals: list[tuple[int, Scope]]
    """Sites whose receiver is a local initialised with ``new``: checked once the whole
    file's assignments are known."""
    invocations: dict[str, list[Node]]
    nodes: dict[str, list[Node]]
    fields: list[FieldDecl]

    if TYPE_CHECKING:  # provided by the sweep this is mixed into (``index._Sweep``)

        def _owner(self) -> str: ...

        def _method_index(self) -> int: ...

        def _lookup_local(self, name: str) -> tuple[bool, str | None]: ...

        def _open_anonymous(self, body: Node, supertype: str) -> None: ...

    def _site(
        self,
        kind: str,
        name: str,
        n_args: int,
        node: Node,
        recv: Receiver,
        args: tuple[str, ...] = (),
    ) -> None:
        recv_kind, recv_text, recv_type, *rest = recv
        recv_new = rest[0] if rest else ""
        site = CallSite(
            kind,
            name,
            n_args,
            line(node),
            self._owner(),
            self._method_index(),
            recv_kind,
            recv_text,
            recv_type,
            node.start_point[1],
            recv_new,
            args,
        )
        if recv_kind in ("name", "field") or any(a.startswith(FIELD) for a in args):
            self._pending.append(len(self.calls))
        elif recv_kind == "var" and recv_new:
            scope = self._local_declaring(recv_text)
            if scope is not None:
                self._pending_locals.append((len(self.calls), scope))
        self.calls.append(site)

    def _receiver(self, obj: Node | None) -> Receiver:
        if obj is None:
            return "none", "", None
        kind = obj.type
        if kind == "this":
            return "this", "this", None
        if kind == "super":
            return "super", "super", None
        if kind == "identifier":
            name = text(obj)
            known, typ = self._lookup_local(name)
            if known:
                scope = self._local_declaring(name)
                return "var", name, typ, scope.news.get(name, "") if scope else ""
            return "name", name, None
        if kind in ("field_access", "method_invocation"):
            path = _path(obj)
            if path is None:
                last = obj.child_by_field_name("name" if kind == "method_invocation" else "field")
                return "expr", text(last), None
            parts = path.split(".")
            if len(parts) == 2 and parts[0] == "this" and not parts[1].endswith("()"):
                return "field", parts[1], None
            known, typ = self._lookup_local(parts[0])
            head = (typ or "?") if known else None
            return ("path" if "()" in path else "dotted"), path, head
        if kind == "array_access":
            # ``queues[i].offer(e)``: an element of a local array has the array's element type
            array = obj.child_by_field_name("array")
            if array is not None and array.type == "identifier":
                known, typ = self._lookup_local(text(array))
                if known and typ and typ.endswith("[]"):
                    return "var", text(array), typ[:-2].rstrip()
            return "expr", "", None
        if kind == "scoped_identifier":
            return "dotted", text(obj), None
        if kind in ("type_identifier", "scoped_type_identifier", "generic_type"):
            return "dotted", erase(text(obj)), None
        declared = inferred(obj)
        if declared:
            exact = created(obj)
            return "type", erase(declared), erase(declared), erase(exact) if exact else ""
        if kind in ("string_literal", "text_block"):
            return "type", "String", "String"
        return "expr", "", None

    def _call(self, node: Node) -> None:
        name = text(node.child_by_field_name("name"))
        self.invocations.setdefault(name, []).append(node)
        recv = self._receiver(node.child_by_field_name("object"))
        arguments = node.child_by_field_name("arguments")
        args = argument_types(arguments, self._lookup_local)
        self._site("call", name, arity(arguments), node, recv, args)

    def _new(self, node: Node) -> None:
        self.nodes["new"].append(node)
        typ = erase(text(node.child_by_field_name("type")))
        self._site(
            "new",
            typ.rsplit(".", 1)[-1],
            arity(node.child_by_field_name("arguments")),
            node,
            ("dotted", typ, typ),
            argument_types(node.child_by_field_name("arguments"), self._lookup_local),
        )
        for child in node.children:
            if child.type == "class_body":
                self._open_anonymous(child, typ)

    def _ref(self, node: Node) -> None:
        named = node.named_children
        if not named:
            return
        last = node.children[-1]
        name = "new" if last.type == "new" else text(last)
        recv = self._receiver(named[0])
        self._site("ref", "<init>" if name == "new" else name, -1, node, recv)

    def _ctorcall(self, node: Node) -> None:
        ctor = node.child_by_field_name("constructor")
        kind = "super" if ctor is not None and ctor.type == "super" else "this"
        arguments = node.child_by_field_name("arguments")
        args = argument_types(arguments, self._lookup_local)
        self._site(kind, "<init>", arity(arguments), node, ("none", "", None), args)

    def _field_type(self, owner: str, arg: str) -> str:
        """An argument naming no local: the declared type of the field of that name in this
        file's ``owner`` or a type around it, else not known (inherited, or a constant of
        another class)."""
        if not arg.startswith(FIELD):
            return arg
        name = arg[len(FIELD) :]
        while owner:
            found = next((f for f in self.fields if f.owner == owner and f.name == name), None)
            if found is not None:
                return found.type
            owner = next((t.outer or "" for t in self.types if t.fqn == owner), "")
        return UNKNOWN

    def _local_declaring(self, name: str) -> Scope | None:
        """The method or lambda scope declaring the local ``name`` visible here."""
        for scope in reversed(self.stack):
            if scope.kind in ("method", "lambda") and name in scope.locals:
                return scope
            if scope.kind == "type":
                break
        return None

    def _resolve_pending(self) -> None:
        """Receivers named like a field of this file get the field's declared type (and its
        exact class, :attr:`FieldDecl.new`, unless the field is open to other files, which
        only the whole repository can tell); receivers that are locals
        initialised with ``new`` but assigned again lose their exact class."""
        own = {(f.owner, f.name): f for f in self.fields}
        for index in self._pending:
            site = self.calls[index]
            if any(a.startswith(FIELD) for a in site.args):
                site = site._replace(args=tuple(self._field_type(site.owner, a) for a in site.args))
                self.calls[index] = site
            if site.recv not in ("name", "field"):
                continue
            owner = site.owner
            while owner:
                decl = own.get((owner, site.recv_text))
                if decl is not None and decl.open:
                    break  # its class holds only if no other file assigns it: the project decides
                if decl is not None:
                    self.calls[index] = site._replace(
                        recv="var", recv_type=decl.type, recv_new=decl.new
                    )
                    break
                if site.recv == "field":
                    break  # this.x names the innermost type's field only
                owner = next((t.outer or "" for t in self.types if t.fqn == owner), "")
        if not self._pending_locals:
            return
        assigned: dict[str, list[int]] = {}
        for node in (*self.nodes["assign"], *self.nodes["update"]):
            target = node.child_by_field_name("left")
            if target is None:  # ``x++``, ``--x``: the operand is the only named child
                target = node.named_children[0] if node.named_child_count else None
            while target is not None and target.type == "parenthesized_expression":
                target = target.named_children[0] if target.named_child_count else None
            if target is not None and target.type == "identifier":
                assigned.setdefault(text(target), []).append(target.start_byte)
        for index, scope in self._pending_locals:
            site = self.calls[index]
            at = assigned.get(site.recv_text, ())
            if any(scope.start <= byte < scope.end for byte in at):
                self.calls[index] = site._replace(recv_new="")


def _path(node: Node) -> str | None:
    """``a.b().c`` for a receiver made of names, field accesses and calls (arguments
    dropped), ``helper().x`` when it starts with an unqualified call; ``None`` otherwise."""
    segments: list[str] = []
    cur: Node | None = node
    while cur is not None:
        kind = cur.type
        if kind == "method_invocation":
            segments.append(text(cur.child_by_field_name("name")) + "()")
            cur = cur.child_by_field_name("object")
        elif kind == "field_access":
            segments.append(text(cur.child_by_field_name("field")))
            cur = cur.child_by_field_name("object")
        elif kind in ("identifier", "this", "scoped_identifier"):
            segments.append(text(cur))
            cur = None
        else:
            return None
    return ".".join(reversed(segments))


def created(node: Node | None) -> str | None:
    """The class written in ``new C(...)`` when the expression is one without an anonymous
    body (whose class would be an unnamed subclass of ``C``)."""
    while node is not None and node.type == "parenthesized_expression":
        node = node.named_children[0] if node.named_child_count else None
    if node is None or node.type != "object_creation_expression":
        return None
    if any(child.type == "class_body" for child in node.children):
        return None
    return text(node.child_by_field_name("type"))


def inferred(node: Node | None) -> str | None:
    """The static type of an expression when it is written down: ``new T()`` or ``(T) x``."""
    while node is not None and node.type == "parenthesized_expression":
        node = node.named_children[0] if node.named_child_count else None
    if node is None:
        return None
    if node.type == "object_creation_expression":
        return text(node.child_by_field_name("type"))
    if node.type == "cast_expression":
        return text(node.child_by_field_name("type"))
    return None
