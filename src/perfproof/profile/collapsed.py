"""Brendan Gregg's collapsed-stack format: ``root;caller;leaf WEIGHT`` one stack a line.

Writing it lets any flame-graph tool draw perfproof's profiles; reading it lets profiles
from other profilers (async-profiler's ``collapsed`` output, for one) go through the same
census and diff. Allocation stacks carry the allocated class as an extra leaf frame marked
``_[a]``, so one file says what it holds; async-profiler's own allocation output (class as
the plain leaf frame) is read as allocation when the caller says so.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import TypeVar

from perfproof.errors import InputError
from perfproof.profile.stacks import Profile, Stack, normalize_frame
from perfproof.storage import write_text_atomic

CLASS_MARK = "_[a]"
MAX_WEIGHT = 1e15
"""Largest weight one line may carry: far above any sample count or byte total a profiler
writes, and small enough that millions of lines still sum to a finite total."""
# frame-type annotations async-profiler adds (interpreted, JIT, inlined, C1, kernel)
_ANNOTATION = re.compile(r"_\[(?:0|j|i|1|k)\]$")

K = TypeVar("K")


def format_cpu(cpu: Mapping[Stack, float]) -> str:
    lines = [f"{';'.join(s)} {_num(w)}" for s, w in _heaviest_first(cpu.items()) if s]
    return "".join(line + "\n" for line in lines)


def format_alloc(alloc: Mapping[tuple[Stack, str], float]) -> str:
    items = _heaviest_first(alloc.items())
    lines = [f"{';'.join((*s, cls + CLASS_MARK))} {_num(w)}" for (s, cls), w in items]
    return "".join(line + "\n" for line in lines)


def _heaviest_first(items: Iterable[tuple[K, float]]) -> list[tuple[K, float]]:
    return sorted(items, key=lambda kv: (-kv[1], str(kv[0])))


def _num(w: int | float) -> str:
    return str(int(w)) if float(w).is_integer() else f"{w:.6g}"


def write_collapsed(path: Path, text: str) -> Path:
    return write_text_atomic(path, text)


def parse_collapsed(text: str, source: str, alloc_leaf_is_class: bool = False) -> Profile:
    """A profile from collapsed stacks; allocation when leaves carry the class mark.

    Raises :class:`InputError` naming the file and line when a line is not ``stack weight``.
    """
    cpu: dict[Stack, int] = {}
    alloc: dict[tuple[Stack, str], int] = {}
    events = 0
    zero_lines = 0
    for n, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        stack_text, _, weight_text = line.rpartition(" ")
        try:
            weight = float(weight_text)
        except ValueError:
            weight = float("nan")
        if not stack_text or weight != weight or weight < 0:
            raise InputError(
                f"{source}: not a JFR recording nor collapsed stacks "
                f"(line {n} is not 'frame;frame;... COUNT')"
            )
        if weight > MAX_WEIGHT:
            # 1e400 reads as infinity; sums of such weights would print "inf" and "nan%"
            raise InputError(f"{source}: line {n}: weight {weight_text} is too large")
        if weight == 0:  # a stack no sample landed in says nothing; shares need a total
            zero_lines += 1
            continue
        # a foreign tool's fractional weight is kept as it is; counts, sums and shares
        # treat it as they treat a count, so the profile's int-typed maps carry it
        w: int = int(weight) if weight.is_integer() else weight  # type: ignore[assignment]
        frames = [f for f in stack_text.split(";") if f]
        if frames and frames[-1].endswith(CLASS_MARK):
            cls = frames.pop()[: -len(CLASS_MARK)]
            key = (tuple(_frame(f) for f in frames), cls)
            alloc[key] = alloc.get(key, 0) + w
            events += 1
        elif alloc_leaf_is_class and frames:
            cls = _ANNOTATION.sub("", frames.pop())
            key = (tuple(_frame(f) for f in frames), cls)
            alloc[key] = alloc.get(key, 0) + w
            events += 1
        else:
            stack = tuple(_frame(f) for f in frames)
            cpu[stack] = cpu.get(stack, 0) + w
    if not cpu and not alloc and zero_lines:
        raise InputError(
            f"{source}: every stack's weight is 0 ({zero_lines} lines): no samples to profile"
        )
    if not cpu and not alloc:
        raise InputError(f"{source}: no stacks found (not a JFR recording nor collapsed stacks)")
    profile = Profile(source=source, cpu=cpu, alloc=alloc, alloc_events=events)
    if alloc:
        profile.alloc_source = "collapsed stacks"
    profile.max_depth = max((len(s) for s in cpu), default=0)
    return profile


def _frame(name: str) -> str:
    return normalize_frame(_ANNOTATION.sub("", name))


def read_collapsed(path: Path, alloc_leaf_is_class: bool = False) -> Profile:
    try:
        text = path.read_text("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(f"{path}: not a JFR recording nor collapsed stacks (binary)") from exc
    return parse_collapsed(text, str(path), alloc_leaf_is_class)
