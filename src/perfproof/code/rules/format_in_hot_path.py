"""format-in-hot-path: String.format on a path that is not an error or a guarded log line."""

from __future__ import annotations

from collections.abc import Iterator

from tree_sitter import Node

from perfproof.code.rules.cold import feeds_only_cold_code, in_cold_context, is_lazy, kept_in_field
from perfproof.code.rules.common import RuleInfo, enclosing, receiver
from perfproof.code.syntax import simple_name, text
from perfproof.code.unit import Unit

RULE = RuleInfo(
    id="format-in-hot-path",
    title="String.format on a regular code path",
    explanation=(
        "`String.format` parses its pattern on every call, boxes primitive arguments into a "
        "varargs array and goes through a Formatter and a StringBuilder; it is one of the "
        "slowest ways to build a string. That is fine when building an exception message or "
        "a log line that is printed anyway or guarded by its level, but on a normal per-call "
        "path (names, keys, metric tags, request descriptions) it often dominates the "
        "method's allocation. Debug and trace arguments count: they are formatted even when "
        "the level is off."
    ),
    rewrite=(
        "Concatenate with `+` (compiled to an efficient StringConcatFactory call), or compute "
        "the string once and cache it in a field; move it under the logging guard when it "
        "only feeds a log line."
    ),
)
_ONE_OFF_METHODS = frozenset({"toString", "main"})


def _one_off(unit: Unit, call: Node) -> bool:
    """Set-up or error code: static initialisation, ``main``, ``toString``, methods of
    builders and of exception classes."""
    method = enclosing(unit, call)
    if method is None or method.kind == "clinit" or method.name in _ONE_OFF_METHODS:
        return True
    if method.owner.endswith("Builder"):
        return True
    declared = next((t for t in unit.types if t.fqn == method.owner), None)
    names = [method.owner, declared.superclass or "" if declared else ""]
    return any(simple_name(n).endswith(("Exception", "Error", "Throwable")) for n in names)


def find(unit: Unit) -> Iterator[tuple[Node, str]]:
    for call in unit.invoked("format"):
        if text(receiver(call)) not in (
            "String",
            "java.lang.String",
        ):
            continue
        if _one_off(unit, call) or in_cold_context(call) or is_lazy(call):
            continue
        if kept_in_field(unit, call) or feeds_only_cold_code(unit, call):
            continue
        yield call, "String.format outside error and guarded logging paths"
