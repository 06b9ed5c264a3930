"""Collections per operation when one side collected none: a rate compared against nothing.

GC time and collections per operation are counts in disguise: a side whose every iteration
counted no collection has GC time 0 exactly, and its forks' means are all 0, so no ratio of fork
means (nor its interval) exists, and 192 ms → 0 would stay undecided however many operations
the feature ran without collecting. Unlike bytes/op, collections are not near-deterministic, so
"none" is not compared exactly either: it is an observation of a rate, and the question is
whether the other side's collections could have missed this side by chance.

The rule (``ZeroRate``), for a side with no collection against one with some:

- **Events.** The other side's *collecting iterations*, ``k`` (an iteration with three
  collections counts once: a burst of collections, e.g. ``System.gc()`` from a direct-memory
  reservation, is one event, not three independent ones). Counting fewer events only makes the
  test more cautious.
- **Exposure.** The operations each side ran: collections per operation is the metric, so its
  null hypothesis is one rate per operation on both sides (``w`` = the silent side's
  operations over the other's).
- **Test.** Conditional on the ``k`` events of both sides together, the silent side's share of
  them is Binomial(``k``, π) with π = ρw / (1 + ρw), ρ its rate over the other's; none of
  ``k`` has one-sided probability (1 + w)^-k when ρ = 1, doubled for the two-sided p-value
  (the exact comparison of two Poisson rates).
- **Interval.** The Clopper–Pearson bound for 0 of ``k``, π ≤ 1 − (α/2)^(1/k), as a rate
  ratio: ρ ≤ π / ((1 − π) w). Head/base is 0 with the interval 0…ρ when the feature collected
  nothing, ∞ with 1/ρ…∞ when the baseline did not. The interval excludes 1 exactly when the
  p-value is below α, at every level (the family procedure's too).
- **One JVM is not a side.** When the collecting side has two or more forks, its collecting
  iterations must come from two or more of them: a heap sized small in one JVM collects in
  every iteration of that fork and none of the others, and that fork's iterations are not
  independent events.

GC time per operation is compared by the same rule on the same collections: a side without a
collection has no GC time at all, and the bound on its GC time is the bound on its collections
as long as its collections (had it any) would take no longer each than the other side's; the
note says so.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from perfproof.model import Counted, Estimate
from perfproof.model.diagnostics import ComparisonMethod, Kind, Note
from perfproof.stats.fork_welch import WELCH_FORKS
from perfproof.stats.forks import Forks
from perfproof.stats.method import Effect
from perfproof.stats.strategies import WithoutLooks

__all__ = ["ZERO_RATE", "ZeroRate", "applies", "rate_effect"]


@dataclass(frozen=True)
class _Sides:
    """What the rule reads of a key: which side is silent, the other's collecting iterations
    and forks, and the operations of each."""

    silent_is_head: bool
    events: int
    forks_collecting: int
    forks: int
    silent_ops: float
    other_ops: float


def _events(counted: Counted, forks: Forks) -> tuple[list[np.ndarray], list[np.ndarray]] | None:
    """Each fork's events and operations for the iterations ``forks`` holds (a trimmed fork
    keeps its last iterations), or None when the two do not line up."""
    if len(counted.events) != len(forks) or len(counted.operations) != len(forks):
        return None
    events, ops = [], []
    for fork, n, o in zip(forks, counted.events, counted.operations, strict=True):
        size = len(fork)
        if size > len(n) or len(n) != len(o):
            return None
        events.append(np.asarray(n[len(n) - size :], dtype=float))
        ops.append(np.asarray(o[len(o) - size :], dtype=float))
    return events, ops


def _sides(
    base: Forks, head: Forks, counted: tuple[Counted | None, Counted | None]
) -> _Sides | None:
    if counted[0] is None or counted[1] is None:
        return None
    read_base, read_head = _events(counted[0], base), _events(counted[1], head)
    if read_base is None or read_head is None:
        return None
    read = (read_base, read_head)
    totals = [float(sum(float(e.sum()) for e in side[0])) for side in read]
    values = [np.concatenate(list(f)) if len(f) else np.zeros(0) for f in (base, head)]
    silent = [t == 0 and not values[i].any() for i, t in enumerate(totals)]
    if silent[0] == silent[1]:
        return None
    quiet, other = (1, 0) if silent[1] else (0, 1)
    collecting = [int((e > 0).sum()) for e in read[other][0]]
    ops = [float(sum(float(o.sum()) for o in side[1])) for side in read]
    if not (ops[quiet] > 0 and ops[other] > 0):
        return None
    return _Sides(
        silent_is_head=quiet == 1,
        events=sum(collecting),
        forks_collecting=sum(1 for c in collecting if c),
        forks=len(collecting),
        silent_ops=ops[quiet],
        other_ops=ops[other],
    )


def applies(
    base: Forks, head: Forks, counted: tuple[Counted | None, Counted | None]
) -> ZeroRate | None:
    """The rule for this key (its sides' events read once), or None when it does not apply:
    both sides collected, neither did, or the events are not known."""
    sides = _sides(base, head, counted)
    return None if sides is None else ZeroRate(sides)


def rate_effect(
    events: int, silent_ops: float, other_ops: float, silent_is_head: bool, confidence: float
) -> Effect:
    """Head/base of collections per op when one side collected none in ``silent_ops``
    operations and the other had ``events`` collecting iterations in ``other_ops``: the exact
    Poisson-rate test and its Clopper–Pearson interval at ``confidence`` (see the module)."""
    w = silent_ops / other_ops
    p_value = min(1.0, 2.0 * math.exp(-events * math.log1p(w)))
    alpha = 1.0 - confidence
    share = -math.expm1(math.log(alpha / 2.0) / events)  # 1 − (α/2)^(1/k), kept exact near 0
    bound = share / ((1.0 - share) * w) if share < 1.0 else math.inf
    if silent_is_head:
        return Effect(0.0, 0.0, bound, p_value, math.inf)
    return Effect(math.inf, 1.0 / bound if bound > 0 else math.inf, math.inf, p_value, math.inf)


def _count(value: float) -> str:
    if value >= 1e6:
        return f"{value / 1e6:,.3g}M"
    if value >= 1e3:
        return f"{value / 1e3:,.3g}k"
    return f"{value:,.0f}"


class ZeroRate(WithoutLooks):
    """Collections per op (and GC time per op) against a side that collected none: an exact
    Poisson-rate bound; a key's instance holds its sides' events (see the module)."""

    name = ComparisonMethod.ZERO_RATE
    summary = "an exact Poisson-rate bound against a side that collected nothing"
    at_looks = ComparisonMethod.ZERO_RATE

    def __init__(self, sides: _Sides | None = None) -> None:
        self._sides = sides

    def _of(self) -> _Sides:
        if self._sides is None:
            raise TypeError("the registered zero-rate rule holds no events: compare with a key's")
        return self._sides

    def decides(self) -> bool:
        """Whether the events can bear a verdict: two or more collecting forks when the
        collecting side has two or more forks."""
        s = self._of()
        return s.events > 0 and (s.forks < 2 or s.forks_collecting >= 2)

    def summarize(self, forks: Forks, confidence: float) -> Estimate:
        return WELCH_FORKS.summarize(forks, confidence)

    def side_at_level(self, side: Estimate, nominal: float, level: float) -> tuple[float, float]:
        return WELCH_FORKS.side_at_level(side, nominal, level)

    def compare(self, base: Forks, head: Forks, confidence: float) -> Effect:
        s = self._of()
        if not self.decides():
            ratio = 0.0 if s.silent_is_head else math.inf
            return Effect(ratio, 0.0, math.inf, 1.0, math.inf)
        return rate_effect(s.events, s.silent_ops, s.other_ops, s.silent_is_head, confidence)

    def at_level(self, effect: Effect, nominal: float, confidence: float) -> Effect:
        if self._sides is None or not self.decides():
            return effect
        s = self._sides
        return rate_effect(s.events, s.silent_ops, s.other_ops, s.silent_is_head, confidence)

    def notes(self, base_forks: int, head_forks: int, is_bytes: bool, alpha: float) -> list[Note]:
        s = self._of()
        silent, other = ("feature", "baseline") if s.silent_is_head else ("baseline", "feature")
        seen = (
            f"no collection in the {silent}'s {_count(s.silent_ops)} operations against "
            f"{s.events} collecting iteration{'s' if s.events != 1 else ''} in "
            f"{s.forks_collecting} of the {other}'s {s.forks} forks "
            f"({_count(s.other_ops)} operations)"
        )
        if not self.decides():
            return [Note(Kind.ZERO_RATE, f"{seen}: the collections are one JVM's, no verdict")]
        level = 1.0 - alpha
        effect = rate_effect(s.events, s.silent_ops, s.other_ops, s.silent_is_head, level)
        if s.silent_is_head:
            bound, pauses = f"at most ×{effect.hi:.3g}", "no longer"
        else:
            bound, pauses = f"at least ×{effect.lo:.3g}", "no less long"
        return [
            Note(
                Kind.ZERO_RATE,
                f"{seen}: compared as rates per operation (exact Poisson test, "
                f"p={effect.p_value:.2g}); the feature's collections per op are {bound} the "
                f"baseline's ({level * 100:.4g}% Clopper–Pearson interval of none in {s.events}), "
                f"and its GC time per op within the same bound if its collections take "
                f"{pauses} each than the baseline's",
            )
        ]

    def tag(self, fewest_forks: int) -> str | None:
        return "rate bound"

    def caveat(self, count: int) -> str:
        if not count:
            return ""
        return (
            f" {count} GC comparison{'s' if count != 1 else ''} had no collection on one side:"
            " compared as rates per operation of collecting iterations (an exact Poisson test"
            " and its Clopper–Pearson bound), not as ratios of fork means."
        )


ZERO_RATE = ZeroRate()
"""The registered rule (words, tag, caveat); each key compares with an instance of its own."""
