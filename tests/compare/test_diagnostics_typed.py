"""The typed diagnostics of a comparison: the same JSON as before they were typed, read back
into the same values, and a field another writer shaped differently kept as it was."""

from __future__ import annotations

import json
import math

from lab.simulate import ForkNoise
from perfproof.compare import CompareOptions, compare_sides
from perfproof.model import Direction, Side
from perfproof.model.diagnostics import (
    ComparisonMethod,
    Diagnostics,
    ForkGroups,
    JmhScores,
    Kind,
    Power,
)
from perfproof.model.documents.codec import decode_value, encode


def test_a_comparison_reads_back_into_equal_typed_diagnostics(
    rng, make_forks, make_samples
) -> None:
    b = make_samples("few", make_forks(rng, 3, 10, noise=ForkNoise(fork_sd=0.05)))
    h = make_samples("few", make_forks(rng, 3, 10, noise=ForkNoise(fork_sd=0.05)))
    (c,) = compare_sides({b.key: b}, {h.key: h}, CompareOptions()).comparisons
    d = c.diagnostics
    assert d.strategy is ComparisonMethod.FORK_LEVEL and isinstance(d.power, Power)
    assert d.forks == {Side.BASE: 3, Side.HEAD: 3}
    assert d.notes and Kind.INCONCLUSIVE in {n.kind for n in d.notes}
    written = json.loads(json.dumps(encode(d)))
    assert list(written)[:2] == ["strategy", "df"]
    assert written["forks"] == {"base": 3, "head": 3}
    assert decode_value(Diagnostics, written) == d
    assert encode(decode_value(Diagnostics, written)) == written


def test_fields_of_another_shape_and_unknown_fields_are_kept_as_read() -> None:
    doc = {
        "strategy": "fork-level",
        "df": 4.2,
        "forks": {"base": "three", "head": 3},  # not a count: kept, not typed
        "trending": ["head"],
        "sequential": {"look": 2, "decided": True, "rule": "exact"},
        "bimodal_extra": {"anything": [1, 2]},  # another writer's field
    }
    d = decode_value(Diagnostics, doc)
    assert d.forks is None and d.extra["forks"] == doc["forks"]
    assert d.trending == [Side.HEAD] and d.sequential is not None and d.sequential.decided
    assert encode(d) == {**doc, "forks": doc["forks"]}
    assert encode(decode_value(Diagnostics, {})) == {}


def test_jmh_scores_of_an_older_writer_read_and_write_back_as_they_were() -> None:
    old = {"base_score": 12.5, "base_error": None, "head_score": 10, "head_error": 0.5,
           "overlap": False}  # fmt: skip
    scores = decode_value(JmhScores, old)
    assert scores.recomputed is None and scores.base_error is None and scores.head_score == 10
    assert encode(scores) == old and list(encode(scores)) == list(old)
    odd = {**old, "overlap": "maybe", "source": "hand-written"}
    kept = decode_value(JmhScores, odd)
    assert kept.overlap is None and encode(kept) == odd


def test_fork_groups_read_back_typed_and_a_partial_one_is_kept_as_read() -> None:
    groups = ForkGroups(
        low=15.2, high=29.8, base_low=5, base_high=0, head_low=0, head_high=4,
        separation=14.5, p_occupancy=0.0039, p_within_low=None, p_within_high=None, held=True,
    )  # fmt: skip
    written = json.loads(json.dumps(encode(Diagnostics(fork_groups=groups))))
    assert written["fork_groups"]["held"] is True and written["fork_groups"]["base_low"] == 5
    assert decode_value(Diagnostics, written).fork_groups == groups
    assert groups.fast(Direction.LOWER) == (5, 0) and groups.fast(Direction.HIGHER) == (0, 4)
    partial = {"fork_groups": {"low": 1.0, "held": True}}
    d = decode_value(Diagnostics, partial)
    assert d.fork_groups is None and encode(d) == partial


def test_a_number_no_file_can_hold_is_of_another_shape_and_kept_as_read() -> None:
    doc = {"strategy": "fork-level", "df": math.inf, "forks": {"base": 3, "head": 3}}
    d = decode_value(Diagnostics, doc)
    assert d.df is None and d.extra == {"df": math.inf}
    assert d.strategy is ComparisonMethod.FORK_LEVEL and d.forks == {Side.BASE: 3, Side.HEAD: 3}
    scores = decode_value(JmhScores, {"base_score": math.nan, "head_score": 2.0, "overlap": True})
    kept = scores.extra["base_score"]
    assert scores.base_score is None and isinstance(kept, float) and math.isnan(kept)
