"""direct-buffer-per-call: ByteBuffer.allocateDirect outside one-off set-up code."""

from __future__ import annotations

from collections.abc import Iterator

from tree_sitter import Node

from perfproof.code.rules.cold import kept_in_field
from perfproof.code.rules.common import RuleInfo, in_plain_method, receiver
from perfproof.code.syntax import text
from perfproof.code.unit import Unit

RULE = RuleInfo(
    id="direct-buffer-per-call",
    title="Direct ByteBuffer allocated per call",
    explanation=(
        "`ByteBuffer.allocateDirect` reserves native memory, zeroes it and registers a Cleaner "
        "that frees it only after a GC notices the buffer is gone. Allocated per call it is "
        "much slower than a heap allocation, its memory is invisible to the heap sizing that "
        "would trigger that GC, and under load it ends in `OutOfMemoryError: Direct buffer "
        "memory` or in System.gc() stalls from the reservation path."
    ),
    rewrite=(
        "Allocate once (a field set in the constructor, a thread-local, or a pool) and "
        "`clear()` it between uses, growing it only when a larger size is needed; use a heap "
        "buffer if the data never reaches a channel."
    ),
)


def _is_allocate_direct(unit: Unit, call: Node) -> bool:
    if text(call.child_by_field_name("name")) != "allocateDirect":
        return False
    obj = receiver(call)
    if obj is not None:
        return text(obj) in ("ByteBuffer", "java.nio.ByteBuffer")
    return any(
        i.static and i.name in ("java.nio.ByteBuffer.allocateDirect", "java.nio.ByteBuffer")
        for i in unit.imports
    )


def find(unit: Unit) -> Iterator[tuple[Node, str]]:
    for call in unit.invoked("allocateDirect"):
        if not _is_allocate_direct(unit, call) or not in_plain_method(unit, call):
            continue
        if kept_in_field(unit, call):
            continue
        yield call, "direct buffer allocated on every call"
