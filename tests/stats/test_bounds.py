"""Ratio intervals unbounded on either side: conversions that never raise or warn."""

from __future__ import annotations

import json
import math

import pytest

from perfproof.model import RatioBounds
from perfproof.model.bounds import bound_exp, log_bound
from perfproof.model.documents import dumps


def test_exp_and_log_saturate_instead_of_raising() -> None:
    assert bound_exp(2000.0) == math.inf and bound_exp(-2000.0) == 0.0
    assert bound_exp(-math.inf) == 0.0 and bound_exp(math.inf) == math.inf
    assert log_bound(0.0) == -math.inf and log_bound(-3.0) == -math.inf
    assert log_bound(math.inf) == math.inf and math.isnan(log_bound(math.nan))
    assert bound_exp(log_bound(1.25)) == pytest.approx(1.25)


def test_bounds_from_logs_past_the_float_range_are_unbounded() -> None:
    b = RatioBounds.of_logs(-5000.0, 5000.0)
    assert b == RatioBounds.unbounded() == (0.0, math.inf)
    assert not b.bounded_below and not b.bounded_above
    assert b.logs() == (-math.inf, math.inf)
    assert b.percent() == (-100.0, math.inf)
    assert RatioBounds(0.9, 1.1).bounded


def test_a_document_round_trip_keeps_an_unbounded_side_unbounded() -> None:
    written = json.loads(dumps({"ratio_ci": RatioBounds(0.5, math.inf)}))["ratio_ci"]
    assert written == [0.5, None]
    assert RatioBounds.read(*written) == (0.5, math.inf)
    assert RatioBounds.read(None, 2.0) == (0.0, 2.0)
    assert RatioBounds.read(math.nan, math.nan) == RatioBounds.unbounded()


def test_a_change_of_level_widens_in_log_space_and_keeps_open_sides_open() -> None:
    b = RatioBounds(0.8, 1.25)
    w = b.widened(1.0, 2.0)
    assert w.lo == pytest.approx(0.64) and w.hi == pytest.approx(1.5625)
    half_open = RatioBounds(0.8, math.inf).widened(1.0, 2.0)
    assert half_open.lo == pytest.approx(0.64) and half_open.hi == math.inf


@pytest.mark.parametrize(
    ("bounds", "drawn", "cut"),
    [
        (RatioBounds(0.9, 1.1), (0.9, 1.1), (False, False)),
        (RatioBounds.unbounded(), (0.1, 10.0), (True, True)),
        (RatioBounds(0.5, 1e300), (0.5, 10.0), (False, True)),
        (RatioBounds(1e-300, 1e-200), (0.1, 0.1), (True, False)),
        (RatioBounds.read(None, None), (0.1, 10.0), (True, True)),
    ],
)
def test_the_part_a_chart_shows_and_the_ends_it_cuts(
    bounds: RatioBounds, drawn: tuple[float, float], cut: tuple[bool, bool]
) -> None:
    shown = bounds.on_axis(0.1, 10.0)
    assert (shown.lo, shown.hi) == drawn
    assert (shown.cut_lo, shown.cut_hi) == cut
