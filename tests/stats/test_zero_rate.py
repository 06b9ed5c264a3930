"""GC costs against a side with no collection: an exact Poisson-rate bound, on data of known
truth."""

from __future__ import annotations

import math

import numpy as np
import pytest

from perfproof.compare import CompareOptions, compare_sides
from perfproof.model import BenchKey, Counted, Direction, Samples, Verdict
from perfproof.model.diagnostics import ComparisonMethod, Kind
from perfproof.model.enums import Family
from perfproof.model.metrics import GC_COSTS, GC_COUNT_NORM, GC_TIME_NORM
from perfproof.stats import methods
from perfproof.stats.zero_rate import applies, rate_effect

KEY = BenchKey("x.FrameBench.frame", "avgt", ())


def _sides(events: list[list[int]], ops: float, ms: float = 30.0) -> dict[BenchKey, Samples]:
    """GC time and count per op of one side: ``events`` collections per iteration, each
    iteration ``ops`` operations, each collection ``ms`` milliseconds."""
    n = [np.asarray(f, dtype=float) for f in events]
    o = [np.full(len(f), ops) for f in events]
    time = [f * ms * 1e6 / ops for f in n]
    count = [f / ops for f in n]
    out = {}
    for metric, forks, unit in ((GC_TIME_NORM, time, "ns/op"), (GC_COUNT_NORM, count, "GCs/op")):
        key = KEY.with_metric(metric)
        out[key] = Samples(key, unit, Direction.LOWER, forks, counted=Counted(n, o))
    return out


def _compare(base: dict, head: dict, family: str = "bh") -> dict[str, object]:
    result = compare_sides(base, head, CompareOptions(metrics=GC_COSTS, family=Family(family)))
    return {c.key.metric: c for c in result.comparisons}


QUIET = [[0] * 5] * 3


def test_none_against_some_is_the_exact_poisson_rate_test() -> None:
    # 4 collecting iterations against none in 10x the operations: (1 + 10)^-4, doubled
    e = rate_effect(4, 10.0, 1.0, True, 0.95)
    assert e.p_value == pytest.approx(2 * 11.0**-4)
    share = 1 - 0.025 ** (1 / 4)  # Clopper–Pearson: none of 4
    assert (e.ratio, e.lo) == (0.0, 0.0) and e.hi == pytest.approx(share / (1 - share) / 10)
    swapped = rate_effect(4, 10.0, 1.0, False, 0.95)
    assert swapped.ratio == math.inf and swapped.lo == pytest.approx(1 / e.hi)
    for k in range(1, 12):  # the interval excludes 1 exactly when p < α, at every level
        for w in (0.2, 1.0, 3.0, 30.0):
            for level in (0.9, 0.95, 0.99):
                r = rate_effect(k, w, 1.0, True, level)
                assert (r.hi < 1.0) == (r.p_value < 1 - level)


def test_gc_time_going_to_nothing_has_a_direction_and_a_stated_bound() -> None:
    base = _sides([[1, 0, 2, 0, 1], [0, 1, 0, 1, 0], [1, 1, 0, 0, 1]], ops=20_000)
    head = _sides(QUIET, ops=200_000)  # ten times faster, and never collects
    by = _compare(base, head)
    for metric in GC_COSTS:
        c = by[metric]
        assert c.method is ComparisonMethod.ZERO_RATE and c.verdict is Verdict.IMPROVED
        assert c.head.value == 0.0 and c.ratio == 0.0 and 0.0 < c.ratio_ci.hi < 0.2
        (note,) = [n for n in c.diagnostics.notes if n.kind is Kind.ZERO_RATE]
        assert "no collection in the feature's 3M operations against 8 collecting iterations" in (
            note.text
        )
        assert "the feature's collections per op are at most ×" in note.text
        assert "GC time per op within the same bound" in note.text
    back = _compare(head, base)
    assert back[GC_TIME_NORM].verdict is Verdict.REGRESSED
    assert back[GC_TIME_NORM].ratio == math.inf and back[GC_TIME_NORM].ratio_ci.lo > 5


def test_sparse_collections_of_an_a_a_give_no_verdict() -> None:
    base = _sides([[0, 1, 0, 0, 0], [0, 0, 0, 0, 0], [0, 0, 0, 1, 0]], ops=50_000)
    head = _sides(QUIET, ops=50_000)
    for c in _compare(base, head).values():
        assert c.method is ComparisonMethod.ZERO_RATE
        assert c.verdict is Verdict.INCONCLUSIVE and c.p_value == pytest.approx(0.5)


def test_one_jvms_collections_are_no_side_s() -> None:
    base = _sides([[3, 2, 4, 3, 2], [0] * 5, [0] * 5], ops=50_000)  # a small heap in one fork
    for c in _compare(base, _sides(QUIET, ops=50_000)).values():
        assert c.verdict is Verdict.INCONCLUSIVE
        assert any("one JVM's, no verdict" in n.text for n in c.diagnostics.notes)


def test_the_a_a_false_alarm_rate_stays_within_alpha() -> None:
    """Both sides collect at one rate per operation (sparse: 1.5 collections a side expected,
    in bursts of one to three), forks running at speeds that differ by up to 2x: a verdict
    from the rule, when it applies, is a false alarm."""
    rng = np.random.default_rng(39)
    alarms = applied = 0
    rate = 1.5 / (3 * 5 * 40_000)
    for _ in range(4000):
        sides = []
        for _side in range(2):
            ops = 40_000 * rng.uniform(0.7, 1.4)
            events = rng.poisson(rate * ops, size=(3, 5)) * rng.integers(1, 4, size=(3, 5))
            n = [row.astype(float) for row in events]
            sides.append(([f / ops for f in n], Counted(n, [np.full(5, ops)] * 3)))
        (bf, bc), (hf, hc) = sides
        rule = applies(bf, hf, (bc, hc))
        if rule is None:
            continue
        applied += 1
        effect = rule.compare(bf, hf, 0.95)
        alarms += effect.p_value < 0.05
    assert applied > 1000
    assert alarms / applied <= 0.05


def test_the_rule_applies_only_with_events_on_one_side() -> None:
    some = _sides([[1, 0, 0, 0, 1]] * 3, ops=10_000)[KEY.with_metric(GC_COUNT_NORM)]
    none = _sides(QUIET, ops=10_000)[KEY.with_metric(GC_COUNT_NORM)]
    assert applies(some.forks, none.forks, (some.counted, none.counted)) is not None
    assert applies(none.forks, none.forks, (none.counted, none.counted)) is None
    assert applies(some.forks, some.forks, (some.counted, some.counted)) is None
    assert applies(some.forks, none.forks, (None, none.counted)) is None
    chosen = methods.choose(some.forks, none.forks, False, counted=(some.counted, none.counted))
    assert chosen.name is ComparisonMethod.ZERO_RATE
    assert methods.of(ComparisonMethod.ZERO_RATE).in_family


def test_rounds_keep_the_events_behind_their_forks() -> None:
    one = _sides([[1, 0, 0]], ops=10.0)[KEY.with_metric(GC_COUNT_NORM)]
    two = _sides([[0, 0, 2]], ops=20.0)[KEY.with_metric(GC_COUNT_NORM)]
    one.extend(two)
    assert one.counted is not None and len(one.counted.events) == len(one.forks) == 2
    assert one.counted.operations[1].tolist() == [20.0] * 3
    one.extend(Samples(one.key, one.unit, one.direction, [np.zeros(3)]))
    assert one.counted is None and len(one.forks) == 3
