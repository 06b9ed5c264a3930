"""Readable units and precision: one unit per row, digits supported by the interval."""

from __future__ import annotations

import math

import pytest

from perfproof.units import (
    bytes_change,
    choose_scale,
    decimals_for,
    delta_with_interval,
    duration,
    number,
    signed,
    value_with_interval,
)


@pytest.mark.parametrize(
    ("ns", "unit", "factor"),
    [
        (2.4, "ns/op", 1.0),
        (999.0, "ns/op", 1.0),
        (1500.0, "µs/op", 1e3),
        (2.5e6, "ms/op", 1e6),
        (3e9, "s/op", 1e9),
        (5e12, "s/op", 1e9),
    ],
)
def test_time_scale_keeps_at_most_three_integer_digits(ns: float, unit: str, factor: float) -> None:
    scale = choose_scale("ns/op", ns)
    assert (scale.unit, scale.factor) == (unit, factor)


def test_throughput_takes_an_si_prefix() -> None:
    scale = choose_scale("ops/s", 24_646_106.7)
    assert (scale.unit, scale.factor) == ("M ops/s", 1e6)
    text = value_with_interval(24_646_106.7, (22_000_000.0, 27_292_213.4), scale)
    assert text == "24.6 ± 2.6 M ops/s"


def test_interval_sets_the_precision() -> None:
    scale = choose_scale("ns/op", 2.4033)
    assert value_with_interval(2.4033, (2.4033 - 0.549, 2.4033 + 0.549), scale) == (
        "2.40 ± 0.55 ns/op"
    )
    assert value_with_interval(11.4498, (11.4498 - 0.0123, 11.4498 + 0.0123), scale) == (
        "11.450 ± 0.012 ns/op"
    )
    assert decimals_for(None, 1234.5) == 0
    assert decimals_for(None, 2.345) == 3


def test_asymmetric_interval_is_written_as_a_range() -> None:
    scale = choose_scale("ns/op", 10.0)
    assert value_with_interval(10.0, (9.0, 13.0), scale) == "10.0 [9.0, 13.0] ns/op"


def test_value_without_interval() -> None:
    scale = choose_scale("ns/op", 3195.1)
    assert value_with_interval(3195.1, None, scale) == "3.195 µs/op"
    assert value_with_interval(3195.1, (-math.inf, math.inf), scale) == "3.195 µs/op"


def test_signs_and_minus() -> None:
    assert signed(3.21, 1) == "+3.2"
    assert signed(-0.04, 1) == "0.0"
    assert signed(-12.0, 1) == "-12.0"
    assert number(-1234.5, 1) == "-1,234.5"
    assert number(float("nan"), 1) == "n/a"
    assert delta_with_interval(-17.86, (-19.21, -16.48)) == "-17.9% [-19.2, -16.5]"
    assert delta_with_interval(0.031, (-0.05, 0.11)) == "+0.03% [-0.05, +0.11]"


def test_bytes_change_words() -> None:
    assert bytes_change(4736.003, 1e-5, None) == "4,736 → 0 B/op (-100.0%)"
    assert bytes_change(1e-5, 2e-5, None) == "0 → 0 B/op (no allocation)"
    assert bytes_change(0.0, 24.0, None) == "0 → 24 B/op (new allocation)"
    assert bytes_change(1024.0, 1536.0, 50.0) == "1,024 → 1,536 B/op (+50.0%)"


def test_duration() -> None:
    assert duration(0.25) == "250 ms"
    assert duration(42.54) == "42.5 s"
    assert duration(245) == "4 min 05 s"
    assert duration(7300) == "2 h 01 min"
