"""Small helpers over tree-sitter Java nodes shared by the indexer and the scan rules."""

from __future__ import annotations

import re
from functools import cache

import tree_sitter_java as tsj
from tree_sitter import Language, Node, Parser, Query, QueryCursor

COMMENTS = frozenset({"comment", "line_comment", "block_comment"})
PRIMITIVE_INTEGRALS = frozenset({"byte", "short", "char", "int", "long"})
PRIMITIVES = PRIMITIVE_INTEGRALS | {"float", "double", "boolean"}
BOXED = frozenset({"Byte", "Short", "Character", "Integer", "Long", "Float", "Double"})
LOOPS = frozenset({"for_statement", "enhanced_for_statement", "while_statement", "do_statement"})
_ANNOTATION = re.compile(r"@[\w.]+(\([^()]*\))?\s*")
_GENERIC = re.compile(r"<[^<>]*>")


@cache
def language() -> Language:
    return Language(tsj.language())


@cache
def parser() -> Parser:
    """One parser per process: creating one costs more than parsing a small file."""
    return Parser(language())


@cache
def query(source: str) -> Query:
    return Query(language(), source)


def captures(source: str, node: Node) -> dict[str, list[Node]]:
    return QueryCursor(query(source)).captures(node)


def text(node: Node | None) -> str:
    if node is None:
        return ""
    raw = node.text
    return raw.decode("utf-8", "replace") if raw is not None else ""


def erase(type_text: str) -> str:
    """``@Nullable Map<K, List<V>>`` -> ``Map``: the part a name lookup can use."""
    out = _ANNOTATION.sub("", type_text)
    while "<" in out:
        reduced = _GENERIC.sub("", out)
        if reduced == out:
            break
        out = reduced
    return "".join(out.split())


def type_arguments(type_text: str) -> list[str]:
    """Top-level generic arguments of a type as written: ``Map<Short, List<X>>`` -> two."""
    start = type_text.find("<")
    if start < 0 or not type_text.rstrip().endswith(">"):
        return []
    inner = type_text[start + 1 : type_text.rstrip().rfind(">")]
    args: list[str] = []
    current: list[str] = []
    depth = 0
    for ch in inner:
        if ch == "," and depth == 0:
            args.append("".join(current).strip())
            current = []
            continue
        depth += ch == "<"
        depth -= ch == ">"
        current.append(ch)
    if current:
        args.append("".join(current).strip())
    return [erase(a) for a in args]


def simple_name(type_text: str) -> str:
    return erase(type_text).rsplit(".", 1)[-1]


def arity(arguments: Node | None) -> int:
    if arguments is None:
        return 0
    return sum(1 for c in arguments.named_children if c.type not in COMMENTS)


def arguments_of(node: Node) -> list[Node]:
    args = node.child_by_field_name("arguments")
    if args is None:
        return []
    return [c for c in args.named_children if c.type not in COMMENTS]


def has_modifier(node: Node, word: str) -> bool:
    for child in node.children:
        if child.type == "modifiers":
            return any(text(m) == word for m in child.children)
    return False


def line(node: Node) -> int:
    """1-based source line of ``node``, as every record and message counts lines."""
    return node.start_point[0] + 1


def formal_parameters(params: Node | None) -> tuple[list[tuple[str, str]], bool]:
    """(name, full type) of each formal parameter, and whether the last is varargs."""
    out: list[tuple[str, str]] = []
    varargs = False
    if params is None:
        return out, varargs
    for p in params.named_children:
        if p.type == "formal_parameter":
            out.append((text(p.child_by_field_name("name")), text(p.child_by_field_name("type"))))
        elif p.type == "spread_parameter":
            typ = next((c for c in p.named_children if c.type not in ("modifiers",)), None)
            decl = next((c for c in p.named_children if c.type == "variable_declarator"), None)
            name = text(decl.child_by_field_name("name")) if decl is not None else ""
            out.append((name, text(typ) + "[]"))
            varargs = True
    return out, varargs
