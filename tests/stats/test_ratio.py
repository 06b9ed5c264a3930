"""The one log-ratio statistic and its fallback for values that are not all positive."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats as st

from perfproof.stats import methods
from perfproof.stats.ratio import (
    NonPositiveValues,
    log_ratio,
    log_ratio_rows,
    ratio_or_difference,
    relative_difference,
)


def test_log_ratio_is_welch_on_logs_checked_against_scipy() -> None:
    rng = np.random.default_rng(7)
    base = rng.lognormal(math.log(100), 0.03, 5)
    head = rng.lognormal(math.log(90), 0.05, 4)
    r = log_ratio(base, head, 0.95)
    t = st.ttest_ind(np.log(head), np.log(base), equal_var=False)
    ci = t.confidence_interval(0.95)
    assert r.p_value == pytest.approx(t.pvalue, rel=1e-9)
    assert (math.log(r.lo), math.log(r.hi)) == pytest.approx((ci.low, ci.high), rel=1e-9)
    assert r.ratio == pytest.approx(math.exp(np.log(head).mean() - np.log(base).mean()))


def test_rows_equal_the_one_key_function() -> None:
    rng = np.random.default_rng(3)
    base = rng.lognormal(0, 0.05, (6, 4))
    head = rng.lognormal(0.1, 0.05, (6, 3))
    rows = log_ratio_rows(base, head, 0.99)
    for i in range(6):
        one = log_ratio(base[i], head[i], 0.99)
        assert (rows.ratio[i], rows.lo[i], rows.hi[i], rows.p_value[i], rows.df[i]) == (
            pytest.approx((one.ratio, one.lo, one.hi, one.p_value, one.df), rel=1e-12)
        )


@pytest.mark.parametrize(("base", "head", "side"), [([1, 0, 2], [1, 2, 3], "base"),
                                                    ([1, 2, 3], [1, -2, 3], "head")])  # fmt: skip
def test_values_not_positive_are_a_typed_signal(base, head, side) -> None:
    with pytest.raises(NonPositiveValues) as err:
        log_ratio(np.array(base, float), np.array(head, float), 0.99)
    assert err.value.side == side and err.value.count == 1 and err.value.total == 3
    with pytest.raises(NonPositiveValues):
        log_ratio_rows(np.array([base], float), np.array([head], float), 0.99)


def test_fallback_keeps_the_direction_of_a_negative_baseline() -> None:
    base = np.array([-5.1, -4.9, -5.0])
    head = np.array([-3.1, -2.9, -3.0])
    r, why = ratio_or_difference(base, head, 0.99)
    assert isinstance(why, NonPositiveValues)
    assert r.ratio == pytest.approx(1.4) and r.lo > 1.0  # went up by 40% of |base|
    assert r.diff is not None and r.diff.diff == pytest.approx(2.0)


def test_fallback_over_a_zero_baseline_has_no_ratio() -> None:
    r = relative_difference(np.zeros(3), np.array([1.0, 1.1, 0.9]), 0.99)
    assert not r.relative and math.isnan(r.lo)
    assert r.diff is not None and r.diff.lo > 0


def test_compare_uses_the_same_statistic() -> None:
    rng = np.random.default_rng(11)
    base = [rng.normal(100, 1, 5) for _ in range(4)]
    head = [rng.normal(95, 1, 5) for _ in range(4)]
    effect = methods.WELCH_FORKS.compare(base, head, 0.99)
    one = log_ratio(np.array([f.mean() for f in base]), np.array([f.mean() for f in head]), 0.99)
    assert (effect.ratio, effect.lo, effect.hi, effect.p_value) == pytest.approx(
        (one.ratio, one.lo, one.hi, one.p_value), rel=1e-12
    )
