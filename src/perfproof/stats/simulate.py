"""Synthetic JVM-like measurements with a known truth, for calibration and scale checks.

Real benchmark data has two random levels: each fork (JVM) draws its own level, and the
iterations inside it scatter around that level. A method is only trustworthy if it keeps
its promised error rate on data shaped like that, so the calibration tests and the scale
benchmark draw from this one generator.
"""

from __future__ import annotations

import numpy as np


def hierarchical(
    rng: np.random.Generator,
    forks: int,
    iterations: int,
    level: float = 100.0,
    fork_sd: float = 0.03,
    iteration_sd: float = 0.01,
) -> list[np.ndarray]:
    """Forks whose levels vary by ``fork_sd`` (log scale) around ``level``, with
    ``iteration_sd`` (log scale) noise inside each fork; one array per fork."""
    fork_levels = level * np.exp(rng.normal(0.0, fork_sd, size=(forks, 1)))
    values = fork_levels * np.exp(rng.normal(0.0, iteration_sd, size=(forks, iterations)))
    return list(values)
