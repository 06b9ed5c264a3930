"""Bounds on a change are intervals of the ratio, never a symmetric ± past -100%."""

from __future__ import annotations

import math

import pytest

from perfproof.units import change_interval, detectable_interval, log_half_width_bounds


@pytest.mark.parametrize(
    ("lo", "hi", "text"),
    [
        (0.52, 3.23, "-48%…+223%"),  # the futility stop's ×[0.52, 3.23]: not "±223%"
        (0.961, 1.041, "-3.9%…+4.1%"),
        (0.9995, 1.0004, "-0.05%…+0.04%"),
        (1.05, 1.30, "+5%…+30%"),
        (0.048, 31.0, "×0.0480…×31.0"),
        (0.2, 12.0, "×0.200…×12.0"),
        (0.0, math.inf, "×0…×∞"),
        (0.5, math.inf, "×0.500…×∞"),
        (math.nan, 2.0, "n/a"),
    ],
)
def test_change_interval_writes_both_ends_on_the_ratio_scale(
    lo: float, hi: float, text: str
) -> None:
    assert change_interval(lo, hi) == text


def test_no_end_below_minus_100_percent() -> None:
    for lo in (0.1001, 0.2, 0.5, 0.99):
        low_end = change_interval(lo, 2.0).split("…")[0]
        assert float(low_end.rstrip("%")) > -100.0


def test_a_detectable_effect_is_symmetric_in_log_space() -> None:
    # ±190.8% as the old note wrote it: +190.8% up, and the same log distance down (-65.6%)
    assert detectable_interval(190.8) == "-66%…+191%"
    assert detectable_interval(4.0) == "-3.8%…+4.0%"
    assert detectable_interval(math.inf) == "past a thousand-fold"
    assert detectable_interval(5e6) == "past a thousand-fold"
    assert detectable_interval(None) == "n/a"
    lo, hi = log_half_width_bounds(math.log(2.0))
    assert math.isclose(lo, 0.5) and math.isclose(hi, 2.0)
    assert log_half_width_bounds(math.inf) == (0.0, math.inf)
