"""Which keys of two sides are compared, and which inputs cannot be compared at all.

Entries match by benchmark, mode and @Params; each selected metric of a matched entry is one
comparison. A key on one side only is listed, not dropped. Some inputs are refused outright,
because any number computed from them would be wrong rather than uncertain: a time or a
throughput ≤ 0, and a file that lists the same entry twice (its forks would count twice and
the interval would shrink for no reason).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

import numpy as np

from perfproof.compare.result import DEFAULT_METRICS
from perfproof.errors import InputError
from perfproof.jmh.names import normalise_metric
from perfproof.jmh.units import THROUGHPUT_UNIT, TIME_UNIT
from perfproof.model import PRIMARY, Samples, Side, SideSamples, Unmatched

POSITIVE_UNITS = (TIME_UNIT, THROUGHPUT_UNIT)
"""Canonical units whose primary scores must be > 0: no operation takes no time or runs
infinitely often, so a score ≤ 0 is a broken or edited file, not a measurement (a cost per
operation in a time unit, such as GC time per op, is 0 wherever nothing was collected)."""

NO_FINITE = "no finite values"
NO_FORKS = "no forks"


def check_metrics(metrics: Sequence[str], base: SideSamples, head: SideSamples) -> None:
    """A metric asked for by name must exist somewhere, else the name is probably a typo."""
    present = {k.metric for k in base} | {k.metric for k in head}
    for metric in metrics:
        if metric not in DEFAULT_METRICS and normalise_metric(metric) not in present:
            available = ", ".join(sorted(present))
            raise InputError(f"--metric {metric}: no result has this metric (have: {available})")


def check_inputs(side_name: str, side: SideSamples) -> None:
    """Refuse duplicated entries and non-positive times or throughputs, naming file and key."""
    for key, s in side.items():
        repeated = [src for src, n in Counter(s.sources).items() if n > 1]
        if repeated:
            raise InputError(
                f"{repeated[0]}: lists {key.entry().label()} more than once; its forks would "
                "count twice (merge or remove the duplicate entry)"
            )
        if s.forks and not _averages(s):
            raise InputError(
                f"{_files(s)}: {key.entry().label()} has {side_name} scores so close to the "
                "largest float (1.8e308) that their mean overflows; rescale the unit"
            )
        if s.unit in POSITIVE_UNITS and s.forks and key.metric == PRIMARY:
            values = np.concatenate([np.asarray(f, dtype=float) for f in s.forks])
            bad = int(np.count_nonzero(values <= 0))
            if bad:
                raise InputError(
                    f"{_files(s)}: {key.entry().label()} has {bad} {side_name} score(s) <= 0 "
                    f"{s.unit}; a time or a throughput must be > 0"
                )


def _averages(s: Samples) -> bool:
    """Whether the fork means and their mean are finite (finite scores near 1.8e308 are not
    always: their sum overflows)."""
    with np.errstate(over="ignore", invalid="ignore"):
        means = np.array([np.mean(np.asarray(f, dtype=float)) for f in s.forks])
        return bool(np.isfinite(means).all() and np.isfinite(means.mean()))


def _files(s: Samples) -> str:
    files = list(dict.fromkeys(s.sources))
    return ", ".join(files[:3]) + (f" (+{len(files) - 3} more)" if len(files) > 3 else "")


def match(
    base: SideSamples, head: SideSamples, metrics: tuple[str, ...]
) -> tuple[list[tuple[Samples, Samples]], list[Unmatched]]:
    """Pairs to compare, in key order, and the keys that cannot be compared, with why."""
    base_entries = sorted({k.entry() for k in base})
    head_entries = {k.entry() for k in head}
    unmatched: list[Unmatched] = []
    pairs: list[tuple[Samples, Samples]] = []
    for entry in base_entries:
        if entry not in head_entries:
            unmatched.append(Unmatched(entry, Side.BASE, "no result for this entry in head"))
            continue
        for metric in metrics:
            key = entry.with_metric(metric)
            b, h = base.get(key), head.get(key)
            if b is None and h is None:
                continue
            problem = _unusable(metric, b, h)
            if problem is not None:
                unmatched.append(Unmatched(key, *problem))
            elif b is not None and h is not None:
                pairs.append((b, h))
    for entry in sorted(head_entries - set(base_entries)):
        unmatched.append(Unmatched(entry, Side.HEAD, "no result for this entry in base"))
    return pairs, unmatched


def _unusable(metric: str, b: Samples | None, h: Samples | None) -> tuple[Side, str] | None:
    """None when comparable, else (side, reason); callers skip a key absent on both sides."""
    if b is None or h is None:
        side = Side.BASE if b is not None else Side.HEAD
        return side, f"metric {metric} only in {side}"
    for side, s in ((Side.BASE, b), (Side.HEAD, h)):
        if not s.forks and metric == PRIMARY and (b.forks or h.forks):
            # the benchmark ran on one side and measured nothing on the other: a broken
            # side must never leave the table quietly and let a gate pass
            raise InputError(
                f"{_files(s)}: {s.key.entry().label()}: {emptiness(s)} in {side}, while "
                f"{Side.HEAD if side is Side.BASE else Side.BASE} measured it"
            )
        if not s.forks:
            return side, f"{emptiness(s)} for {metric} in {side}"
    if b.unit != h.unit:
        return Side.BASE, f"units differ: {b.unit} in base, {h.unit} in head"
    return None


def emptiness(s: Samples) -> str:
    """Why a key has no forks: every value was NaN/∞, or the file listed no iterations."""
    dropped = any("non-finite value" in n for n in s.notes)
    return (
        f"{NO_FINITE} (every score is NaN or infinite)"
        if dropped
        else f"{NO_FORKS} (no iterations)"
    )


def nothing_to_compare(
    base_spec: str, head_spec: str, base: SideSamples, head: SideSamples, unmatched: list[Unmatched]
) -> InputError:
    """The error when no key could be compared, naming the side and file that is empty when
    that is the reason (rather than claiming the two sides share no entry)."""
    for u in unmatched:
        if NO_FINITE in u.reason or NO_FORKS in u.reason:
            side = base if u.side == "base" else head
            s = side.get(u.key)
            where = _files(s) if s is not None else (base_spec if u.side == "base" else head_spec)
            return InputError(f"{where}: {u.key.entry().label()}: {u.reason.split(' for ')[0]}")
    entries = (len({k.entry() for k in s}) for s in (base, head))
    return InputError(
        f"{base_spec} vs {head_spec}: nothing to compare, no entry (benchmark, mode, params) "
        "with the selected metrics is in both ({} in base, {} in head)".format(*entries)
    )
