"""perfproof's Boschloo test gives SciPy's two-sided p-value (without SciPy's global optimiser).

SciPy's ``boschloo_exact`` is the reference: the tables below are those the bimodal rule
meets (clean splits by side, one fork across, uneven sides) and a spread of random ones with
up to 25 forks a side; every p-value agrees to 10⁻⁹ of its value.
"""

from __future__ import annotations

import math
import random

import pytest
from scipy import stats

from perfproof.stats.boschloo import boschloo_two_sided


def _tables() -> list[tuple[int, int, int, int]]:
    shaped = [(k, 0, 0, k) for k in (2, 3, 5, 9, 14)]
    shaped += [(k, 1, 1, k) for k in (3, 6)] + [(4, 1, 0, 5), (5, 0, 0, 8), (2, 2, 2, 2)]
    shaped += [(0, 3, 3, 0), (1, 0, 0, 1), (3, 0, 0, 0), (6, 6, 0, 12)]
    rng = random.Random(11)
    spread = []
    for _ in range(12):
        n1, n2 = rng.randint(1, 25), rng.randint(1, 25)
        a, c = rng.randint(0, n1), rng.randint(0, n2)
        spread.append((a, n1 - a, c, n2 - c))
    return shaped + spread


@pytest.mark.parametrize("table", _tables())
def test_the_p_value_is_scipys(table: tuple[int, int, int, int]) -> None:
    a, b, c, d = table
    expected = float(stats.boschloo_exact([[a, c], [b, d]]).pvalue)
    got = boschloo_two_sided(table)
    if math.isnan(expected):  # an empty column
        assert math.isnan(got)
    else:
        assert got == pytest.approx(expected, rel=1e-9, abs=1e-15)


def test_five_forks_a_side_split_by_side_is_the_even_share_chance() -> None:
    """All 5 base forks in one group and all 5 head forks in the other: the largest chance
    is at an even share, 2 × 0.5¹⁰ for both directions together."""
    assert boschloo_two_sided((5, 0, 0, 5)) == pytest.approx(2 * 0.5**10, rel=1e-12)
