"""Questions several scan rules ask about a node: where it runs and what its types are."""

from __future__ import annotations

from dataclasses import dataclass

from tree_sitter import Node

from perfproof.code.model import MethodDecl
from perfproof.code.syntax import (
    LOOPS,
    PRIMITIVE_INTEGRALS,
    PRIMITIVES,
    erase,
    simple_name,
    text,
    type_arguments,
)
from perfproof.code.unit import Unit

MAP_TYPES = frozenset(
    {
        "Map",
        "HashMap",
        "LinkedHashMap",
        "TreeMap",
        "SortedMap",
        "NavigableMap",
        "ConcurrentMap",
        "ConcurrentHashMap",
        "Hashtable",
        "ImmutableMap",
    }
)
BOXED_INTEGRAL_KEYS = frozenset({"Short", "Integer", "Byte", "Character", "Long"})
_BOUNDARIES = frozenset(
    {"method_declaration", "constructor_declaration", "class_body", "lambda_expression"}
)
# methods of the JDK whose result is a primitive whatever the receiver (ByteBuffer, DataInput,
# String, Collection, Enum, Number): enough to recognise the usual lookup keys
_PRIMITIVE_RESULTS = frozenset(
    {
        "getShort",
        "getInt",
        "getChar",
        "readShort",
        "readInt",
        "readByte",
        "readChar",
        "readUnsignedShort",
        "readUnsignedByte",
        "charAt",
        "hashCode",
        "size",
        "length",
        "ordinal",
        "intValue",
        "shortValue",
        "byteValue",
        "longValue",
    }
)


@dataclass(frozen=True)
class RuleInfo:
    id: str
    title: str
    explanation: str
    rewrite: str


def enclosing(unit: Unit, node: Node) -> MethodDecl | None:
    index = unit.method_at(node.start_byte)
    return unit.methods[index] if index >= 0 else None


def in_plain_method(unit: Unit, node: Node) -> bool:
    """True inside an ordinary method: not a constructor, initialiser or field initialiser."""
    method = enclosing(unit, node)
    return method is not None and method.kind == "method"


def in_loop(node: Node) -> bool:
    """True when ``node`` runs once per iteration of a loop in its own method or lambda."""
    cur = node.parent
    while cur is not None and cur.type not in _BOUNDARIES:
        if cur.type in LOOPS:
            return True
        cur = cur.parent
    return False


def declared_type(unit: Unit, node: Node) -> tuple[str, str] | None:
    """(full declared type, kind) of an identifier or ``this.x`` expression, if known."""
    if node.type == "field_access":
        obj = node.child_by_field_name("object")
        if obj is None or obj.type != "this":
            return None
        name = text(node.child_by_field_name("field"))
    elif node.type == "identifier":
        name = text(node)
    else:
        return None
    decl = unit.declaration(name, node.start_byte)
    if decl is None or not decl.type:
        return None
    return decl.type, decl.kind


def is_map_with_boxed_key(full_type: str) -> bool:
    args = type_arguments(full_type)
    return (
        simple_name(full_type) in MAP_TYPES
        and bool(args)
        and simple_name(args[0]) in BOXED_INTEGRAL_KEYS
    )


def is_primitive(unit: Unit, node: Node, depth: int = 0) -> bool:
    """Whether an expression certainly has a primitive integral or char type (``False`` when
    it cannot be told, also for absurdly deep expressions)."""
    if depth > 32:
        return False
    kind = node.type
    if kind in (
        "decimal_integer_literal",
        "hex_integer_literal",
        "octal_integer_literal",
        "binary_integer_literal",
        "character_literal",
    ):
        return True
    if kind == "cast_expression":
        return text(node.child_by_field_name("type")) in PRIMITIVE_INTEGRALS
    if kind in ("parenthesized_expression", "unary_expression"):
        inner = list(node.named_children)
        return len(inner) == 1 and is_primitive(unit, inner[0], depth + 1)
    if kind == "binary_expression":
        left = node.child_by_field_name("left")
        right = node.child_by_field_name("right")
        op = text(node.child_by_field_name("operator"))
        return (
            op in {"+", "-", "*", "/", "%", "&", "|", "^", "<<", ">>", ">>>"}
            and left is not None
            and right is not None
            and is_primitive(unit, left, depth + 1)
            and is_primitive(unit, right, depth + 1)
        )
    if kind == "array_access":
        array = node.child_by_field_name("array")
        typed = declared_type(unit, array) if array is not None else None
        return typed is not None and erase(typed[0]).removesuffix("[]") in PRIMITIVES
    if kind == "method_invocation":
        name = text(node.child_by_field_name("name"))
        return name in _PRIMITIVE_RESULTS
    typed = declared_type(unit, node)
    return typed is not None and erase(typed[0]) in PRIMITIVES


def receiver(node: Node) -> Node | None:
    return node.child_by_field_name("object")


def method_name(node: Node) -> str:
    return text(node.child_by_field_name("name"))
