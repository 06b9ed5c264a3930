"""Every CPU sample and allocated byte of a recording, charged to the project method that
caused it.

The frame that burns a sample or allocates is usually the JDK's or a library's
(``Short.valueOf``, ``HashMap.merge``), and no pull request changes those; the change is made
in the project method that called them. So a stack is charged to its leaf-most project frame,
and the first frame below it (the JDK or library call the project made) is kept as the
"via". Stacks that are the JVM's or the harness's own work (:mod:`perfproof.profile.outside`)
and stacks that run once (static initialisers, JMH's set-up and tear-down) are counted apart,
so they can be shown and never ranked as a per-operation cost.

Which frames are the project's is the caller's knowledge (the source index): it passes a
:data:`Resolve` function from a frame name to a :class:`Method`.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal, TypeVar

from perfproof.profile.outside import Outside, is_jmh, outside
from perfproof.profile.stacks import Profile, Stack

Bucket = Literal["outside", "once", "driver", "unattributed"]
"""Costs that are no hypothesis: the JVM and harness, once-only work, the benchmark's or
test's own code, and stacks with no project frame at all."""

Once = Literal["static-init", "setup"]


@dataclass(frozen=True)
class Method:
    """A project method as a profile names it, with where its source is."""

    frame: str
    """``package.Outer$Inner.method``: JFR's spelling, lambdas folded into their method."""
    label: str
    file: str
    line: int
    end_line: int
    scope: str
    """production, test or benchmark (the source index's classification)."""


Resolve = Callable[[str], Method | None]

PATH_DEPTH = 3
_LAMBDA = re.compile(r"\.lambda\$(\w+?)\$\d+$")
_STUB_LOOP = re.compile(r"_jmhStub$")


def method_frame(frame: str) -> str:
    """``C.lambda$publish$0`` → ``C.publish``; ``lambda$static$0`` is the static initialiser and
    ``lambda$new$0`` the constructor, as javac names them."""
    m = _LAMBDA.search(frame)
    if m is None:
        return frame
    name = {"static": "<clinit>", "new": "<init>"}.get(m.group(1), m.group(1))
    return frame[: m.start()] + "." + name


def once_only(stack: Stack) -> Once | None:
    """Work that runs once however many operations follow: a static initialiser anywhere on
    the stack, or a JMH stub that is not in its measured loop (``@Setup``, ``@TearDown``)."""
    if any(f.endswith(".<clinit>") for f in stack):
        return "static-init"
    stubs = [f for f in stack if ".jmh_generated." in f]
    if stubs and not any(_STUB_LOOP.search(f) for f in stubs):
        return "setup"
    return None


@dataclass
class SiteCost:
    """One project method's cost in one recording."""

    cpu: int = 0
    alloc: int = 0
    classes: dict[str, int] = field(default_factory=dict)
    """Bytes per allocated class."""
    via_cpu: dict[str, int] = field(default_factory=dict)
    """CPU samples by the first frame below the method (its call into the JDK or a library);
    the method's own frame when it is the leaf."""
    via_alloc: dict[str, int] = field(default_factory=dict)
    """Bytes by that frame."""
    paths: dict[tuple[str, ...], int] = field(default_factory=dict)
    """CPU samples (or bytes, for a method seen only allocating) by the project methods that
    called it, nearest :data:`PATH_DEPTH` first: a fix is often made one or two calls up."""
    inclusive: int = 0
    """CPU samples of the stacks the method is on, charged to it or to what it calls (once a
    stack, however deep the recursion): what an engineer reads as its inclusive cost."""
    callees: dict[str, int] = field(default_factory=dict)
    """Of :attr:`inclusive`, the samples of each production method it called (the nearest one
    below it on the stack): where the cost it does not hold itself goes."""
    below: dict[str, int] = field(default_factory=dict)
    """Of :attr:`inclusive`, the samples each method below it holds itself (is charged with):
    whether one of them already explains most of its cost."""
    ancestors: dict[str, int] = field(default_factory=dict)
    """Of :attr:`inclusive`, the samples on which each production method above it was on the
    stack: how much of its cost an inclusive hypothesis of a caller already holds."""


@dataclass
class Attributed:
    """One recording, charged: per project method, and the costs that are no hypothesis."""

    source: str
    cpu_total: int
    alloc_total: int
    duration_s: float | None
    sites: dict[str, SiteCost] = field(default_factory=dict)
    """By :attr:`Method.frame`."""
    buckets: dict[tuple[Bucket, str], tuple[int, int]] = field(default_factory=dict)
    """(bucket, detail) → (CPU samples, bytes)."""

    def add_bucket(self, bucket: Bucket, detail: str, cpu: int, alloc: int) -> None:
        c, a = self.buckets.get((bucket, detail), (0, 0))
        self.buckets[(bucket, detail)] = (c + cpu, a + alloc)


def _charge(
    stack: Stack, resolve: Resolve
) -> tuple[Method | None, str, tuple[str, ...], tuple[str, ...]]:
    """The leaf-most project frame of the stack, the frame it called (or itself), the
    project methods above it (nearest :data:`PATH_DEPTH` first, recursion folded), and every
    production method above it, once each, nearest first (its callers' inclusive cost)."""
    for i in range(len(stack) - 1, -1, -1):
        method = resolve(method_frame(stack[i]))
        if method is not None:
            via = stack[i + 1] if i + 1 < len(stack) else method.frame
            above: list[str] = []
            chain: dict[str, None] = {method.frame: None}
            for frame in reversed(stack[:i]):
                caller = resolve(method_frame(frame))
                if caller is None or caller.frame == method.frame:
                    continue
                if caller.scope == "production":
                    chain.setdefault(caller.frame, None)
                if len(above) < PATH_DEPTH and (not above or above[-1] != caller.frame):
                    above.append(caller.frame)
            return method, via, tuple(above), tuple(chain)[1:]
    return None, "", (), ()


