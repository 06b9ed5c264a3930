"""The keys of a suite (benchmark × @Param combination) and how to ask JMH for any subset.

JMH runs one benchmark once per combination of its ``@Param`` values; that combination is the
smallest thing a sequential run can stop measuring. JMH has no "run exactly these keys"
option: it selects benchmarks with include regexes and parameter values with ``-p name=v1,v2``,
and then runs the cross product. So a subset of keys is asked for as a few *selections*, each a
set of benchmarks and a set of values per parameter whose cross product is exactly a part of
the subset (:func:`group_keys`).

Keys and selections are the plan's own types (:mod:`perfproof.model.documents.suite`): small,
frozen, ordered, so a suite is one deterministic, sorted list a run can split into shards by
position; this module says how JMH is asked for them.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from perfproof.errors import InputError
from perfproof.jmh.listing import parse_listing
from perfproof.model import BenchKey
from perfproof.model.documents.suite import Selection, SuiteKey


def suite_key_of(key: BenchKey) -> SuiteKey:
    """The suite key a measured key belongs to (modes and metrics folded together)."""
    return SuiteKey(benchmark=key.benchmark, params=key.params)


def suite_keys(text: str) -> list[SuiteKey]:
    """Every key of a ``-lp`` listing, sorted: the cross product of each benchmark's params.

    JMH applies ``-p`` overrides to what ``-lp`` prints, so list with the user's ``-p`` options
    and the keys are the ones the run measures.
    """
    keys: list[SuiteKey] = []
    for bench, params in parse_listing(text).items():
        names = sorted(params)
        for combo in itertools.product(*(params[n] for n in names)):
            keys.append(SuiteKey(benchmark=bench, params=tuple(zip(names, combo, strict=True))))
    return sorted(set(keys))


def check_bench_regexes(regexes: Sequence[str]) -> None:
    """Refuse a ``--bench`` regex that cannot compile, before anything is built.

    JMH compiles it with ``java.util.regex``; Python's engine is a close enough judge of
    syntax (brackets, parentheses, repetition). Escapes only Java knows (``\\p{Lu}``, ``\\Q``)
    are let through rather than refusing a regex JMH would accept.
    """
    for regex in regexes:
        if not regex.strip():
            raise InputError("--bench: an empty regex would select every benchmark; drop it")
        try:
            re.compile(regex)
        except re.error as exc:
            if "bad escape" in str(exc):
                continue
            raise InputError(f"--bench {regex!r}: not a valid regex: {exc}") from exc


def java_escape(text: str) -> str:
    """``text`` as a literal in a Java (and Python) regex: every non-word character escaped.

    A backslash before a non-alphanumeric character is always a literal in java.util.regex,
    so this is safe for ``$`` in nested class names and for any odd parameter value.
    """
    return "".join(c if c.isalnum() or c == "_" else "\\" + c for c in text)


def include_regex(selection: Selection) -> str:
    """One anchored JMH include regex that selects exactly the selection's benchmarks."""
    names = [java_escape(b) for b in selection.benchmarks]
    body = names[0] if len(names) == 1 else "(?:" + "|".join(names) + ")"
    return f"^{body}$"


def param_args(selection: Selection) -> tuple[str, ...]:
    """``-p name=v1,v2`` for every parameter of the selection (values may not hold a comma)."""
    args: list[str] = []
    for name, values in selection.params:
        args += ["-p", f"{name}={','.join(values)}"]
    return tuple(args)


_Box = tuple[tuple[str, frozenset[str]], ...]


def group_keys(keys: Iterable[SuiteKey]) -> list[Selection]:
    """The fewest JMH invocations this greedy cover finds that run exactly ``keys``.

    Per benchmark, keys start as single-point boxes; two boxes that agree on every parameter
    but one merge into one box (still a cross product, holding exactly the keys of both) until
    no pair merges. Benchmarks with the same boxes then share invocations. Deterministic: the
    same keys always give the same selections in the same order.
    """
    by_bench: dict[str, list[_Box]] = {}
    for key in sorted(set(keys)):
        box = tuple((name, frozenset([value])) for name, value in key.params)
        by_bench.setdefault(key.benchmark, []).append(box)
    shared: dict[_Box, list[str]] = {}
    for bench, boxes in by_bench.items():
        for box in _merge_boxes(boxes):
            shared.setdefault(box, []).append(bench)
    selections = [
        Selection(
            benchmarks=tuple(sorted(benches)),
            params=tuple((name, _ordered(values)) for name, values in box),
        )
        for box, benches in shared.items()
    ]
    for sel in selections:
        for _, values in sel.params:
            if any("," in v for v in values):
                raise InputError(
                    f"{sel.benchmarks[0]}: a @Param value holding ',' cannot be selected with "
                    "JMH's -p; use --rounds N (no early stop) for this suite"
                )
    return sorted(selections)


@dataclass(frozen=True)
class Cover:
    """The selections of a round, and why a benchmark still needs more than one of them."""

    selections: list[Selection]
    why: list[str]


