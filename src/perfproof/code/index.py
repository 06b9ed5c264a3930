"""Parse one Java file with tree-sitter into a :class:`FileIndex`.

One query collects every node of interest in C; a single sweep over them in source order keeps
a stack of open scopes (types, methods, lambdas, anonymous class bodies), so each call site
learns its enclosing type and method and the declared type of its receiver from the locals,
parameters and fields in scope, without a Python walk over the whole tree. Files are parsed
once and everything later (callers, scan rules) works on these records, which is what makes
the content-hash cache pay off.
"""

from __future__ import annotations

import hashlib

from tree_sitter import Node

from perfproof.code.fields import FieldFacts, FieldWrite, field_value, field_write, fix_fields
from perfproof.code.model import CallSite, FieldDecl, FileIndex, Import, MethodDecl, TypeDecl
from perfproof.code.rules import run_rules
from perfproof.code.sites import Scope, SiteSweep, created, inferred
from perfproof.code.syntax import (
    captures,
    erase,
    formal_parameters,
    has_modifier,
    line,
    parser,
    text,
)
from perfproof.code.unit import Decl, Unit

_QUERY = """
(package_declaration) @package
(import_declaration) @import
(class_declaration) @type
(interface_declaration) @type
(enum_declaration) @type
(record_declaration) @type
(annotation_type_declaration) @type
(method_declaration) @method
(constructor_declaration) @method
(compact_constructor_declaration) @method
(static_initializer) @clinit
(class_body (block) @init)
(field_declaration) @field
(constant_declaration) @field
(local_variable_declaration) @local
(enhanced_for_statement) @foreach
(catch_formal_parameter) @catch
(resource) @resource
(instanceof_expression) @instanceof
(lambda_expression) @lambda
(method_invocation) @call
(object_creation_expression) @new
(method_reference) @ref
(explicit_constructor_invocation) @ctorcall
(enum_constant) @constant
(enum_constant body: (class_body) @anon)
(assignment_expression) @assign
(update_expression) @update
"""

_TYPE_KINDS = {
    "class_declaration": "class",
    "interface_declaration": "interface",
    "enum_declaration": "enum",
    "record_declaration": "record",
    "annotation_type_declaration": "annotation",
}
_TEST_IMPORTS = (
    "org.junit",
    "org.testng",
    "org.assertj",
    "org.hamcrest",
    "org.mockito",
    "org.openjdk.jcstress",  # concurrency tests, often kept in a main source set of their own
)


def digest(src: bytes) -> str:
    return hashlib.blake2b(src, digest_size=16).hexdigest()


def parse_unit(path: str, src: bytes) -> Unit:
    tree = parser().parse(src)
    return _Sweep(path, src, tree.root_node).run()


def index_file(path: str, src: bytes) -> FileIndex:
    """Parse, extract and run the scan rules: the one cached product of a file."""
    unit = parse_unit(path, src)
    import_names = [i.name for i in unit.imports]
    jmh = any(n.startswith("org.openjdk.jmh") for n in import_names) or b"@Benchmark" in src
    test_framework = any(n.startswith(_TEST_IMPORTS) for n in import_names)
    return FileIndex.create(
        path,
        digest(src),
        unit.package,
        unit.imports,
        unit.types,
        unit.methods,
        unit.fields,
        unit.calls,
        list(run_rules(unit)),
        jmh,
        test_framework,
        unit.assigned,
        unit.functional,
    )


