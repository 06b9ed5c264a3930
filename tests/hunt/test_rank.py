"""Costs across forks and the ranking by the discounted ceiling, on charged recordings whose
truth is known."""

from __future__ import annotations

import pytest

from perfproof.pipeline.hunt.rank import (
    ForkOps,
    RecordedGroup,
    estimate,
    group_cost,
    other_costs,
    ranked_frames,
)
from perfproof.profile.attribute import Attributed, SiteCost


def fork(
    sites: dict[str, tuple[int, int]],
    cpu: int = 1000,
    alloc: int = 10_000,
    **buckets: tuple[int, int],
) -> Attributed:
    a = Attributed("f.jfr", cpu, alloc, 10.0)
    for frame, (c, b) in sites.items():
        a.sites[frame] = SiteCost(cpu=c, alloc=b)
    for name, (c, b) in buckets.items():
        a.add_bucket("outside" if name == "harness" else "once", name, c, b)
    return a


def test_shares_are_of_the_steady_work_and_absolute_costs_use_each_forks_score() -> None:
    forks = [fork({"A": (400, 5000)}, harness=(200, 0), setup=(0, 5000)) for _ in range(3)]
    ops = [ForkOps(ns_per_op=100.0, bytes_per_op=48.0) for _ in range(3)]
    c = group_cost(RecordedGroup("Bench.a", forks, ops), "A")
    assert c is not None and c.cpu_share is not None and c.alloc_share is not None
    # 400 of the 1000 samples (the harness's 200 are part of every operation); 5000 of the
    # 5000 bytes that are not set-up
    assert c.cpu_share.mean == pytest.approx(0.4)
    assert c.alloc_share.mean == pytest.approx(1.0)
    assert c.ns_per_op is not None and c.ns_per_op.mean == pytest.approx(40.0)
    assert c.bytes_per_op is not None and c.bytes_per_op.mean == pytest.approx(48.0)
    assert c.ceiling == pytest.approx(1 / 0.6 - 1)
    assert c.bytes_per_s is not None and c.bytes_per_s.mean == pytest.approx(500.0)


def test_a_steady_cost_outranks_a_larger_but_erratic_one() -> None:
    # B is larger on average but comes and goes between forks; A is the same in every fork
    shares_a = [300, 310, 305, 295]
    shares_b = [700, 0, 650, 0]
    forks = [fork({"A": (a, 0), "B": (b, 0)}) for a, b in zip(shares_a, shares_b, strict=True)]
    rows = ranked_frames([RecordedGroup("w", forks)])
    assert [r[0] for r in rows] == ["A", "B"]
    b_cost = rows[1][1][0]
    assert b_cost.cpu_share is not None and b_cost.cpu_share.mean > rows[0][1][0].cpu_share.mean  # type: ignore[union-attr]


def test_one_recording_gets_the_sampling_interval_of_its_counts() -> None:
    e = estimate([0.2], (200, 1000))
    assert e is not None and e.forks == 1 and e.lo is not None and e.hi is not None
    assert e.lo < 0.2 < e.hi
    assert e.hi - e.lo == pytest.approx(2 * 1.96 * (0.2 * 0.8 / 1000) ** 0.5, rel=1e-3)
    wider = estimate([0.2], (20, 100))
    assert wider is not None and wider.lo is not None and wider.lo < e.lo


def test_methods_below_half_a_percent_are_left_out_and_once_only_work_is_a_row_of_its_own() -> None:
    forks = [fork({"A": (500, 0), "tiny": (2, 0)}, setup=(100, 0)) for _ in range(2)]
    groups = [RecordedGroup("w", forks)]
    assert [r[0] for r in ranked_frames(groups)] == ["A"]
    other = {o.label: o for o in other_costs(groups)}
    assert other["JMH @Setup/@TearDown"].cpu_share == pytest.approx(0.1)
