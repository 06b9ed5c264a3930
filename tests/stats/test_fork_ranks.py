"""The rank method on fork means: its exact null law, its interval, and its A/A guarantee.

The calibration is checked on synthetic fork means whose truth is known: A/A draws (nothing
changed) from normal fork means and from forks in two code shapes, at a fixed design and at the
looks of a sequential design (Bonferroni across looks), must end improved/regressed no more
often than α (plus two standard errors); a known shift must lie inside the interval at least
1 − α of the time. Seeded and small (a few seconds).
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

from perfproof.compare import CompareOptions, compare_sides
from perfproof.model import BenchKey, Direction, Samples
from perfproof.model.diagnostics import ComparisonMethod
from perfproof.stats import methods
from perfproof.stats import sequential as seq
from perfproof.stats.fork_ranks import (
    FORK_RANKS,
    RankLook,
    forks_for,
    null_cdf,
    rank_look,
    smallest_p,
    trimmed,
)


def _brute_cdf(m: int, n: int) -> np.ndarray:
    """P(U ≤ u) by enumerating every split of m + n ranks."""
    counts = np.zeros(m * n + 1)
    for base in itertools.combinations(range(m + n), m):
        head = [r for r in range(m + n) if r not in base]
        counts[sum(1 for b in base for h in head if h > b)] += 1
    return np.cumsum(counts) / counts.sum()


@pytest.mark.parametrize(("m", "n"), [(1, 1), (2, 3), (3, 3), (4, 2), (5, 4)])
def test_the_null_law_is_the_count_over_every_split(m: int, n: int) -> None:
    np.testing.assert_allclose(null_cdf(m, n), _brute_cdf(m, n), rtol=1e-12)


def test_few_forks_cannot_reach_a_small_level() -> None:
    assert smallest_p(3, 3) == pytest.approx(0.1)
    assert smallest_p(5, 5) == pytest.approx(2 / 252)
    assert forks_for(0.01) == 5 and forks_for(0.002) == 7
    assert trimmed(0.01, 3, 3) == 0 and trimmed(0.01, 5, 5) == 1


def test_the_interval_excludes_one_exactly_when_the_test_rejects() -> None:
    rng = np.random.default_rng(3)
    for _ in range(300):
        m, n = rng.integers(2, 9, size=2)
        base = rng.lognormal(0.0, 0.05, m)
        head = rng.lognormal(rng.normal(0, 0.05), 0.05, n)
        for level in (0.9, 0.95, 0.99):
            e = FORK_RANKS.compare([np.array([v]) for v in base], [np.array([v]) for v in head],
                                   level)  # fmt: skip
            assert (e.lo > 1.0 or e.hi < 1.0) == (e.p_value <= 1 - level + 1e-12)
            assert e.lo <= e.ratio <= e.hi


def test_the_interval_at_another_level_is_the_one_computed_there() -> None:
    rng = np.random.default_rng(4)
    base = [np.array([v]) for v in rng.lognormal(0.0, 0.05, 8)]
    head = [np.array([v]) for v in rng.lognormal(0.1, 0.05, 8)]
    nominal = FORK_RANKS.compare(base, head, 0.99)
    for level in (0.9, 0.995, 0.9999):
        again = FORK_RANKS.at_level(nominal, 0.99, level)
        direct = FORK_RANKS.compare(base, head, level)
        assert (again.lo, again.hi) == (direct.lo, direct.hi)


def _aa_rate(draw: np.ndarray, alpha: float) -> float:
    """The share of A/A pairs (rows of base | head fork means) whose interval excludes 1."""
    half = draw.shape[1] // 2
    effects = FORK_RANKS.compare_rows(draw[:, :half], draw[:, half:], 1 - alpha)
    assert effects is not None
    return float(np.mean([e.lo > 1.0 or e.hi < 1.0 for e in effects]))


@pytest.mark.parametrize("law", ["normal", "two shapes"])
def test_aa_false_alarms_stay_within_alpha_at_a_fixed_design(law: str) -> None:
    rng = np.random.default_rng(11)
    draws, forks, alpha = 4000, 8, 0.05
    if law == "normal":
        logs = rng.normal(0.0, 0.03, (draws, 2 * forks))
    else:  # a third of the forks in a code shape 40% slower, on either side alike
        logs = rng.normal(0.0, 0.02, (draws, 2 * forks)) + 0.34 * (
            rng.random((draws, 2 * forks)) < 1 / 3
        )
    rate = _aa_rate(np.exp(logs), alpha)
    assert rate <= alpha + 2 * math.sqrt(alpha * (1 - alpha) / draws), rate
    assert rate > alpha / 3  # exact, so not far below α either


def test_a_known_shift_lies_inside_its_interval() -> None:
    rng = np.random.default_rng(12)
    draws, forks, shift, level = 3000, 7, 0.2, 0.95
    base = np.exp(rng.standard_t(3, (draws, forks)) * 0.03)
    head = np.exp(rng.standard_t(3, (draws, forks)) * 0.03 + shift)
    effects = FORK_RANKS.compare_rows(base, head, level)
    assert effects is not None
    covered = np.mean([e.lo <= math.exp(shift) <= e.hi for e in effects])
    assert covered >= level - 2 * math.sqrt(level * (1 - level) / draws)


def _play_ranks(
    streams: tuple[np.ndarray, np.ndarray], keys: int, design: seq.Schedule, alpha: float
) -> np.ndarray:
    """Every key's final outcome code, a family of ``keys`` per row, judged look by look by
    the rank method's looks and the same ``judge`` a run uses."""
    base, head = streams  # forks × paths
    paths = base.shape[1]
    shape = (paths // keys, keys)
    frozen = np.full(shape, np.nan)
    code = np.full(shape, seq.CONTINUE, dtype=np.int8)
    for k in range(1, design.max_looks + 1):
        n = design.forks_at(k)
        look = rank_look(list(base[:n].T), list(head[:n].T))
        assert isinstance(look, RankLook)
        j = seq.judge(look.reshape(shape), frozen, design, alpha, "bh", 0.01, k)
        newly = np.isnan(frozen) & (j.code != seq.CONTINUE)
        code[newly] = j.code[newly]
        frozen[newly] = j.seq_p[newly]
    return code


@pytest.mark.parametrize("law", ["normal", "two shapes"])
def test_aa_false_alarms_stay_within_alpha_at_the_looks(law: str) -> None:
    """Bonferroni across looks on exact p-values: families of five keys, Benjamini–Hochberg at
    every look, any false improved/regressed in a family within α."""
    rng = np.random.default_rng(21)
    design, alpha, keys, families = seq.Schedule(6, 3, 1), 0.05, 5, 1200
    forks = design.forks_at(design.max_looks)
    size = (forks, families * keys)
    streams = tuple(
        rng.normal(0.0, 0.03, size) + (0.0 if law == "normal" else 0.3 * (rng.random(size) < 0.3))
        for _ in range(2)
    )
    code = _play_ranks((streams[0], streams[1]), keys, design, alpha)
    wrong = np.isin(code, (seq.LOWER, seq.HIGHER)).any(axis=1).mean()
    assert wrong <= alpha + 2 * math.sqrt(alpha * (1 - alpha) / families), wrong


def test_the_looks_find_a_real_change() -> None:
    rng = np.random.default_rng(22)
    design, keys = seq.Schedule(8, 3, 1), 1
    forks = design.forks_at(design.max_looks)
    base = rng.normal(0.0, 0.03, (forks, 400))
    head = rng.normal(-0.2, 0.03, (forks, 400))
    code = _play_ranks((base, head), keys, design, 0.01)
    assert np.mean(code == seq.LOWER) > 0.95


def _samples(key: BenchKey, forks: list[list[float]]) -> Samples:
    return Samples(key, "ns/op", Direction.LOWER, [np.array(f) for f in forks])


def test_comparisons_name_the_method_and_the_batch_path_agrees_with_one_key() -> None:
    rng = np.random.default_rng(5)
    base, head = {}, {}
    for i in range(12):
        key = BenchKey(f"b.B.m{i}", "avgt", (), "primary")
        base[key] = _samples(key, rng.lognormal(0.0, 0.03, (6, 3)).tolist())
        head[key] = _samples(key, rng.lognormal(-0.1 * (i % 2), 0.03, (6, 3)).tolist())
    options = CompareOptions(metrics=("primary",), method=ComparisonMethod.FORK_RANKS)
    batched = compare_sides(base, head, options).comparisons
    alone = [compare_sides({k: base[k]}, {k: head[k]}, options).comparisons[0] for k in base]
    assert {c.method for c in batched} == {ComparisonMethod.FORK_RANKS}
    for a, b in zip(sorted(batched, key=lambda c: c.key), sorted(alone, key=lambda c: c.key),
                    strict=True):  # fmt: skip
        assert (a.ratio, a.p_value) == (b.ratio, b.p_value)
    assert methods.of(ComparisonMethod.FORK_RANKS_SEQUENTIAL) is FORK_RANKS


def test_the_method_is_refused_by_name_at_the_door() -> None:
    from perfproof.errors import InputError

    with pytest.raises(InputError, match="--method exact: expected one of fork-level, fork-ranks"):
        CompareOptions(method=ComparisonMethod.EXACT)
