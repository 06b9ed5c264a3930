"""The JIT's account in ``prove``'s profile stage: for each profiled benchmark, what the
compiler decided on every call of its path to the change (JMH's loop → the benchmark → … →
the changed method), on each side, and each changed method's tier and deoptimizations.

The profile forks record the compiler's events (:func:`perfproof.measure.jfr_args.jit_settings`);
:mod:`perfproof.profile.jit` reads them. Calls a changed method makes or receives outside the
path are added where the two sides decided them differently (a cold check moved out of line
shows as its own call), a few at most.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

from perfproof.model.changes import ChangedMethod
from perfproof.model.documents.prove_jit import JitAccount, JitCall, JitMethod
from perfproof.model.documents.prove_stages import ReachedBenchmark
from perfproof.pipeline.prove.profile_forks import RecordedForks
from perfproof.profile import jit

MORE_CALLS = 4
"""Calls of a changed method off the benchmark's path that are shown, where they changed."""


def _class_name(method: str) -> str:
    """The simple class of a path entry or a short name: ``Outer.Inner.m(int)`` → ``Inner``."""
    head = method.split("(", 1)[0]
    return head.rpartition(".")[0].rsplit(".", 1)[-1]


def jit_accounts(
    recorded: RecordedForks,
    reached: Sequence[ReachedBenchmark],
    methods: Sequence[ChangedMethod],
    java: str | None,
) -> tuple[JitAccount, ...]:
    """One account per reached benchmark recorded on both sides (none when the recordings
    hold no compiler events)."""
    changed = [jit.short(m.frame) for m in methods if m.kind != "removed"]
    base_by, head_by = recorded.by_benchmark("base"), recorded.by_benchmark("head")
    out = []
    for r in reached:
        base, head = base_by.get(r.benchmark, []), head_by.get(r.benchmark, [])
        if not base or not head:
            continue
        path = [jit.short(p) for p in r.path] or [jit.short(r.benchmark)]
        focus = sorted(
            {m.owner for m in methods}
            | {_class_name(p) for p in path}
            | {_class_name(c) for c in changed}
        )
        sides = jit.load(base, focus, java), jit.load(head, focus, java)
        if not any(r.calls or r.compiled for side in sides for r in side):
            continue
        out.append(_account(r.benchmark, path, changed, *sides))
    return tuple(out)


def _account(
    benchmark: str,
    path: list[str],
    changed: list[str],
    base: list[jit.Recording],
    head: list[jit.Recording],
) -> JitAccount:
    seen = jit.calls_seen([*base, *head])
    stub = sorted(c for c in seen if c[1] == path[0] and "_jmhTest." in c[0])
    calls = [*stub[:1], *itertools.pairwise(path)]
    extra = sorted(
        c
        for c in seen
        if c not in calls
        and (c[0] in changed or c[1] in changed)
        and jit.side_call(base, c).text() != jit.side_call(head, c).text()
    )
    rows = []
    for call in [*calls, *extra[:MORE_CALLS]]:
        b, h = jit.side_call(base, call), jit.side_call(head, call)
        rows.append(JitCall(caller=call[0], callee=call[1], base=b.text(), head=h.text(),
                            base_forks=b.forks, head_forks=h.forks))  # fmt: skip
    shown = [m for m in changed if m in path or any(m in c for c in calls)]
    methods = [
        JitMethod(
            method=m,
            base_tier=jit.tier_text(base, m),
            head_tier=jit.tier_text(head, m),
            base_deopts=jit.deopt_text(base, m),
            head_deopts=jit.deopt_text(head, m),
        )
        for m in dict.fromkeys(shown)
    ]
    return JitAccount(benchmark=benchmark, calls=tuple(rows), methods=tuple(methods),
                      base_recordings=len(base), head_recordings=len(head))  # fmt: skip
