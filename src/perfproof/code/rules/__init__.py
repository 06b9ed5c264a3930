"""The scan rules: one module per rule, each with a ``RULE`` description and ``find(unit)``.

Rules look at one parsed file and yield the nodes they flag; they aim for precision over
recall, so each skips the look-alikes that are not worth a benchmark (set-up code, error
paths, copies, already guarded code).
"""

from __future__ import annotations

from collections.abc import Iterator

from perfproof.code.model import RawFinding
from perfproof.code.rules import (
    boxed_key_lookup,
    boxing_in_loop,
    direct_buffer_per_call,
    enummap_per_call,
    format_in_hot_path,
    stream_on_empty,
)
from perfproof.code.rules.common import RuleInfo
from perfproof.code.unit import Unit

_MODULES = (
    boxed_key_lookup,
    stream_on_empty,
    enummap_per_call,
    direct_buffer_per_call,
    format_in_hot_path,
    boxing_in_loop,
)
RULES: dict[str, RuleInfo] = {m.RULE.id: m.RULE for m in _MODULES}
RULES_VERSION = 2
"""Bump when a rule changes, so cached findings are recomputed."""


def run_rules(unit: Unit) -> Iterator[RawFinding]:
    seen: set[tuple[str, int]] = set()
    for module in _MODULES:
        for node, detail in module.find(unit):
            line = node.start_point[0] + 1
            if (module.RULE.id, line) in seen:
                continue
            seen.add((module.RULE.id, line))
            yield RawFinding(module.RULE.id, line, unit.method_at(node.start_byte), detail)
