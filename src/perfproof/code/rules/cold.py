"""Where code runs rarely: error paths, log lines, lazy suppliers, values computed once.

A pattern on such a path costs nothing worth a benchmark, so rules that flag per-call work
skip it. Everything here is syntactic and conservative: "cold" only when the code says so.
"""

from __future__ import annotations

import re

from tree_sitter import Node

from perfproof.code.rules.common import declared_type, enclosing, method_name, receiver
from perfproof.code.syntax import simple_name, text
from perfproof.code.unit import Unit

# a line logged at these levels is printed anyway, so preparing its arguments early wastes
# nothing; trace and debug arguments are computed even when the level is off, so they count
_PRINTED_LEVELS = frozenset({"info", "warn", "warning", "error", "fatal", "severe", "log"})
_GUARD = re.compile(r"is(Trace|Debug|Info|Warn|Error)Enabled|isLoggable")
_THROWABLE_SUFFIXES = ("Exception", "Error", "Throwable")
_FAILING_CALL = re.compile(r"(?i)exit|usage|fail|abort|panic")
_STOP = frozenset({"method_declaration", "constructor_declaration", "class_body"})
_PASS_THROUGH = frozenset({"parenthesized_expression", "conditional_expression", "cast_expression"})


def _is_printed_log_call(node: Node) -> bool:
    if node.type != "method_invocation" or method_name(node) not in _PRINTED_LEVELS:
        return False
    obj = receiver(node)
    return obj is not None and text(obj).lower().rsplit(".", 1)[-1].endswith(("log", "logger"))


def _cold_ancestor(cur: Node) -> bool:
    kind = cur.type
    if kind in ("throw_statement", "catch_clause", "assert_statement"):
        return True
    if kind == "object_creation_expression":
        return simple_name(text(cur.child_by_field_name("type"))).endswith(_THROWABLE_SUFFIXES)
    if kind == "method_invocation":
        return _is_printed_log_call(cur) or bool(_FAILING_CALL.search(method_name(cur)))
    if kind == "if_statement":
        return bool(_GUARD.search(text(cur.child_by_field_name("condition"))))
    return False


def in_cold_context(node: Node) -> bool:
    """Inside a throw, catch, assert, exception construction, printed or guarded log call,
    or an argument to a call that ends the program or the request (``exit``, ``fail``…)."""
    cur = node.parent
    while cur is not None and cur.type not in _STOP:
        if _cold_ancestor(cur):
            return True
        cur = cur.parent
    return False


def _value_position(node: Node) -> Node:
    """The expression whose value ``node`` becomes (through parentheses, ternaries, casts)."""
    cur = node
    while cur.parent is not None and cur.parent.type in _PASS_THROUGH:
        cur = cur.parent
    return cur


def is_lazy(node: Node) -> bool:
    """The whole body of a lambda (``() -> String.format(…)``): computed only on demand."""
    parent = _value_position(node).parent
    return parent is not None and parent.type == "lambda_expression"


def kept_in_field(unit: Unit, node: Node) -> bool:
    """Assigned to a field: computed once and kept (``this.name = …``, lazy initialisation)."""
    parent = _value_position(node).parent
    if parent is None or parent.type != "assignment_expression":
        return False
    left = parent.child_by_field_name("left")
    typed = declared_type(unit, left) if left is not None else None
    return typed is not None and typed[1] == "field"


def feeds_only_cold_code(unit: Unit, node: Node) -> bool:
    """``String msg = …;`` whose every later use is on a cold path (``throw new X(msg)``)."""
    parent = _value_position(node).parent
    if parent is None or parent.type != "variable_declarator":
        return False
    name = text(parent.child_by_field_name("name"))
    method = enclosing(unit, node)
    if not name or method is None:
        return False
    uses = []
    pattern = re.compile(rb"\b" + re.escape(name.encode()) + rb"\b")
    for match in pattern.finditer(unit.src, parent.end_byte, method.end):
        found = unit.root.named_descendant_for_byte_range(match.start(), match.end())
        if found is not None and found.type == "identifier" and text(found) == name:
            uses.append(found)
    return bool(uses) and all(in_cold_context(u) for u in uses)
