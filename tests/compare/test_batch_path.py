"""Keys that share a shape are computed in one batch; the result must equal key by key."""

from __future__ import annotations

import math

import numpy as np
import pytest

import perfproof.compare as compare_mod
from perfproof.compare import CompareOptions, compare_document, compare_sides
from perfproof.stats.welch import welch, welch_rows


def assert_same(a, b, path="doc") -> None:
    if isinstance(a, dict):
        assert set(a) == set(b), path
        for k in a:
            assert_same(a[k], b[k], f"{path}.{k}")
    elif isinstance(a, list):
        assert len(a) == len(b), path
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            assert_same(x, y, f"{path}[{i}]")
    elif isinstance(a, float) and isinstance(b, float):
        assert a == pytest.approx(b, rel=1e-9, abs=1e-12), path
    else:
        assert a == b, path


def test_batch_equals_key_by_key(rng, make_forks, make_samples, monkeypatch) -> None:
    base, head = {}, {}
    decay = np.exp(-np.arange(10) * 0.02)
    for i in range(24):
        b_forks = make_forks(rng, 4, 10)
        h_forks = make_forks(rng, 4, 10, level=100.0 * (1 + 0.02 * (i % 5)))
        if i % 6 == 1:  # a fork that starts at 16 us/op
            b_forks[2] = b_forks[2].copy()
            b_forks[2][:3] = 16000.0
        if i % 6 == 2:  # every fork drifting down
            h_forks = [f * decay for f in h_forks]
        if i % 6 == 3:  # two levels of fork means
            b_forks = [f * (1.3 if j % 2 else 1.0) for j, f in enumerate(b_forks)]
        b, h = make_samples(f"k{i:02d}", b_forks), make_samples(f"k{i:02d}", h_forks)
        base[b.key], head[h.key] = b, h
    batched = compare_document(compare_sides(base, head, CompareOptions()))
    monkeypatch.setattr(compare_mod, "BATCH_MIN", 10**9)
    one_by_one = compare_document(compare_sides(base, head, CompareOptions()))
    assert_same(batched, one_by_one)
    flags = [c["diagnostics"] for c in batched["comparisons"]]
    assert any("unsettled" in d for d in flags)
    assert any("trending" in d for d in flags)
    assert any("bimodal" in d for d in flags)


def test_welch_rows_equals_welch(rng) -> None:
    x = rng.normal(0, 1, (50, 3))
    y = rng.normal(0.5, 2, (50, 5))
    x[0] = 1.0  # no spread on either side: exact difference
    y[0] = 2.0
    x[1], y[1] = 1.0, 1.0
    rows = welch_rows(x, y, 0.99)
    for i in range(50):
        w = welch(x[i], y[i], 0.99)
        for field in ("diff", "lo", "hi", "df", "se", "t", "p_value"):
            got, want = float(getattr(rows, field)[i]), getattr(w, field)
            assert got == want or math.isclose(got, want, rel_tol=1e-9, abs_tol=1e-12), (i, field)
