"""The family procedure wired into ``compare_sides``: whole A/A suites through the real
pipeline (strategies, warm-up trimming, verdicts) keep any false alarm near α, and the same
suites without an adjustment do not. The large simulations are in tests/stats/test_family.py;
this one checks the wiring at a level (95%) where a mistake shows in 120 suites."""

from __future__ import annotations

import math

import numpy as np

from lab.simulate import ForkNoise, hierarchical
from perfproof.compare import CompareOptions, compare_sides
from perfproof.model import Verdict
from perfproof.model.enums import Family

SUITES = 120
KEYS = 24


def _any_false_alarm(rng: np.random.Generator, make_samples, family: str) -> float:
    alarms = 0
    for _ in range(SUITES):
        base, head = {}, {}
        for i in range(KEYS):
            b = make_samples(f"k{i:02d}", hierarchical(rng, 3, 5, noise=ForkNoise(fork_sd=0.03)))
            h = make_samples(f"k{i:02d}", hierarchical(rng, 3, 5, noise=ForkNoise(fork_sd=0.03)))
            base[b.key], head[h.key] = b, h
        result = compare_sides(base, head, CompareOptions(confidence=0.95, family=Family(family)))
        alarms += any(
            c.verdict in (Verdict.IMPROVED, Verdict.REGRESSED) for c in result.comparisons
        )
    return alarms / SUITES


def test_aa_suites_through_compare(make_samples) -> None:
    alpha = 0.05
    bound = alpha + 2 * math.sqrt(alpha * (1 - alpha) / SUITES)
    assert _any_false_alarm(np.random.default_rng(41), make_samples, "bh") <= bound
    assert _any_false_alarm(np.random.default_rng(41), make_samples, "none") > 0.3
