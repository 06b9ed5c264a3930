"""Calibration on synthetic hierarchical data with known truth (fork effect 3%, noise 1%).

Over many simulated A/A comparisons the fork-level method's false "improved/regressed" rate
stays at or below α (with binomial slack) and its interval covers the truth at least at the
nominal rate minus 2 points, with as few as 3 forks per side. On the same data, pooling
iterations as JMH's own error does raises false alarms far above α.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from perfproof.compare import CompareOptions, compare_sides
from perfproof.model import Verdict
from perfproof.model.enums import Family
from perfproof.stats.strategies import ITERATION_LEVEL

KEYS = 2000


def simulate(rng, make_forks, make_samples, forks: int, effect: float = 1.0):
    base, head = {}, {}
    for i in range(KEYS):
        b = make_samples(f"b{i}", make_forks(rng, forks, 10))
        h = make_samples(f"b{i}", make_forks(rng, forks, 10, level=100.0 * effect))
        base[b.key], head[h.key] = b, h
    return base, head


def slack(alpha: float) -> float:
    """Three binomial standard deviations over KEYS trials."""
    return 3.0 * math.sqrt(alpha * (1 - alpha) / KEYS)


@pytest.mark.parametrize(("forks", "confidence"), [(3, 0.99), (3, 0.95), (5, 0.95)])
def test_aa_false_alarms_within_alpha_and_pooling_exceeds_it(
    rng, make_forks, make_samples, forks: int, confidence: float
) -> None:
    alpha = 1 - confidence
    base, head = simulate(rng, make_forks, make_samples, forks)
    options = CompareOptions(confidence=confidence, threshold=0.0, family=Family.NONE)
    result = compare_sides(base, head, options)
    assert len(result.comparisons) == KEYS
    assert all(c.method == "fork-level" for c in result.comparisons)
    false_alarms = sum(
        c.verdict in (Verdict.IMPROVED, Verdict.REGRESSED) for c in result.comparisons
    )
    assert false_alarms / KEYS <= alpha + slack(alpha)
    covered = sum(c.ratio_ci[0] <= 1.0 <= c.ratio_ci[1] for c in result.comparisons)
    assert covered / KEYS >= confidence - 0.02
    # JMH-style: every iteration treated as independent, on the very same data
    pooled = sum(
        ITERATION_LEVEL.compare(base[k].forks, head[k].forks, confidence).p_value <= alpha
        for k in base
    )
    assert pooled / KEYS > 5 * alpha


def test_coverage_with_a_real_effect(rng, make_forks, make_samples) -> None:
    base, head = simulate(rng, make_forks, make_samples, 3, effect=1.05)
    result = compare_sides(base, head, CompareOptions(family=Family.NONE))
    covered = sum(c.ratio_ci[0] <= 1.05 <= c.ratio_ci[1] for c in result.comparisons)
    assert covered / KEYS >= 0.99 - 0.02
    # and the default verdicts never call a 5% slowdown an improvement
    assert not any(c.verdict is Verdict.IMPROVED for c in result.comparisons)
    assert np.median([c.ratio for c in result.comparisons]) == pytest.approx(1.05, abs=0.005)
