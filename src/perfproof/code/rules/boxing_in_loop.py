"""boxing-in-loop: a boxed accumulator or a boxed-key map update repeated in a loop."""

from __future__ import annotations

from collections.abc import Iterator

from tree_sitter import Node

from perfproof.code.rules.common import (
    RuleInfo,
    declared_type,
    in_loop,
    is_map_with_boxed_key,
    is_primitive,
    method_name,
    receiver,
)
from perfproof.code.syntax import BOXED, arguments_of, simple_name, text
from perfproof.code.unit import Unit

RULE = RuleInfo(
    id="boxing-in-loop",
    title="Boxing inside a loop body",
    explanation=(
        "An `Integer`/`Long`/`Double` accumulator updated with `+=` or `++` inside a loop "
        "unboxes, computes and boxes a new object on every iteration, and a map keyed by a "
        "boxed integer whose entry is read, changed and written back with a primitive key "
        "(`counts.merge(id, 1, Integer::sum)`, `m.put(k, m.get(k) + 1)`) "
        "boxes the key, hashes it and usually boxes the value as well. Inside a loop this is "
        "allocation proportional to the data, which escape analysis rarely removes."
    ),
    rewrite=(
        "Use a primitive local for the accumulator and box once after the loop; for counting "
        "or indexing by small integers use an `int[]`/`long[]` or a primitive-keyed map."
    ),
)
_COMPOUND = frozenset({"+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>=", ">>>="})
# read-modify-write of an entry; plain insertion (put of a new value, computeIfAbsent,
# putIfAbsent) builds a map rather than updating a tally, and is not what this rule is about
_MAP_UPDATES = frozenset({"put", "merge", "compute", "computeIfPresent"})
_READS = frozenset({"get", "getOrDefault"})


def _reads_same_map(call: Node, obj: Node) -> bool:
    """``m.put(k, m.get(k) + 1)``: the new value is computed from the map's current one."""
    args = arguments_of(call)
    if len(args) < 2:
        return False
    wanted = text(obj)
    stack = [args[1]]
    while stack:
        node = stack.pop()
        if node.type == "method_invocation" and method_name(node) in _READS:
            inner = receiver(node)
            if inner is not None and text(inner) == wanted:
                return True
        stack.extend(node.named_children)
    return False


def _boxed_target(unit: Unit, node: Node | None) -> str | None:
    if node is None:
        return None
    typed = declared_type(unit, node)
    if typed is not None and simple_name(typed[0]) in BOXED:
        return text(node)
    return None


def _accumulator(unit: Unit, node: Node) -> str | None:
    if node.type == "update_expression":
        operand = next((c for c in node.named_children), None)
        return _boxed_target(unit, operand)
    op = text(node.child_by_field_name("operator"))
    left = node.child_by_field_name("left")
    right = node.child_by_field_name("right")
    if op in _COMPOUND:
        return _boxed_target(unit, left)
    if op == "=" and left is not None and right is not None and right.type == "binary_expression":
        operands = {
            text(right.child_by_field_name("left")),
            text(right.child_by_field_name("right")),
        }
        if text(left) in operands:
            return _boxed_target(unit, left)
    return None


def find(unit: Unit) -> Iterator[tuple[Node, str]]:
    for node in unit.nodes["update"] + unit.nodes["assign"]:
        name = _accumulator(unit, node)
        if name is not None and in_loop(node):
            yield node, f"boxed accumulator {name} updated in a loop"
    for call in unit.invoked(*_MAP_UPDATES):
        if not in_loop(call):
            continue
        obj = receiver(call)
        if obj is None:
            continue
        typed = declared_type(unit, obj)
        if typed is None or not is_map_with_boxed_key(typed[0]):
            continue
        if method_name(call) == "put" and not _reads_same_map(call, obj):
            continue
        args = arguments_of(call)
        if args and is_primitive(unit, args[0]):
            yield call, f"{text(obj)}.{method_name(call)} boxes a primitive key in a loop"
