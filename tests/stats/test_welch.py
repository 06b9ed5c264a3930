"""Student and Welch intervals against scipy's reference implementations."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
from scipy import stats as sp

from lab.sequential_sim import welch_paths
from perfproof.stats import welch_look
from perfproof.stats.welch import (
    SideMoments,
    mean_interval,
    t_critical,
    welch,
    welch_df,
    welch_rows,
)


@pytest.mark.parametrize("confidence", [0.9, 0.95, 0.99])
def test_mean_interval_matches_scipy(confidence: float) -> None:
    x = np.array([10.2, 9.7, 10.9, 10.1])
    mi = mean_interval(x, confidence)
    lo, hi = sp.t.interval(confidence, 3, loc=x.mean(), scale=sp.sem(x))
    assert (mi.lo, mi.hi) == pytest.approx((lo, hi))
    assert mi.n == 4 and mi.df == 3 and mi.se == pytest.approx(sp.sem(x))


def test_mean_interval_one_value_is_unbounded() -> None:
    mi = mean_interval(np.array([5.0]), 0.99)
    assert mi.mean == 5.0 and mi.lo == -math.inf and mi.hi == math.inf


def test_welch_matches_scipy_and_satterthwaite() -> None:
    rng = np.random.default_rng(1)
    x, y = rng.normal(0, 1, 4), rng.normal(1, 3, 7)
    w = welch(x, y, 0.99)
    ref = sp.ttest_ind(y, x, equal_var=False)
    assert w.t == pytest.approx(ref.statistic) and w.p_value == pytest.approx(ref.pvalue)
    vx, vy = x.var(ddof=1) / 4, y.var(ddof=1) / 7
    df = (vx + vy) ** 2 / (vx**2 / 3 + vy**2 / 6)
    assert w.df == pytest.approx(df)
    half = sp.t.ppf(0.995, df) * math.sqrt(vx + vy)
    assert (w.lo, w.hi) == pytest.approx((w.diff - half, w.diff + half))
    assert w.diff == pytest.approx(y.mean() - x.mean())


def test_welch_p_value_is_not_floored() -> None:
    x = np.array([1.0, 1.01, 0.99, 1.0])
    y = x + 10.0
    assert 0.0 < welch(x, y, 0.99).p_value < 1e-12


def test_welch_degenerate_sides() -> None:
    same = welch(np.array([2.0, 2.0]), np.array([2.0, 2.0]), 0.99)
    assert same.p_value == 1.0 and same.lo == same.hi == 0.0
    apart = welch(np.array([2.0, 2.0]), np.array([3.0, 3.0]), 0.99)
    assert apart.p_value == 0.0 and apart.diff == 1.0
    with pytest.raises(ValueError):
        welch(np.array([1.0]), np.array([1.0, 2.0]), 0.99)


def test_t_critical() -> None:
    assert t_critical(0.99, 1) == pytest.approx(63.657, rel=1e-4)
    assert t_critical(0.95, math.inf) == pytest.approx(1.95996, rel=1e-4)
    assert t_critical(0.99, 0) == math.inf
    with pytest.raises(ValueError):
        t_critical(1.0, 3)


@pytest.mark.parametrize(
    ("base", "head", "p", "t"),
    [
        ([2.0, 2.0, 2.0], [2.0, 2.0, 2.0, 2.0], 1.0, 0.0),  # no spread, no difference
        ([2.0, 2.0, 2.0], [3.0, 3.0, 3.0, 3.0], 0.0, math.inf),  # no spread, a difference
        ([3.0, 3.0, 3.0], [2.0, 2.0, 2.0, 2.0], 0.0, -math.inf),
    ],
)
def test_zero_variance_is_decided_once_for_every_caller(
    base: list[float], head: list[float], p: float, t: float
) -> None:
    """The comparison, the batch path, the sequential looks and the simulator that calibrates
    them give a side pair without spread the same df (n1 + n2 − 2) and the same exact p."""
    x, y = np.array(base), np.array(head)
    one = welch(x, y, 0.99)
    rows = welch_rows(x[None, :], y[None, :], 0.99)
    look = welch_look.look_rows([x], [y])
    sim = welch_paths(SideMoments.of_rows(x[None, None, :]), SideMoments.of_rows(y[None, None, :]))
    flat = welch_df(SideMoments(3, 1.0, 0.0), SideMoments(4, 1.0, 0.0))
    for df in (one.df, rows.df[0], look.df[0], sim.df[0, 0], flat):
        assert df == len(x) + len(y) - 2
    for p_value in (one.p_value, rows.p_value[0], look.p_value[0], sim.p_value[0, 0]):
        assert p_value == p
    assert one.t == t and rows.t[0] == t and one.se == 0.0 and one.lo == one.hi == one.diff


def test_the_four_welch_callers_agree_on_ordinary_data() -> None:
    rng = np.random.default_rng(3)
    x, y = rng.normal(0.0, 0.02, 5), rng.normal(0.03, 0.05, 3)
    one = welch(x, y, 0.99)
    look = welch_look.look_rows([x], [y])
    sim = welch_paths(SideMoments.of_rows(x[None, None, :]), SideMoments.of_rows(y[None, None, :]))
    ref = sp.ttest_ind(y, x, equal_var=False)
    for df, p_value in ((look.df[0], look.p_value[0]), (sim.df[0, 0], sim.p_value[0, 0])):
        assert df == pytest.approx(one.df) and p_value == pytest.approx(ref.pvalue)
    # a look without two forks on a side is not tested (p = 1) and raises no warning
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        untested = welch_paths(
            SideMoments(np.array([[1]]), np.array([[x[0]]]), np.array([[0.0]])),
            SideMoments(np.array([[0]]), np.array([[np.nan]]), np.array([[np.nan]])),
        )
    assert untested.p_value[0, 0] == 1.0
