"""Which strategy applies when, and what each returns."""

from __future__ import annotations

import numpy as np
import pytest

from perfproof.model import Direction, Verdict
from perfproof.stats import methods as st
from perfproof.stats.verdict import decide


def forks(*rows: list[float]) -> list[np.ndarray]:
    return [np.array(r, dtype=float) for r in rows]


def test_choose() -> None:
    bytes_flat = forks([4736.0, 4736.01], [4736.02, 4736.0])
    time = forks([10.0, 11.0], [12.0, 10.5])
    assert st.choose(bytes_flat, bytes_flat, is_bytes=True) is st.EXACT
    assert st.choose(time, time, is_bytes=False) is st.WELCH_FORKS
    assert st.choose(time[:1], time, is_bytes=False) is st.ITERATION_LEVEL
    noisy_bytes = forks([100.0, 140.0], [90.0, 120.0])
    assert st.choose(noisy_bytes, noisy_bytes, is_bytes=True) is st.WELCH_FORKS
    # a loaded machine's 6,400 B/op against an allocation-free feature (JMH's own allocations
    # amortised over fewer operations): exact, -100%, not a log-scale interval of ×2e-9…×80
    loaded = forks([6404.6, 6401.4], [6406.9, 6408.7], [6417.2, 6408.1])
    free = forks([0.0354, 0.0227], [0.00125, 0.0007], [0.00134, 0.00087])
    assert st.choose(loaded, free, is_bytes=True) is st.EXACT
    assert st.choose(free, loaded, is_bytes=True) is st.EXACT
    eff = st.EXACT.compare(loaded, free, 0.99)
    assert eff.p_value == 0.0 and eff.ratio < 1e-5
    # beside nothing, a side spread past 1% of its level still goes to the fork-level test
    assert (
        st.choose(forks([6000.0, 6400.0], [6300.0, 6100.0]), free, is_bytes=True) is st.WELCH_FORKS
    )
    assert st.choose(free, free, is_bytes=True) is st.EXACT


def test_exact_tolerance() -> None:
    a = forks([4736.0], [4736.2])
    b = forks([4736.4], [4736.5])
    assert st.EXACT.compare(a, b, 0.99).p_value == 1.0  # within 0.5 B
    c = forks([4760.0], [4760.0])
    eff = st.EXACT.compare(a, c, 0.99)
    assert eff.p_value == 0.0 and eff.ratio == pytest.approx(4760 / 4736.1)
    # relative tolerance for large values: 0.1% of 267,872 is 268 B
    big_a, big_b = forks([267904.0], [267840.0]), forks([267840.0], [267904.0])
    assert st.EXACT.compare(big_a, big_b, 0.99).p_value == 1.0
    # near-zero on both sides: the same, ratio 1 rather than noise divided by noise
    z = st.EXACT.compare(forks([1.3e-5]), forks([6.7e-5]), 0.99)
    assert z.ratio == 1.0 and z.p_value == 1.0


def test_fork_level_uses_fork_means_on_log_scale() -> None:
    base = forks([100.0, 100.0], [110.0, 110.0], [90.0, 90.0])
    head = forks([50.0, 50.0], [55.0, 55.0], [45.0, 45.0])
    eff = st.WELCH_FORKS.compare(base, head, 0.99)
    geo = np.exp(np.mean(np.log([50, 55, 45])) - np.mean(np.log([100, 110, 90])))
    assert eff.ratio == pytest.approx(geo) and eff.lo < eff.ratio < eff.hi
    summary = st.WELCH_FORKS.summarize(base, 0.99)
    assert (
        summary.value == pytest.approx(100.0)
        and summary.ci[0] < 100.0 < summary.ci[1]
        and summary.forks == 3
    )
    assert summary.iterations == 6


def test_iteration_level_pools_iterations() -> None:
    one = forks([100.0, 101.0, 99.0, 100.5])
    eff = st.ITERATION_LEVEL.compare(one, forks([80.0, 81.0, 79.0, 80.5]), 0.99)
    assert eff.hi < 1.0 and eff.df > 0


def test_zero_counts_are_the_same() -> None:
    zero = forks([0.0, 0.0], [0.0, 0.0])
    eff = st.WELCH_FORKS.compare(zero, zero, 0.99)
    assert eff.ratio == 1.0 and eff.p_value == 1.0


def test_from_zero_to_something_is_a_regression_for_bytes() -> None:
    zero = forks([0.0, 0.0, 0.0], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0])
    some = forks([10.0, 30.0, 20.0], [25.0, 15.0, 40.0], [20.0, 22.0, 18.0])
    assert st.choose(zero, some, is_bytes=True) is st.WELCH_FORKS  # head is not deterministic
    eff = st.WELCH_FORKS.compare(zero, some, 0.99)
    assert eff.ratio == float("inf") and eff.p_value < 0.01
    verdict = decide(eff.ratio, eff.lo, eff.hi, True, Direction.LOWER, 0.01)
    assert verdict is Verdict.REGRESSED
