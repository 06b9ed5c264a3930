"""e2e statistics on synthetic data with known truth, checked against scipy."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats as st

from perfproof.model import Direction, Verdict
from perfproof.stats.end_to_end import analyse_metric, bootstrap_ratio_ci, paired_log_ratio


def _draw(seed: int, n: int, mean: float, sd: float) -> np.ndarray:
    return np.random.default_rng(seed).normal(mean, sd, n)


def test_side_intervals_welch_df_and_ratio_match_scipy() -> None:
    a = _draw(1, 12, 100.0, 4.0)
    b = _draw(2, 9, 93.0, 9.0)
    m = analyse_metric(
        "t", "ms", Direction.LOWER, list(a), list(b), [], confidence=0.95, threshold=0.01
    )
    # per side: mean and a Student-t interval with n - 1 df
    lo, hi = st.t.interval(0.95, len(a) - 1, loc=a.mean(), scale=st.sem(a))
    assert m.base.ci == pytest.approx((lo, hi), rel=1e-12)
    assert (m.base.n, m.base.df, m.head.df) == (12, 11.0, 8.0)
    # ratio: Welch on logs, as scipy computes it
    res = st.ttest_ind(np.log(b), np.log(a), equal_var=False)
    ci = res.confidence_interval(0.95)
    assert m.welch_df == pytest.approx(res.df, rel=1e-12)
    assert m.p_value == pytest.approx(res.pvalue, rel=1e-9)
    assert m.ratio_ci == pytest.approx((math.exp(ci.low), math.exp(ci.high)), rel=1e-12)
    assert m.delta_pct == pytest.approx((math.exp(np.log(b).mean() - np.log(a).mean()) - 1) * 100)
    # the plain difference of means: Welch on raw values
    raw = st.ttest_ind(b, a, equal_var=False).confidence_interval(0.95)
    assert m.diff.value == pytest.approx(b.mean() - a.mean())
    assert m.diff.ci == pytest.approx((raw.low, raw.high), rel=1e-12)
    # heteroscedastic sides: Welch df is well below the pooled n1 + n2 - 2
    assert m.welch_df < len(a) + len(b) - 2 - 3


@pytest.mark.parametrize(
    ("head_mean", "direction", "expected"),
    [
        (90.0, Direction.LOWER, Verdict.IMPROVED),
        (110.0, Direction.LOWER, Verdict.REGRESSED),
        (110.0, Direction.HIGHER, Verdict.IMPROVED),
        (90.0, Direction.HIGHER, Verdict.REGRESSED),
    ],
)
def test_verdicts_follow_the_metric_direction(
    head_mean: float, direction: Direction, expected: Verdict
) -> None:
    a = _draw(3, 20, 100.0, 1.0)
    b = _draw(4, 20, head_mean, 1.0)
    m = analyse_metric("m", "", direction, list(a), list(b), [], confidence=0.99, threshold=0.01)
    assert m.verdict is expected


def _lower(a: np.ndarray, b: np.ndarray):
    return analyse_metric(
        "m", "", Direction.LOWER, list(a), list(b), [], confidence=0.99, threshold=0.01
    )


def test_same_negligible_and_inconclusive() -> None:
    a = _draw(5, 200, 100.0, 0.2)
    assert _lower(a, _draw(6, 200, 100.0, 0.2)).verdict is Verdict.SAME
    assert _lower(a, _draw(7, 200, 99.7, 0.2)).verdict is Verdict.NEGLIGIBLE
    noisy = _lower(_draw(8, 4, 100, 10), _draw(9, 4, 97, 10))
    assert noisy.verdict is Verdict.INCONCLUSIVE
    assert noisy.runs_needed is not None and noisy.runs_needed > 100
    assert any("only 4 runs" in w for w in noisy.warnings)


def test_paired_analysis_cancels_drift_that_swamps_the_unpaired_interval() -> None:
    rng = np.random.default_rng(10)
    rounds = np.arange(16)
    drift = 100.0 * (1.0 + 0.02 * rounds)  # the machine slows 2% per round
    base = drift * np.exp(rng.normal(0, 0.003, 16))
    head = 0.95 * drift * np.exp(rng.normal(0, 0.003, 16))
    pairs = list(zip(base, head, strict=True))
    m = analyse_metric(
        "t", "s", Direction.LOWER, list(base), list(head), pairs, confidence=0.99, threshold=0.01
    )
    assert m.paired is not None
    d = np.log(head / base)
    ref = st.ttest_rel(np.log(head), np.log(base)).confidence_interval(0.99)
    assert m.paired.delta_pct == pytest.approx(math.expm1(d.mean()) * 100)
    assert m.paired.ci == pytest.approx((math.expm1(ref.low) * 100, math.expm1(ref.high) * 100))
    assert m.paired.df == 15
    # the paired interval is tight around the true -5%; the unpaired one is many times wider
    assert m.paired.ci[0] < -5.0 < m.paired.ci[1]
    assert m.paired.ci[1] - m.paired.ci[0] < 1.0
    assert (m.delta_ci[1] - m.delta_ci[0]) > 5 * (m.paired.ci[1] - m.paired.ci[0])
    assert any("drifted" in w for w in m.warnings)
    # without drift the paired and unpaired intervals are alike and nothing is said
    still = analyse_metric(
        "t", "s", Direction.LOWER, list(base / drift), list(head / drift),
        list(zip(base / drift, head / drift, strict=True)), confidence=0.99, threshold=0.01,
    )  # fmt: skip
    assert not any("drifted" in w for w in still.warnings)


def test_paired_needs_two_pairs() -> None:
    assert paired_log_ratio([(1.0, 2.0)], 0.95) is None


def test_bootstrap_is_seeded_from_data_and_covers_the_truth() -> None:
    a = _draw(11, 30, 100, 5)
    b = _draw(12, 30, 90, 5)
    first = bootstrap_ratio_ci(a, b, 0.95)
    assert first == bootstrap_ratio_ci(a, b, 0.95)
    assert first != bootstrap_ratio_ci(a, b[::-1].copy() + 1e-9, 0.95)
    assert first[0] < 0.9 < first[1]
    # agrees with Welch's ratio interval to within a fraction of its width with 30 runs
    m = analyse_metric(
        "t", "", Direction.LOWER, list(a), list(b), [], confidence=0.95, threshold=0.01
    )
    assert m.bootstrap_ci is not None
    width = m.delta_ci[1] - m.delta_ci[0]
    assert abs(m.bootstrap_ci[0] - m.delta_ci[0]) < 0.25 * width
    assert abs(m.bootstrap_ci[1] - m.delta_ci[1]) < 0.25 * width


def test_coverage_by_simulation_welch_nominal_bootstrap_narrower() -> None:
    """95% Welch intervals on lognormal runs cover the true ratio about 95% of the time; the
    percentile bootstrap, a cross-check only, is anti-conservative with 8 runs per side."""
    rng = np.random.default_rng(13)
    true_ratio = 0.97
    welch_hits = boot_hits = 0
    trials = 300
    for _ in range(trials):
        a = np.exp(rng.normal(math.log(100), 0.03, 8))
        b = np.exp(rng.normal(math.log(100 * true_ratio), 0.06, 8))
        m = analyse_metric(
            "t", "", Direction.LOWER, list(a), list(b), [], confidence=0.95, threshold=0.01
        )
        welch_hits += m.ratio_ci[0] <= true_ratio <= m.ratio_ci[1]
        assert m.bootstrap_ci is not None
        lo, hi = (1 + m.bootstrap_ci[0] / 100, 1 + m.bootstrap_ci[1] / 100)
        boot_hits += lo <= true_ratio <= hi
    assert 0.92 <= welch_hits / trials <= 0.98
    assert boot_hits < welch_hits


def test_non_positive_values_fall_back_to_differences() -> None:
    a = [0.0, 1.0, -1.0, 0.5, 0.2]
    b = [5.0, 6.0, 4.0, 5.5, 5.2]
    m = analyse_metric("delta", "", Direction.HIGHER, a, b, [], confidence=0.95, threshold=0.01)
    assert m.bootstrap_ci is None and m.paired is None
    assert "difference of means" in m.method or "raw" in m.method
    assert any("<= 0" in w for w in m.warnings)
    assert m.diff.value == pytest.approx(np.mean(b) - np.mean(a))


def test_needs_two_runs_per_side() -> None:
    with pytest.raises(ValueError, match="at least 2 runs"):
        analyse_metric(
            "t", "", Direction.LOWER, [1.0], [1.0, 2.0], [], confidence=0.95, threshold=0.01
        )
