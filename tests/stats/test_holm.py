"""Holm's step-down adjustment."""

from __future__ import annotations

import numpy as np
import pytest

from perfproof.stats.family import holm


def test_holm_hand_computed() -> None:
    p = np.array([0.01, 0.04, 0.03, 0.005])
    # sorted: 0.005*4=0.02, 0.01*3=0.03, 0.03*2=0.06, 0.04*1=0.04 -> monotone 0.06
    assert holm(p).tolist() == pytest.approx([0.03, 0.06, 0.06, 0.02])


def test_holm_caps_at_one_and_keeps_order() -> None:
    p = np.array([0.9, 0.5, 0.8])
    adj = holm(p)
    assert adj.max() == 1.0 and np.all(adj >= p)
    assert holm(np.array([])).size == 0


def test_holm_is_at_most_bonferroni_and_single_test_unchanged() -> None:
    rng = np.random.default_rng(3)
    p = rng.uniform(0, 0.2, 50)
    adj = holm(p)
    assert np.all(adj <= np.minimum(p * 50, 1.0) + 1e-15)
    assert holm(np.array([0.02])).tolist() == [0.02]
