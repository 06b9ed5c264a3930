"""The per-look levels of a sequential design: when the looks happen, and the level of each.

A Pocock-type design tests every look at the same, smaller nominal two-sided level α′, chosen
so that the chance of crossing at any of the K looks, when nothing changed, is at most α.
How α′ is found is the method's to say (:class:`Levels`):

:class:`Calibrated`
    For Welch's t on log fork means: α′ depends on the number of looks, on the schedule, on the
    ratio of the two sides' fork variances and on Welch's small-sample behaviour, so it is
    calibrated by Monte Carlo (``benchmarks/lab/sequential_sim.py``): the α-quantile of the
    smallest nominal p-value over K looks of A/A paths, at variance ratios 1 to 3, taking the
    worst ratio and the lower 97.5% bound of the quantile. The levels ship in
    ``sequential_levels.json``, written by ``benchmarks/calibrate_sequential.py`` (seeded;
    anyone can rerun it and get the same file).
:class:`Bonferroni`
    α′ = α/K: valid for any test whose p-values are valid at each look (the union bound), with
    no simulation; what a method without a table of its own uses.

The map α ↦ α′ is increasing, so it can be inverted: the *sequential p-value* of a look is the
smallest α whose design would have rejected there. Under A/A it is super-uniform whatever the
stopping rule (up to K looks), which is what lets a family procedure run on sequential p-values
and keep its guarantee.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np

from perfproof.stats.tables import shipped_table

LEVELS_FILE = "sequential_levels.json"
LEVELS_SCHEMA = "perfproof.sequential-levels/1"


@dataclass(frozen=True)
class Schedule:
    """When the looks happen: ``first_forks`` per side at look 1, then ``forks_per_look`` more
    per side at each later look, at most ``max_looks`` looks."""

    max_looks: int
    first_forks: int = 2
    forks_per_look: int = 1

    def __post_init__(self) -> None:
        if self.max_looks < 1:
            raise ValueError(f"max_looks must be at least 1, got {self.max_looks}")
        if self.first_forks < 2 or self.forks_per_look < 1:
            raise ValueError("a look needs at least 2 forks per side and 1 more per look")

    def forks_at(self, look: int) -> int:
        """Forks per side the design plans at ``look`` (1-based)."""
        return self.first_forks + (look - 1) * self.forks_per_look

    @property
    def name(self) -> str:
        return f"{self.first_forks}+{self.forks_per_look}"


def levels_table() -> dict[str, Any]:
    """The shipped calibration."""
    return shipped_table(LEVELS_FILE, LEVELS_SCHEMA)


def _calibrated(schedule: Schedule) -> tuple[np.ndarray, np.ndarray]:
    """(α grid, α′ per α) for the schedule; nearest calibrated schedule that is at least as
    demanding when the exact one is not in the table (more looks never lowers the risk)."""
    table = levels_table()
    schedules = table["schedules"]
    name = schedule.name
    if name not in schedules:
        raise ValueError(
            f"no calibrated levels for {schedule.first_forks} forks at the first look and "
            f"{schedule.forks_per_look} per look (have {', '.join(sorted(schedules))})"
        )
    per_k = schedules[name]
    k = schedule.max_looks
    if str(k) not in per_k:
        known = sorted(int(x) for x in per_k)
        if k > known[-1]:
            raise ValueError(f"no calibrated levels beyond {known[-1]} looks (asked for {k})")
        k = min(x for x in known if x >= k)
    return np.asarray(table["alphas"], dtype=float), np.asarray(per_k[str(k)], dtype=float)


def per_look_level(alpha: float | np.ndarray, schedule: Schedule) -> np.ndarray:
    """The nominal two-sided level α′ of every look, for an overall error ``alpha``.

    Log-log interpolation between calibrated points; Bonferroni across looks below the grid;
    above the grid, the level at the largest calibrated α scaled in proportion.
    """
    a = np.asarray(alpha, dtype=float)
    grid, level = _calibrated(schedule)
    k = schedule.max_looks
    inside = np.exp(np.interp(np.log(np.clip(a, grid[0], grid[-1])), np.log(grid), np.log(level)))
    out = np.where(a < grid[0], a / k, inside)
    out = np.where(a > grid[-1], np.minimum(a, level[-1] * a / grid[-1]), out)
    return np.asarray(out if out.ndim else out[()])


def sequential_p(p_nominal: float | np.ndarray, schedule: Schedule) -> np.ndarray:
    """The smallest overall α at which this look's nominal p-value is a rejection.

    The inverse of :func:`per_look_level`, conservative at the grid's edges (never smaller
    than the exact inverse), capped at 1.
    """
    p = np.asarray(p_nominal, dtype=float)
    grid, level = _calibrated(schedule)
    k = schedule.max_looks
    inside = np.exp(np.interp(np.log(np.maximum(p, 1e-300)), np.log(level), np.log(grid)))
    below = np.minimum(k * p, grid[0])  # Bonferroni region, then flat up to the grid
    out = np.where(p < level[0], below, inside)
    out = np.where(p > level[-1], np.minimum(1.0, p * grid[-1] / level[-1]), out)
    return np.asarray(out if out.ndim else out[()])


class Levels(Protocol):
    """How a method's looks are calibrated: α ↦ α′ on a schedule, and its inverse."""

    def per_look_level(self, alpha: float | np.ndarray, schedule: Schedule) -> np.ndarray: ...

    def sequential_p(self, p_nominal: float | np.ndarray, schedule: Schedule) -> np.ndarray: ...

    def check(self, alpha: float, schedule: Schedule) -> None:
        """ValueError when the design cannot be run at ``alpha`` on ``schedule``."""
        ...


class Calibrated:
    """The shipped Monte Carlo table of Welch's t on log fork means (:data:`LEVELS_FILE`)."""

    def per_look_level(self, alpha: float | np.ndarray, schedule: Schedule) -> np.ndarray:
        return per_look_level(alpha, schedule)

    def sequential_p(self, p_nominal: float | np.ndarray, schedule: Schedule) -> np.ndarray:
        return sequential_p(p_nominal, schedule)

    def check(self, alpha: float, schedule: Schedule) -> None:
        per_look_level(alpha, schedule)


class Bonferroni:
    """α′ = α/K on every schedule: the union bound over the K looks."""

    def per_look_level(self, alpha: float | np.ndarray, schedule: Schedule) -> np.ndarray:
        out = np.asarray(alpha, dtype=float) / schedule.max_looks
        return np.asarray(out if out.ndim else out[()])

    def sequential_p(self, p_nominal: float | np.ndarray, schedule: Schedule) -> np.ndarray:
        out = np.minimum(1.0, np.asarray(p_nominal, dtype=float) * schedule.max_looks)
        return np.asarray(out if out.ndim else out[()])

    def check(self, alpha: float, schedule: Schedule) -> None:
        return None


CALIBRATED = Calibrated()
BONFERRONI = Bonferroni()
