"""Synthetic JVM-like measurements with known truth: a fork random effect over iteration noise."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest

from lab.simulate import hierarchical


@pytest.fixture
def make_forks() -> Callable[..., list[np.ndarray]]:
    return hierarchical
