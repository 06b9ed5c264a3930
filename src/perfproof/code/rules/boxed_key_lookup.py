"""boxed-key-lookup: a static map from a small boxed integer to a value, read with a primitive."""

from __future__ import annotations

from collections.abc import Iterator

from tree_sitter import Node

from perfproof.code.rules.common import (
    RuleInfo,
    enclosing,
    is_map_with_boxed_key,
    is_primitive,
    method_name,
    receiver,
)
from perfproof.code.syntax import arguments_of, text
from perfproof.code.unit import Unit

RULE = RuleInfo(
    id="boxed-key-lookup",
    title="Static lookup map keyed by a boxed small integer",
    explanation=(
        "A map that is filled once during class initialisation and then only read, keyed by "
        "Short, Integer, Byte, Character or Long, is a lookup table in disguise. Every read "
        "with a primitive key boxes it (outside the small Integer cache that is an allocation), "
        "hashes it, walks a bucket and unboxes on equals; on a per-request path such as "
        "decoding an error or API code this shows up as allocation and pointer chasing."
    ),
    rewrite=(
        "Build a dense array indexed by the key (offset by the minimum key when it can be "
        "negative) in the static initialiser and read `TABLE[code]` with a bounds check that "
        "falls back to the unknown value."
    ),
)
_READS = frozenset({"get", "getOrDefault", "containsKey"})
_WRITES = frozenset(
    {
        "put",
        "putAll",
        "putIfAbsent",
        "remove",
        "clear",
        "compute",
        "computeIfAbsent",
        "computeIfPresent",
        "merge",
        "replace",
        "replaceAll",
    }
)


def _field_name(unit: Unit, obj: Node | None, candidates: dict[str, str]) -> str | None:
    """Name of the candidate static field an expression denotes (``F``, ``this.F``, ``T.F``)."""
    if obj is None:
        return None
    if obj.type == "identifier":
        decl = unit.declaration(text(obj), obj.start_byte)
        name = text(obj)
        if decl is not None and decl.kind == "field" and candidates.get(name) == decl.owner:
            return name
        return None
    if obj.type == "field_access":
        inner = obj.child_by_field_name("object")
        name = text(obj.child_by_field_name("field"))
        owner = candidates.get(name)
        if owner is None or inner is None:
            return None
        if inner.type == "this" or text(inner) in (owner, owner.rsplit(".", 1)[-1]):
            return name
    return None


def find(unit: Unit) -> Iterator[tuple[Node, str]]:
    candidates = {
        f.name: f.owner
        for f in unit.fields
        if f.static and is_map_with_boxed_key(unit.field_types[(f.owner, f.name)])
    }
    if not candidates:
        return
    calls = unit.invoked(*(_READS | _WRITES))
    spoiled: set[str] = set()
    for call in calls:
        name = _field_name(unit, receiver(call), candidates)
        if name is None or method_name(call) not in _WRITES:
            continue
        method = enclosing(unit, call)
        if method is None or method.kind != "clinit":
            spoiled.add(name)  # filled after class initialisation: not a constant table
    for assign in unit.nodes["assign"]:
        left = assign.child_by_field_name("left")
        name = _field_name(unit, left, candidates)
        method = enclosing(unit, left) if left is not None else None
        if name is not None and (method is None or method.kind != "clinit"):
            spoiled.add(name)
    for call in calls:
        name = _field_name(unit, receiver(call), candidates)
        if name is None or name in spoiled or method_name(call) not in _READS:
            continue
        args = arguments_of(call)
        method = enclosing(unit, call)
        if args and is_primitive(unit, args[0]) and method is not None and method.kind != "clinit":
            yield call, f"{name}.{method_name(call)}({text(args[0])}) boxes the key"
