"""The costs per operation perfproof compares beside time and heap bytes/op, named once.

Heap bytes per operation (JMH's ``gc.alloc.rate.norm``) is not the whole cost of an operation:

- **Off-heap bytes per operation.** A direct ``ByteBuffer`` (and any memory taken through
  ``Unsafe.allocateMemory``) is invisible to JMH's ``-prof gc``; perfproof's own JMH profiler
  counts it exactly (``perfproof.measure.offheap``). Compared like heap bytes/op: exactly when
  both sides are near-deterministic, and a key's verdict waits for it.
- **GC time and collections per operation.** JMH's ``gc.time`` and ``gc.count`` are totals per
  iteration; divided by the iteration's operations they become costs per operation
  (``perfproof.jmh.gc_costs``). They are noisy, so they are compared in a family of their own
  and never hold a key in the plan or fail a gate: they explain a verdict, they do not make one.
"""

from __future__ import annotations

DIRECT_NORM = "direct.alloc.norm"
"""Bytes per operation reserved for direct buffers (``ByteBuffer.allocateDirect`` and what is
built on it: what ``-XX:MaxDirectMemorySize`` limits), in B/op."""

NATIVE_NORM = "native.alloc.norm"
"""Bytes per operation taken through ``Unsafe.allocateMemory``/``reallocateMemory`` outside
direct buffers (raw off-heap memory of netty, Agrona, Chronicle, the JDK's own native
buffers), in B/op."""

GC_TIME_NORM = "gc.time.norm"
"""Garbage-collection time per operation, in ns/op, from JMH's ``gc.time``."""

GC_COUNT_NORM = "gc.count.norm"
"""Collections per operation, from JMH's ``gc.count``."""

GC_COUNT_UNIT = "GCs/op"

OFF_HEAP = (DIRECT_NORM, NATIVE_NORM)
"""Off-heap bytes per operation: compared like heap bytes/op."""

GC_COSTS = (GC_TIME_NORM, GC_COUNT_NORM)
"""The costs that explain a verdict without making one (their own family, no gate, no stop)."""

COST_NAMES = {
    DIRECT_NORM: "direct B/op",
    NATIVE_NORM: "native B/op",
    GC_TIME_NORM: "GC time/op",
    GC_COUNT_NORM: "GCs/op",
}
"""What a reader calls each of them in a table header, a gate line or a note."""


def is_gc_cost(metric: str) -> bool:
    """A cost compared in its own family and never gated on (GC time or count per op)."""
    return metric in GC_COSTS
