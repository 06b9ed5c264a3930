"""The five verdicts for lower-is-better and higher-is-better metrics."""

from __future__ import annotations

import pytest

from perfproof.model import Direction, Verdict
from perfproof.stats.verdict import decide

LOW, HIGH = Direction.LOWER, Direction.HIGHER


@pytest.mark.parametrize(
    ("ratio", "lo", "hi", "sig", "direction", "expected"),
    [
        (0.90, 0.85, 0.95, True, LOW, Verdict.IMPROVED),
        (0.90, 0.85, 0.95, True, HIGH, Verdict.REGRESSED),
        (1.10, 1.05, 1.15, True, LOW, Verdict.REGRESSED),
        (1.10, 1.05, 1.15, True, HIGH, Verdict.IMPROVED),
        (1.004, 1.002, 1.006, True, LOW, Verdict.NEGLIGIBLE),
        (0.995, 0.98, 0.999, True, LOW, Verdict.NEGLIGIBLE),
        (1.001, 0.995, 1.006, False, LOW, Verdict.SAME),
        (0.98, 0.90, 1.05, False, LOW, Verdict.INCONCLUSIVE),
        # significant only before adjustment: the interval excludes 1 but sig is False
        (0.90, 0.85, 0.95, False, LOW, Verdict.INCONCLUSIVE),
    ],
)
def test_decide(ratio, lo, hi, sig, direction, expected) -> None:
    assert decide(ratio, lo, hi, sig, direction, 0.01) is expected


def test_threshold_zero_makes_every_significant_change_count() -> None:
    assert decide(1.001, 1.0005, 1.0015, True, LOW, 0.0) is Verdict.REGRESSED
