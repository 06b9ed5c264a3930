"""The static type of a call's arguments, where the source writes it down.

Overloads of one arity (``writeInt(int, int)`` and ``writeInt(int, boolean)``) differ only by
their parameters' types, so a call binds to one of them only as far as its arguments' types
are known: a literal (``0`` is an ``int``, ``0L`` a ``long``, ``false`` a ``boolean``, ``'c'``
a ``char``, ``"s"`` a ``String``, ``null`` any reference), a local or parameter (its declared
type), a field of the file (resolved once the file's fields are known), a cast or ``new T(…)``,
an array creation, and the operators whose result type the operands fix (comparisons and
``!`` give ``boolean``, arithmetic the promoted type, ``+`` with a ``String`` a ``String``).
Anything else, a call's result or a conditional, is ``""``: not known, and matched by every
overload.
"""

from __future__ import annotations

from collections.abc import Callable

from tree_sitter import Node

from perfproof.code.syntax import COMMENTS, erase, text

UNKNOWN = ""
NULL = "null"
FIELD = "@"
"""Prefix of an identifier that is no local: a field of the file, typed when fields are known."""
NUMERIC = ("byte", "short", "char", "int", "long", "float", "double")
_INTEGER_LITERALS = (
    "decimal_integer_literal",
    "hex_integer_literal",
    "octal_integer_literal",
    "binary_integer_literal",
)
_FLOAT_LITERALS = ("decimal_floating_point_literal", "hex_floating_point_literal")
_COMPARE = frozenset({"==", "!=", "<", ">", "<=", ">=", "&&", "||"})
_SHIFT = frozenset({"<<", ">>", ">>>"})

Lookup = Callable[[str], tuple[bool, str | None]]
"""A local's declared type by name: (declared here, its erased type or None)."""


def argument_types(arguments: Node | None, lookup: Lookup) -> tuple[str, ...]:
    """Each argument's static type as the source says it (:data:`UNKNOWN` otherwise)."""
    if arguments is None:
        return ()
    return tuple(
        expression_type(c, lookup) for c in arguments.named_children if c.type not in COMMENTS
    )


def promoted(a: str, b: str) -> str:
    """Binary numeric promotion of two primitive types (JLS 5.6.2)."""
    for wide in ("double", "float", "long"):
        if wide in (a, b):
            return wide
    return "int"


MAX_DEPTH = 12
"""Operators nested deeper than this are not followed: ``"a" + "b" + …`` a thousand times
would exhaust the stack, and no overload turns on a type that deep."""


def expression_type(node: Node, lookup: Lookup, depth: int = 0) -> str:
    kind = node.type
    if depth > MAX_DEPTH:
        return UNKNOWN
    if kind == "parenthesized_expression" and node.named_child_count:
        return expression_type(node.named_children[0], lookup, depth + 1)
    if kind in _INTEGER_LITERALS:
        return "long" if text(node)[-1:] in ("l", "L") else "int"
    if kind in _FLOAT_LITERALS:
        return "float" if text(node)[-1:] in ("f", "F") else "double"
    if kind in ("true", "false"):
        return "boolean"
    if kind == "character_literal":
        return "char"
    if kind in ("string_literal", "text_block"):
        return "String"
    if kind == "null_literal":
        return NULL
    if kind == "identifier":
        known, typ = lookup(text(node))
        if known:
            return typ or UNKNOWN
        return FIELD + text(node)
    if kind in ("cast_expression", "object_creation_expression"):
        written = node.child_by_field_name("type")
        return erase(text(written)) if written is not None else UNKNOWN
    if kind == "array_creation_expression":
        return _array_type(node)
    if kind in ("instanceof_expression",):
        return "boolean"
    if kind == "unary_expression":
        return _unary(node, lookup, depth)
    if kind == "binary_expression":
        return _binary(node, lookup, depth)
    return UNKNOWN


def _array_type(node: Node) -> str:
    typ = node.child_by_field_name("type")
    if typ is None:
        return UNKNOWN
    shapes = ("dimensions_expr", "dimensions")
    dims = sum(text(c).count("[") for c in node.children if c.type in shapes)
    return erase(text(typ)) + "[]" * max(dims, 1)


def _unary(node: Node, lookup: Lookup, depth: int) -> str:
    op = node.child_by_field_name("operator")
    operand = node.child_by_field_name("operand")
    if op is None or operand is None:
        return UNKNOWN
    if text(op) == "!":
        return "boolean"
    inner = expression_type(operand, lookup, depth + 1)
    if inner in NUMERIC:
        return promoted(inner, "int")
    return UNKNOWN


def _binary(node: Node, lookup: Lookup, depth: int) -> str:
    op_node = node.child_by_field_name("operator")
    left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
    if op_node is None or left is None or right is None:
        return UNKNOWN
    op = text(op_node)
    if op in _COMPARE:
        return "boolean"
    a, b = expression_type(left, lookup, depth + 1), expression_type(right, lookup, depth + 1)
    if op == "+" and "String" in (a, b):
        return "String"
    if op in _SHIFT:
        return promoted(a, "int") if a in NUMERIC else UNKNOWN
    if op in ("&", "|", "^") and a == b == "boolean":
        return "boolean"
    if a in NUMERIC and b in NUMERIC:
        return promoted(a, b)
    return UNKNOWN
