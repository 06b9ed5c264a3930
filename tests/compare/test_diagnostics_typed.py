"""The typed diagnostics of a comparison: the same JSON as before they were typed, read back
into the same values, and a field another writer shaped differently kept as it was."""

from __future__ import annotations

import json
import math

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
from perfproof.stats.simulate import ForkNoise


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
    written = json.loads(json.dumps(d.to_json()))
    assert list(written)[:2] == ["strategy", "df"]
    assert written["forks"] == {"base": 3, "head": 3}
    assert Diagnostics.from_json(written) == d
    assert Diagnostics.from_json(written).to_json() == written


def test_fields_of_another_shape_and_unknown_fields_are_kept_as_read() -> None:
    doc = {
        "strategy": "fork-level",
        "df": 4.2,
        "forks": {"base": "three", "head": 3},  # not a count: kept, not typed
        "trending": ["head"],
        "sequential": {"look": 2, "decided": True, "rule": "exact"},
        "bimodal_extra": {"anything": [1, 2]},  # another writer's field
    }
    d = Diagnostics.from_json(doc)
    assert d.forks is None and d.extra["forks"] == doc["forks"]
    assert d.trending == [Side.HEAD] and d.sequential is not None and d.sequential.decided
    assert d.to_json() == {**doc, "forks": doc["forks"]}
    assert Diagnostics.from_json({}).to_json() == {}


def test_jmh_scores_of_an_older_writer_read_and_write_back_as_they_were() -> None:
    old = {"base_score": 12.5, "base_error": None, "head_score": 10, "head_error": 0.5,
           "overlap": False}  # fmt: skip
    scores = JmhScores.from_json(old)
    assert scores.recomputed is None and scores.base_error is None and scores.head_score == 10
    assert scores.to_json() == old and list(scores.to_json()) == list(old)
    odd = {**old, "overlap": "maybe", "source": "hand-written"}
    kept = JmhScores.from_json(odd)
    assert kept.overlap is None and kept.to_json() == odd


def test_fork_groups_read_back_typed_and_a_partial_one_is_kept_as_read() -> None:
    groups = ForkGroups(
        low=15.2, high=29.8, base_low=5, base_high=0, head_low=0, head_high=4,
        separation=14.5, p_occupancy=0.0039, p_within_low=None, p_within_high=None, held=True,
    )  # fmt: skip
    written = json.loads(json.dumps(Diagnostics(fork_groups=groups).to_json()))
    assert written["fork_groups"]["held"] is True and written["fork_groups"]["base_low"] == 5
    assert Diagnostics.from_json(written).fork_groups == groups
    assert groups.fast(Direction.LOWER) == (5, 0) and groups.fast(Direction.HIGHER) == (0, 4)
    partial = {"fork_groups": {"low": 1.0, "held": True}}
    d = Diagnostics.from_json(partial)
    assert d.fork_groups is None and d.to_json() == partial


def test_a_number_no_file_can_hold_is_of_another_shape_and_kept_as_read() -> None:
    doc = {"strategy": "fork-level", "df": math.inf, "forks": {"base": 3, "head": 3}}
    d = Diagnostics.from_json(doc)
    assert d.df is None and d.extra == {"df": math.inf}
    assert d.strategy is ComparisonMethod.FORK_LEVEL and d.forks == {Side.BASE: 3, Side.HEAD: 3}
    scores = JmhScores.from_json({"base_score": math.nan, "head_score": 2.0, "overlap": True})
    kept = scores.extra["base_score"]
    assert scores.base_score is None and isinstance(kept, float) and math.isnan(kept)