def cover_keys(
    keys: Iterable[SuiteKey], suite: Iterable[SuiteKey], key_s: float, start_s: float
) -> Cover:
    """``group_keys``, then per benchmark one JMH invocation for all its keys whenever that is
    cheaper: the cross product of the values its undecided keys need may also hold keys already
    decided (any key of ``suite``), each costing ``key_s`` of forks a side to run for nothing,
    against ``start_s`` for every further JVM start it saves. Boxes of one benchmark are joined
    pairwise, cheapest first, while a join costs no more than the start it saves. A benchmark
    left with several invocations gets a reason in ``why``, with the figures."""
    wanted = sorted(set(keys))
    known = set(suite) | set(wanted)
    by_bench: dict[str, list[_Box]] = {}
    for sel in group_keys(wanted):
        box = tuple((name, frozenset(values)) for name, values in sel.params)
        for bench in sel.benchmarks:
            by_bench.setdefault(bench, []).append(box)
    why: list[str] = []
    shared: dict[_Box, list[str]] = {}
    for bench, boxes in sorted(by_bench.items()):
        boxes, extra = _join_cheap(bench, boxes, known, key_s, start_s)
        if len(boxes) > 1 and extra is not None:
            why.append(
                f"{bench}: {len(boxes)} JMH invocations a side; one would also run {extra} "
                f"decided key(s) (about {extra * key_s:.0f}s of forks a side) against about "
                f"{(len(boxes) - 1) * start_s:.0f}s for the further JVM start(s)"
            )
        elif len(boxes) > 1:
            why.append(f"{bench}: {len(boxes)} JMH invocations a side; the values its keys "
                       "need do not make one cross product of the suite's keys")  # fmt: skip
        for box in boxes:
            shared.setdefault(box, []).append(bench)
    selections = [
        Selection(benchmarks=tuple(sorted(b)), params=tuple((n, _ordered(v)) for n, v in box))
        for box, b in shared.items()
    ]
    return Cover(sorted(selections), why)


def _join_cheap(
    bench: str, boxes: list[_Box], known: set[SuiteKey], key_s: float, start_s: float
) -> tuple[list[_Box], int | None]:
    """Join boxes while the decided keys a join adds cost no more than the start it saves;
    returns the boxes and, when more than one is left, the extra keys of joining them all
    (None: that join would run combinations the suite does not have)."""
    boxes = sorted(set(boxes), key=_box_sort)
    while len(boxes) > 1:
        best: tuple[int, int, int] | None = None
        for i, j in itertools.combinations(range(len(boxes)), 2):
            extra = _extra(bench, _hull(boxes[i], boxes[j]), [boxes[i], boxes[j]], known)
            if extra is not None and (best is None or extra < best[0]):
                best = (extra, i, j)
        if best is None or best[0] * key_s > start_s:
            break
        _, i, j = best
        boxes = sorted([b for k, b in enumerate(boxes) if k not in (i, j)]
                       + [_hull(boxes[i], boxes[j])], key=_box_sort)  # fmt: skip
    if len(boxes) == 1:
        return boxes, 0
    hull = boxes[0]
    for box in boxes[1:]:
        hull = _hull(hull, box)
    return boxes, _extra(bench, hull, boxes, known)


def _hull(a: _Box, b: _Box) -> _Box:
    """The smallest box holding both (same parameter names)."""
    return tuple((n, va | vb) for (n, va), (_, vb) in zip(a, b, strict=True))


def _extra(bench: str, hull: _Box, parts: list[_Box], known: set[SuiteKey]) -> int | None:
    """Keys of ``hull`` in none of ``parts``; None when one of them is not a key of the suite."""
    names = [n for n, _ in hull]
    inside = {combo for part in parts for combo in itertools.product(*(sorted(v) for _, v in part))}
    extra = 0
    for combo in itertools.product(*(sorted(v) for _, v in hull)):
        if combo in inside:
            continue
        key = SuiteKey(benchmark=bench, params=tuple(zip(names, combo, strict=True)))
        if key not in known:
            return None
        extra += 1
    return extra


def _merge_boxes(boxes: list[_Box]) -> list[_Box]:
    boxes = sorted(set(boxes), key=_box_sort)
    merged = True
    while merged:
        merged = False
        for i, j in itertools.combinations(range(len(boxes)), 2):
            joined = _join(boxes[i], boxes[j])
            if joined is not None:
                boxes = [b for k, b in enumerate(boxes) if k not in (i, j)] + [joined]
                boxes.sort(key=_box_sort)
                merged = True
                break
    return boxes


def _join(a: _Box, b: _Box) -> _Box | None:
    """``a ∪ b`` when it is a box: same parameter names, equal on all but one parameter."""
    if [n for n, _ in a] != [n for n, _ in b]:
        return None
    differ = [i for i, (x, y) in enumerate(zip(a, b, strict=True)) if x[1] != y[1]]
    if len(differ) != 1:
        return None
    i = differ[0]
    return (*a[:i], (a[i][0], a[i][1] | b[i][1]), *a[i + 1 :])


def _box_sort(box: _Box) -> tuple[tuple[str, tuple[str, ...]], ...]:
    return tuple((name, _ordered(values)) for name, values in box)


def _ordered(values: frozenset[str]) -> tuple[str, ...]:
    """Numbers in numeric order, then text: the order a reader expects in ``-p n=16,128``."""

    def sort_key(v: str) -> tuple[int, float, str]:
        try:
            return (0, float(v), v)
        except ValueError:
            return (1, 0.0, v)

    return tuple(sorted(values, key=sort_key))
