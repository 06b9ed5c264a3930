"""Synthetic JVM-like measurements with a known truth, for calibration and scale checks.

Real benchmark data has two random levels: each fork (JVM) draws its own level, and the
iterations inside it scatter around that level. A method is only trustworthy if it keeps
its promised error rate on data shaped like that, so the calibration tests, the sequential
simulator (:mod:`lab.sequential_sim`) and the scale benchmark draw from this one law; no verb
does, so it lives beside them rather than in the installed package.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class ForkNoise:
    """The noise law, on the log scale: each fork's level lies ``fork_sd`` around its side's
    level, and each iteration ``iteration_sd`` around its fork's level. The defaults are what
    real JVMs show (fork-to-fork sd of log fork means 3–6%, iterations tighter)."""

    fork_sd: float = 0.03
    iteration_sd: float = 0.01

    def levels(self, rng: np.random.Generator, shape: tuple[int, ...]) -> np.ndarray:
        """Each fork's log level relative to its side's, one per element of ``shape``."""
        return rng.standard_normal(shape) * self.fork_sd

    def draw(
        self, rng: np.random.Generator, shape: tuple[int, ...], iterations: int
    ) -> tuple[np.ndarray, np.ndarray]:
        """Each fork's log level (``shape``) and, drawn after all of them, its iterations' log
        deviations from it (``shape`` × ``iterations``)."""
        levels = self.levels(rng, shape)
        return levels, rng.standard_normal((*shape, iterations)) * self.iteration_sd


JVM_NOISE = ForkNoise()
"""The law with its defaults, what a caller gets unless it asks for another."""


def hierarchical(
    rng: np.random.Generator,
    forks: int,
    iterations: int,
    level: float = 100.0,
    noise: ForkNoise = JVM_NOISE,
) -> list[np.ndarray]:
    """``forks`` forks of ``iterations`` values around ``level`` under ``noise``; one array
    per fork."""
    fork, scatter = noise.draw(rng, (forks,), iterations)
    values = level * np.exp(fork[:, None]) * np.exp(scatter)
    return list(values)