class _Sweep(SiteSweep):
    def __init__(self, path: str, src: bytes, root: Node) -> None:
        self.path, self.src, self.root = path, src, root
        self.package = ""
        self.imports: list[Import] = []
        self.types: list[TypeDecl] = []
        self.type_ranges: list[tuple[int, int, str]] = []
        self.methods: list[MethodDecl] = []
        self.fields: list[FieldDecl] = []
        self.field_facts: list[FieldFacts] = []
        self.field_writes: list[FieldWrite] = []
        self._anonymous: dict[str, int] = {}
        self.field_types: dict[tuple[str, str], str] = {}
        self.decls: list[Decl] = []
        self.calls: list[CallSite] = []
        self.stack: list[Scope] = []
        self._pending: list[int] = []
        self._pending_locals: list[tuple[int, Scope]] = []
        self.invocations: dict[str, list[Node]] = {}
        self.nodes: dict[str, list[Node]] = {"new": [], "assign": [], "update": []}

    def run(self) -> Unit:
        found = captures(_QUERY, self.root)
        nodes: list[tuple[int, int, str, Node]] = []
        for name, group in found.items():
            for node in group:
                nodes.append((node.start_byte, -node.end_byte, name, node))
        nodes.sort(key=lambda item: (item[0], item[1]))
        handlers = {
            "package": self._package,
            "import": self._import,
            "type": self._type,
            "method": self._method,
            "clinit": self._initialiser,
            "init": self._initialiser,
            "field": self._field,
            "local": self._local,
            "foreach": self._foreach,
            "catch": self._catch,
            "resource": self._resource,
            "instanceof": self._instanceof,
            "lambda": self._lambda,
            "call": self._call,
            "new": self._new,
            "ref": self._ref,
            "ctorcall": self._ctorcall,
            "anon": self._anon,
            "constant": self._constant,
            "assign": self._assign,
            "update": self.nodes["update"].append,
        }
        for start, _neg_end, name, node in nodes:
            while self.stack and self.stack[-1].end <= start:
                self.stack.pop()
            handlers[name](node)
        self.fields, assigned, functional = fix_fields(
            self.fields, self.field_facts, self.field_writes
        )
        self._resolve_pending()
        return Unit(
            self.path,
            self.src,
            self.root,
            self.package,
            self.imports,
            self.types,
            self.type_ranges,
            self.methods,
            self.fields,
            self.field_types,
            self.decls,
            self.calls,
            self.invocations,
            self.nodes,
            assigned,
            functional,
        )

    # scope helpers -------------------------------------------------------------------------

    def _owners(self) -> tuple[str, ...]:
        """The named types around the current node, innermost first."""
        return tuple(s.fqn for s in reversed(self.stack) if s.kind == "type")

    def _owner(self) -> str:
        for scope in reversed(self.stack):
            if scope.kind in ("type", "anon"):
                return scope.fqn
        return ""

    def _in_anonymous(self) -> bool:
        for scope in reversed(self.stack):
            if scope.kind in ("type", "anon"):
                return scope.kind == "anon"
        return False

    def _method_index(self) -> int:
        for scope in reversed(self.stack):
            if scope.kind == "method":
                return scope.method
            if scope.kind == "type":
                return -1
        return -1

    def _local_scope(self) -> Scope | None:
        for scope in reversed(self.stack):
            if scope.kind in ("method", "lambda"):
                return scope
            if scope.kind == "type":
                return None
        return None

    def _lookup_local(self, name: str) -> tuple[bool, str | None]:
        for scope in reversed(self.stack):
            if scope.kind in ("method", "lambda") and name in scope.locals:
                return True, scope.locals[name]
            if scope.kind == "type":
                break
        return False, None

    def _declare(self, name: str, full_type: str | None, kind: str, at: int) -> None:
        scope = self._local_scope()
        if scope is None or not name:
            return
        scope.locals[name] = erase(full_type) if full_type else None
        scope.news.pop(name, None)  # a redeclaration in a sibling block starts afresh
        self.decls.append(Decl(name, full_type or "", kind, scope.start, scope.end, at))

    # declarations --------------------------------------------------------------------------

    def _package(self, node: Node) -> None:
        named = [c for c in node.named_children if c.type in ("scoped_identifier", "identifier")]
        if named:
            self.package = text(named[0])

    def _import(self, node: Node) -> None:
        static = any(c.type == "static" for c in node.children)
        wildcard = any(c.type == "asterisk" for c in node.children)
        named = [c for c in node.named_children if c.type in ("scoped_identifier", "identifier")]
        if named:
            self.imports.append(Import(text(named[0]), static, wildcard))

    def _type(self, node: Node) -> None:
        name = text(node.child_by_field_name("name"))
        outer = self._owner() or None
        prefix = outer or self.package
        fqn = f"{prefix}.{name}" if prefix else name
        superclass = None
        interfaces: list[str] = []
        for child in node.children:
            if child.type == "superclass" and child.named_child_count:
                superclass = erase(text(child.named_children[0]))
            elif child.type in ("super_interfaces", "extends_interfaces"):
                for tl in child.named_children:
                    interfaces.extend(erase(text(t)) for t in tl.named_children)
        kind = _TYPE_KINDS[node.type]
        self.types.append(
            TypeDecl(fqn, name, kind, outer, superclass, tuple(interfaces), line(node))
        )
        self.type_ranges.append((node.start_byte, node.end_byte, fqn))
        self.stack.append(Scope(node.end_byte, "type", fqn=fqn))
        if kind == "record":
            params, _ = formal_parameters(node.child_by_field_name("parameters"))
            for pname, ptype in params:
                self._add_field(fqn, pname, ptype, False, line(node))

    def _add_field(self, owner: str, name: str, full_type: str, static: bool, line: int) -> None:
        self.fields.append(FieldDecl(owner, name, erase(full_type), static, line))
        self.field_types[(owner, name)] = full_type

    def _method(self, node: Node) -> None:
        params, varargs = formal_parameters(node.child_by_field_name("parameters"))
        owner = self._owner()
        returns = ""
        if node.type == "method_declaration":
            name, kind = text(node.child_by_field_name("name")), "method"
            returns = erase(text(node.child_by_field_name("type")))
        else:
            name, kind = "<init>", "constructor"
        static = has_modifier(node, "static")
        erased = tuple(erase(t) for _, t in params)
        self._push_method(node, owner, name, erased, varargs, static, kind, returns)
        for pname, ptype in params:
            self._declare(pname, ptype, "param", node.start_byte)

    def _push_method(
        self,
        node: Node,
        owner: str,
        name: str,
        params: tuple[str, ...],
        varargs: bool,
        static: bool,
        kind: str,
        returns: str = "",
    ) -> None:
        decl = MethodDecl(
            owner,
            name,
            params,
            varargs,
            static,
            kind,
            line(node),
            node.end_point[0] + 1,
            node.start_byte,
            node.end_byte,
            returns,
        )
        self.methods.append(decl)
        index = len(self.methods) - 1
        self.stack.append(Scope(node.end_byte, "method", start=node.start_byte, method=index))

    def _initialiser(self, node: Node) -> None:
        if self._in_anonymous():
            return
        static = node.type == "static_initializer"
        name = "<clinit>" if static else "<init>"
        self._push_method(
            node, self._owner(), name, (), False, static, "clinit" if static else "init"
        )

    def _field(self, node: Node) -> None:
        if self._in_anonymous() or self._local_scope() is not None:
            return
        owner = self._owner()
        in_interface = node.type == "constant_declaration"
        static = in_interface or has_modifier(node, "static")
        final = in_interface or has_modifier(node, "final")
        private = has_modifier(node, "private")
        full_type = text(node.child_by_field_name("type"))
        has_value = False
        for child in node.named_children:
            if child.type == "variable_declarator":
                name = text(child.child_by_field_name("name"))
                dims = text(child.child_by_field_name("dimensions"))
                value = child.child_by_field_name("value")
                given = None if value is None else field_value(value)
                facts = FieldFacts(len(self.fields), final, private, given, len(self.methods))
                self.field_facts.append(facts)
                self._add_field(owner, name, full_type + dims, static, line(child))
                has_value = has_value or value is not None
        if has_value:
            name = "<clinit>" if static else "<init>"
            self._push_method(node, owner, name, (), False, static, "clinit" if static else "init")

    def _local(self, node: Node) -> None:
        full_type = text(node.child_by_field_name("type"))
        for child in node.named_children:
            if child.type != "variable_declarator":
                continue
            name = text(child.child_by_field_name("name"))
            value = child.child_by_field_name("value")
            typ = full_type
            if typ == "var":
                typ = inferred(value) or ""
            self._declare(name, typ or None, "local", child.start_byte)
            scope = self._local_scope()
            exact = created(value)
            if scope is not None and exact and not text(child.child_by_field_name("dimensions")):
                scope.news[name] = erase(exact)

    def _foreach(self, node: Node) -> None:
        typ = text(node.child_by_field_name("type"))
        name = text(node.child_by_field_name("name"))
        self._declare(name, None if typ == "var" else typ, "local", node.start_byte)

    def _catch(self, node: Node) -> None:
        name = text(node.child_by_field_name("name"))
        types = [c for c in node.named_children if c.type == "catch_type"]
        typ = text(types[0]) if types and types[0].named_child_count == 1 else None
        self._declare(name, typ, "local", node.start_byte)

    def _resource(self, node: Node) -> None:
        name = node.child_by_field_name("name")
        if name is not None:
            typ = text(node.child_by_field_name("type"))
            self._declare(text(name), None if typ == "var" else typ, "local", node.start_byte)

    def _instanceof(self, node: Node) -> None:
        name = node.child_by_field_name("name")
        if name is not None:
            self._declare(
                text(name), text(node.child_by_field_name("right")), "local", node.start_byte
            )

    def _lambda(self, node: Node) -> None:
        if self._local_scope() is None and self._owner() == "":
            return
        self.stack.append(Scope(node.end_byte, "lambda", start=node.start_byte))
        params = node.child_by_field_name("parameters")
        if params is None:
            return
        if params.type == "identifier":
            self._declare(text(params), None, "lambda", node.start_byte)
            return
        for p in params.named_children:
            if p.type == "identifier":
                self._declare(text(p), None, "lambda", node.start_byte)
            elif p.type == "formal_parameter":
                typ = text(p.child_by_field_name("type"))
                name = text(p.child_by_field_name("name"))
                self._declare(name, None if typ == "var" else typ, "lambda", node.start_byte)

    def _constant(self, node: Node) -> None:
        """An enum constant is a static field of the enum's own type."""
        owner = self._owner()
        if owner and not self._in_anonymous():
            name = text(node.child_by_field_name("name"))
            self._add_field(owner, name, owner.rsplit(".", 1)[-1], True, line(node))

    def _assign(self, node: Node) -> None:
        self.nodes["assign"].append(node)
        write = field_write(
            node, lambda n: self._lookup_local(n)[0], self._owners(), self._method_index()
        )
        if write is not None:
            self.field_writes.append(write)

    def _anon(self, node: Node) -> None:
        """An enum constant's body: an anonymous subclass of the enum."""
        self._open_anonymous(node, self._owner().rsplit(".", 1)[-1])

    def _open_anonymous(self, body: Node, supertype: str) -> None:
        """An anonymous class body: a type of its own, named as javac names it (``Outer$1``,
        numbered in source order within the enclosing class), whose methods override the
        supertype's; :mod:`perfproof.code.graph` links them to the method creating it."""
        outer = self._owner()
        number = self._anonymous.get(outer, 0) + 1
        self._anonymous[outer] = number
        fqn = f"{outer}${number}"
        name = fqn.rsplit(".", 1)[-1]
        self.types.append(TypeDecl(fqn, name, "anonymous", outer, erase(supertype), (), line(body)))
        self.stack.append(Scope(body.end_byte, "anon", fqn=fqn))
