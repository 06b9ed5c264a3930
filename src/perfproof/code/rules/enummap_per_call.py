"""enummap-per-call: a fresh EnumMap for every call of an ordinary method."""

from __future__ import annotations

from collections.abc import Iterator

from tree_sitter import Node

from perfproof.code.rules.common import RuleInfo, in_plain_method
from perfproof.code.syntax import arguments_of, erase, text
from perfproof.code.unit import Unit

RULE = RuleInfo(
    id="enummap-per-call",
    title="EnumMap allocated on every call",
    explanation=(
        "`new EnumMap<>(X.class)` allocates a key array and a value array as long as the enum "
        "has constants, whatever the number of entries later put in. Built inside a "
        "per-request method to hold a result of one or two entries, it costs far more than "
        "the entries themselves, and it also pays the reflective lookup of the enum's "
        "constants on each construction."
    ),
    rewrite=(
        "Return a small map (`Map.of`, a singleton, or a reused immutable instance for the "
        "common case) or hoist the map into a field that is cleared and reused; keep EnumMap "
        "for long-lived maps that really fill up."
    ),
)


def find(unit: Unit) -> Iterator[tuple[Node, str]]:
    for node in unit.nodes["new"]:
        typ = erase(text(node.child_by_field_name("type")))
        if typ not in ("EnumMap", "java.util.EnumMap"):
            continue
        args = arguments_of(node)
        if len(args) != 1 or args[0].type != "class_literal":
            continue  # the copy constructor copies an existing map: a different trade-off
        if in_plain_method(unit, node):
            yield node, f"new EnumMap<>({text(args[0])}) per call"
