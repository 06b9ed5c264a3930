"""The one number formatter and the one Markdown table writer."""

from __future__ import annotations

import math
import warnings

import pytest
from markdown_it import MarkdownIt

from perfproof.render.markdown import markdown_table, md_cell
from perfproof.units import (
    MAX_BOUND_FACTOR,
    MISSING,
    choose_scale,
    cut_at_zero,
    delta_with_interval,
    percent,
    percent_range,
    quantity,
    relative_spread,
    significant,
    value_spread,
)


@pytest.mark.parametrize(
    ("value", "unit", "text"),
    [
        (1_039_327_051.0, "ops/s", "1.04 G ops/s"),
        (24_630_363.0, "ops/s", "24.6 M ops/s"),
        (950.0, "ops/s", "950 ops/s"),
        (0.5, "ops/s", "0.500 ops/s"),
        (412.3, "ns/op", "412 ns/op"),
        (2.4033, "ns/op", "2.40 ns/op"),
        (3190.0, "ns/op", "3.19 µs/op"),
        (999.7, "ns/op", "1.00 µs/op"),
        (2.5e9, "ns/op", "2.50 s/op"),
        (1e306, "ops/s", "1.00e+306 ops/s"),
        (1e306, "ns/op", "1.00e+297 s/op"),
        (-3.2, "ns/op", "-3.20 ns/op"),
        (1536.0, "MB/sec", "1,536 MB/sec"),
    ],
)
def test_quantities_scale_with_si_prefixes_or_jmh_units(value: float, unit: str, text: str) -> None:
    assert quantity(value, unit) == text


@pytest.mark.parametrize("value", [None, math.nan])
def test_missing_values_have_one_spelling(value: float | None) -> None:
    assert quantity(value, "ops/s") == MISSING
    assert significant(value) == MISSING
    assert percent(value) == MISSING
    assert relative_spread(value, (1.0, 2.0)) == f"± {MISSING}"


def test_spread_is_relative_like_benchstat() -> None:
    v = 1_039_327_051.0
    assert relative_spread(v, (v * 0.959, v * 1.041)) == "± 4.1%"
    assert relative_spread(v, (v - 155_863_234, v + 155_863_234)) == "± 15%"
    assert relative_spread(1.0, (-20.0, 22.0)) == "± 2,100%"  # never capped
    scale = choose_scale("ops/s", v)
    assert value_spread(v, (v * 0.959, v * 1.041), scale) == "1.04 G ops/s ± 4.1%"


def test_a_wide_or_lopsided_side_is_written_as_its_ends() -> None:
    """``± 591%`` looks symmetric; the ends show where the interval really lies."""
    scale = choose_scale("ns/op", 12_800.0)
    assert value_spread(12_800.0, (5_210.0, 88_400.0), scale) == "12.8 µs/op [5.21, 88.4]"
    assert value_spread(100.0, (97.0, 103.0), choose_scale("ns/op", 100.0)) == "100 ns/op ± 3.0%"


def test_a_side_interval_never_reads_below_zero() -> None:
    """A linear interval over three spread forks of a rate reached -20.4 M ops/s: no time, rate
    or size per op is negative, so its lower end is cut at 0 (a metric JMH's profilers report
    may be negative, and keeps its interval)."""
    ops = choose_scale("ops/s", 6.34e6)
    assert value_spread(6.34e6, (-20.4e6, 33.1e6), ops) == "6.34 M ops/s [0, 33.1]"
    assert cut_at_zero(6.34e6, (-20.4e6, 33.1e6), "ops/s")
    ns = choose_scale("ns/op", 100.0)
    assert value_spread(100.0, (-491.0, 691.0), ns) == "100 ns/op [0, 691]"
    assert cut_at_zero(100.0, (-491.0, 691.0), "µs/op") and cut_at_zero(1.0, (-1.0, 3.0), "B/op")
    other = choose_scale("counts", 1.0)
    assert value_spread(1.0, (-20.0, 22.0), other) == "1.00 counts [-20.0, 22.0]"
    assert not cut_at_zero(1.0, (-20.0, 22.0), "counts")
    assert not cut_at_zero(100.0, (5.0, 691.0), "ns/op")


def test_a_ratio_interval_past_the_export_factor_is_said_in_words() -> None:
    """×1.39 [2.17e-12, 886,753,030,609] from 3 forks a side: the same 1,000× rule that keeps
    such bounds out of the exports turns the interval into words."""
    wide = ((2.17e-12 - 1) * 100, (886_753_030_609 - 1) * 100)
    assert delta_with_interval(39.0, wide, (3, 3)) == "×1.39 (interval too wide: 3 forks a side)"
    assert delta_with_interval(39.0, wide, (2, 5)) == "×1.39 (interval too wide: 2 and 5 forks)"
    assert delta_with_interval(5.0, (-100.0, math.inf)) == "×1.05 (interval too wide to bound it)"
    ratio = 1.39
    edge = ((ratio / MAX_BOUND_FACTOR - 1) * 100, (ratio * MAX_BOUND_FACTOR - 1) * 100)
    assert "[" in delta_with_interval(39.0, edge, (3, 3))  # at the factor: still numbers
    assert delta_with_interval(-12.3, (-14.1, -10.5), (3, 3)) == "-12.3% [-14.1, -10.5]"
    assert delta_with_interval(1830.0, (1610.0, 2050.0), (3, 3)) == "×19.3 [17.1, 21.5]"


def test_percentages() -> None:
    assert percent(12.04) == "+12.0%"
    assert percent(-50.0) == "-50.0%"
    assert percent(-99.97) == "-99.97%"
    assert percent(5000.0) == "×51.0"
    assert percent(1830.0) == "×19.3"
    assert percent(1500.0, sign=False) == "1,500%"
    assert percent(math.inf) == "+∞"
    assert percent_range(28.2, 127.9) == "+28% to +128%"
    assert percent_range(-94.83, -12.0) == "×0.0517 to ×0.880"


def test_large_effects_are_ratios_with_their_interval() -> None:
    assert delta_with_interval(1830.0, (1610.0, 2050.0)) == "×19.3 [17.1, 21.5]"
    assert delta_with_interval(-94.83, (-95.69, -93.8)) == "×0.0517 [0.0431, 0.0620]"
    assert delta_with_interval(50.0, (-10.0, 5000.0)) == "×1.50 [0.900, 51.0]"
    assert delta_with_interval(-12.3, (-14.1, -10.5)) == "-12.3% [-14.1, -10.5]"
    assert percent_range(30.2, 29.9) == "+30%"


def test_extreme_values_raise_no_numpy_warnings() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for v in (1e306, -1e306, 1e-300, 5e307):
            quantity(v, "ops/s")
            relative_spread(v, (v * 0.5, v))


def test_cells_cannot_break_a_markdown_row() -> None:
    assert md_cell("a|b") == "a\\|b"
    assert md_cell("one\ntwo\r\nthree") == "one<br>two<br>three"
    lines = markdown_table(("param", "value"), [("x|y\nz", "1")], ("l", "r"))
    assert len(lines) == 3
    tokens = MarkdownIt("commonmark").enable("table").parse("\n".join(lines))
    cells = [t.content for t in tokens if t.type == "inline"]
    assert cells == ["param", "value", "x|y<br>z", "1"]


def test_table_shape_is_checked() -> None:
    with pytest.raises(ValueError):
        markdown_table(("a", "b"), [("only one",)])
