"""``--compare``: new, gone, fell, changed and same, judged on the ceiling of the mean share."""

from __future__ import annotations

from perfproof.model.documents.hunt import ForkMean, GroupCost, Hypothesis
from perfproof.pipeline.hunt.analysis import compare_hunts
from perfproof.pipeline.hunt.rank import central_gain


def hyp(frame: str, share: float, se: float, rank: int = 1) -> Hypothesis:
    cost = GroupCost(
        "b",
        ForkMean(share, max(share - 4 * se, 0.0), share + 4 * se, 3, se),
        None,
        ceiling=share / (1 - share),
        ceiling_discounted=max(share - se, 0.0) / (1 - max(share - se, 0.0)),
    )
    gain = cost.ceiling_discounted or 0.0
    return Hypothesis(frame, rank, frame, frame, "F.java", 1, 2, gain, (cost,), "")


def test_a_noisier_cost_is_the_same_a_tenfold_smaller_one_fell_and_only_an_absent_one_is_gone() -> (
    None
):
    before = [hyp("noisy", 0.45, 0.01), hyp("fixed", 0.40, 0.01, 2), hyp("dropped", 0.1, 0.01, 3)]
    after = [hyp("noisy", 0.45, 0.44), hyp("fixed", 0.03, 0.01, 2), hyp("fresh", 0.2, 0.01, 3)]
    changes = {c.id: c for c in compare_hunts(before, after)}
    status = {k: c.status for k, c in changes.items()}
    assert status == {"noisy": "same", "fixed": "fell", "dropped": "gone", "fresh": "new"}
    assert central_gain(list(after[0].costs)) > 0.8  # the mean is what is compared
    # the word says how far a still-listed cost fell; "gone" never stands beside a listed one
    assert changes["fixed"].label.startswith("fell ×")
    listed = {h.id for h in after}
    assert not [c for c in changes.values() if c.status == "gone" and c.id in listed]


def test_a_cost_that_halved_has_changed() -> None:
    before, after = [hyp("m", 0.4, 0.01)], [hyp("m", 0.2, 0.01)]
    assert [c.status for c in compare_hunts(before, after)] == ["changed"]


def test_jmh_hunts_are_compared_on_time_per_operation() -> None:
    def timed(ns: float) -> Hypothesis:
        h = hyp("m", 0.5, 0.01)
        cost = h.costs[0]
        from dataclasses import replace

        timed_cost = replace(cost, ns_per_op=ForkMean(ns, ns * 0.9, ns * 1.1, 3, ns * 0.02))
        return replace(h, costs=(timed_cost,))

    # the share stayed at half the samples (the rest got faster too), the time fell tenfold
    [change] = compare_hunts([timed(1200.0)], [timed(100.0)])
    assert (change.status, change.measure, change.before, change.after) == (
        "fell",
        "ns/op",
        1200.0,
        100.0,
    )


def test_the_printed_table_says_fell_by_how_much_for_a_listed_method() -> None:
    from perfproof.model.documents.hunt import Change

    change = Change("m", "C.m", "fell", 1200.0, 100.0, "ns/op")
    assert change.label == "fell ×12"
    assert Change("m", "C.m", "gone", 1200.0, None, "ns/op").label == "gone"
