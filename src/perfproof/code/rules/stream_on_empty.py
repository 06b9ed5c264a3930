"""stream-on-empty: a stream pipeline over a collection that is usually empty."""

from __future__ import annotations

from collections.abc import Iterator

from tree_sitter import Node

from perfproof.code.rules.cold import in_cold_context, is_lazy
from perfproof.code.rules.common import RuleInfo, declared_type, enclosing, method_name, receiver
from perfproof.code.syntax import arity, simple_name, text
from perfproof.code.unit import Unit

RULE = RuleInfo(
    id="stream-on-empty",
    title="Stream pipeline built over a possibly empty collection",
    explanation=(
        "A `stream()...collect(...)` or `...toList()` pipeline over a collection field or "
        "parameter allocates the spliterator, every stage object, the collector and the "
        "result container even when the source holds nothing. When such a method runs per "
        "request and the collection is empty most of the time (no errors, no tags, no "
        "pending items), that fixed cost is the whole cost of the call."
    ),
    rewrite=(
        "Return early with an empty immutable result when `source.isEmpty()`, or replace the "
        "pipeline by a plain loop that allocates only when it finds something."
    ),
)
_COLLECTIONS = frozenset(
    {
        "Collection",
        "List",
        "Set",
        "Queue",
        "Deque",
        "SortedSet",
        "NavigableSet",
        "ArrayList",
        "LinkedList",
        "HashSet",
        "LinkedHashSet",
        "TreeSet",
        "ArrayDeque",
        "CopyOnWriteArrayList",
        "ImmutableList",
        "ImmutableSet",
    }
)
_ONE_OFF = frozenset({"toString", "main", "equals", "hashCode"})


def _source(call: Node) -> Node | None:
    """The receiver of the ``stream()`` call at the bottom of a call chain, if there is one."""
    cur = receiver(call)
    while cur is not None and cur.type == "method_invocation":
        if method_name(cur) == "stream" and arity(cur.child_by_field_name("arguments")) == 0:
            return receiver(cur)
        cur = receiver(cur)
    return None


def find(unit: Unit) -> Iterator[tuple[Node, str]]:
    for call in unit.invoked("collect", "toList"):
        parent = call.parent
        if parent is not None and parent.type == "method_invocation" and _source(parent):
            continue  # an inner stage of a longer pipeline, reported at its end
        source = _source(call)
        if source is None:
            continue
        typed = declared_type(unit, source)
        if (
            typed is None
            or typed[1] not in ("field", "param")
            or simple_name(typed[0]) not in _COLLECTIONS
        ):
            continue
        method = enclosing(unit, call)
        if method is None or method.kind != "method" or method.name in _ONE_OFF:
            continue
        if in_cold_context(call) or is_lazy(call):
            continue  # a log line or an error message: not the per-call path
        name = text(source).removeprefix("this.")
        body = unit.src[method.start : method.end]
        if f"{name}.isEmpty()".encode() in body or f"{name}.size()".encode() in body:
            continue  # already guarded
        yield call, f"{name}.stream() pipeline runs even when {name} is empty"