@dataclass(frozen=True)
class _Charged:
    """Where one stack's weight goes: the method charged, the call its cost lands in, its
    nearest callers, every production method above it, or a bucket that is no hypothesis."""

    method: Method | None = None
    via: str = ""
    above: tuple[str, ...] = ()
    chain: tuple[str, ...] = ()
    bucket: tuple[Bucket, str] | None = None


def _classify(stack: Stack, resolve: Resolve) -> _Charged:
    kind: Outside | None = outside(stack)
    if kind is not None:
        return _Charged(bucket=("outside", kind))
    once = once_only(stack)
    if once is not None:
        return _Charged(bucket=("once", once))
    method, via, above, chain = _charge(stack, resolve)
    if method is None:
        top = next((f for f in reversed(stack) if not is_jmh(f)), stack[-1] if stack else "")
        return _Charged(bucket=("unattributed", top.rsplit(".", 1)[0]))
    if method.scope != "production":
        return _Charged(bucket=("driver", method.frame))
    return _Charged(method, via, above, chain)


def runs_project_code(a: Attributed) -> bool:
    """Whether any stack of the recording reached a project frame (the workload's or its
    driver's): a build tool's JVM or a launcher's probe never does."""
    return bool(a.sites) or any(bucket == "driver" for bucket, _ in a.buckets)


K = TypeVar("K")


def _bump(into: dict[K, int], key: K, weight: int) -> None:
    into[key] = into.get(key, 0) + weight


def _add(into: dict[K, int], more: dict[K, int]) -> None:
    for k, v in more.items():
        _bump(into, k, v)


def _add_weight(out: Attributed, charged: _Charged, weight: int, cls: str | None) -> None:
    """Charge one stack's weight: CPU samples where ``cls`` is None, else bytes of ``cls``.
    A method seen allocating keeps the callers of its allocations only while no CPU sample
    names it (CPU is charged first, so its paths win)."""
    method, via, above, bucket = charged.method, charged.via, charged.above, charged.bucket
    if bucket is not None:
        cpu = weight if cls is None else 0
        out.add_bucket(*bucket, cpu, weight - cpu)
        return
    assert method is not None
    cost = out.sites.setdefault(method.frame, SiteCost())
    if cls is None:
        cost.cpu += weight
        _bump(cost.via_cpu, via, weight)
        _bump(cost.paths, above, weight)
        _add_inclusive(out, cost, method.frame, charged.chain, weight)
        return
    cost.alloc += weight
    _bump(cost.classes, cls, weight)
    _bump(cost.via_alloc, via, weight)
    if not cost.cpu:
        _bump(cost.paths, above, weight)


def _add_inclusive(
    out: Attributed, cost: SiteCost, frame: str, chain: tuple[str, ...], weight: int
) -> None:
    """One CPU stack in the inclusive cost of the charged method and of every production
    method above it, each with the callee it went through."""
    cost.inclusive += weight
    below = frame
    for i, caller in enumerate(chain):
        site = out.sites.setdefault(caller, SiteCost())
        site.inclusive += weight
        _bump(site.callees, below, weight)
        _bump(site.below, frame, weight)
        for above in chain[i + 1 :]:
            _bump(site.ancestors, above, weight)
        _bump(cost.ancestors, caller, weight)
        below = caller


def combine(parts: list[Attributed], source: str) -> Attributed:
    """Several JVMs of one run as one recording: samples, bytes and JVM-seconds add up."""
    durations = [a.duration_s for a in parts]
    total = sum(d for d in durations if d) if all(durations) else None
    out = Attributed(
        source,
        sum(a.cpu_total for a in parts),
        sum(a.alloc_total for a in parts),
        total,
    )
    for a in parts:
        for (bucket, detail), (c, b) in a.buckets.items():
            out.add_bucket(bucket, detail, c, b)
        for frame, s in a.sites.items():
            t = out.sites.setdefault(frame, SiteCost())
            t.cpu += s.cpu
            t.alloc += s.alloc
            _add(t.classes, s.classes)
            _add(t.via_cpu, s.via_cpu)
            _add(t.via_alloc, s.via_alloc)
            _add(t.paths, s.paths)
            t.inclusive += s.inclusive
            _add(t.callees, s.callees)
            _add(t.below, s.below)
            _add(t.ancestors, s.ancestors)
    return out


def attribute(profile: Profile, resolve: Resolve) -> Attributed:
    """Charge every CPU sample and allocated byte of one recording."""
    out = Attributed(profile.source, profile.cpu_samples, profile.alloc_bytes, profile.duration_s)
    memo: dict[Stack, _Charged] = {}

    def site(stack: Stack) -> _Charged:
        if stack not in memo:
            memo[stack] = _classify(stack, resolve)
        return memo[stack]

    for stack, w in profile.cpu.items():
        _add_weight(out, site(stack), w, None)
    for (stack, cls), w in profile.alloc.items():
        _add_weight(out, site(stack), w, cls)
    return out
