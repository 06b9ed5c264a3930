"""Welch's t on log fork means: the default comparison method, and the first of the protocol.

The fork (JVM invocation) is the unit of replication: iterations inside a fork share JIT
decisions, heap layout and code alignment, so they are not independent and pooling them makes
intervals too narrow. Each side is reduced to its fork means; the ratio's interval and test are
Welch's t on log fork means with Welch–Satterthwaite degrees of freedom, which stays calibrated
with 2–3 forks per side (the simulation in tests/stats shows it; a percentile bootstrap over so
few forks does not). One Welch (:func:`perfproof.stats.welch.welch_moments`) serves one key, a
batch of keys of one shape (:func:`perfproof.stats.ratio.log_ratio_rows`) and the looks of a
sequential design (:mod:`perfproof.stats.welch_look`, levels calibrated by Monte Carlo).
"""

from __future__ import annotations

import math

import numpy as np

from perfproof.model import Estimate
from perfproof.model.diagnostics import ComparisonMethod, Note
from perfproof.stats import method_notes, power
from perfproof.stats.forks import Forks, fork_means
from perfproof.stats.method import Effect
from perfproof.stats.ratio import log_ratio_rows
from perfproof.stats.sequential_levels import CALIBRATED, Levels, Schedule
from perfproof.stats.strategies import (
    iterations,
    ratio_from_logs,
    t_side_at_level,
    welch_at_level,
)
from perfproof.stats.welch import mean_interval
from perfproof.stats.welch_look import LookRows, look_rows

ADVISED_FORKS = 3
"""Forks a side below which a comparison carries the few-forks note: its interval stands on a
spread estimated from very few fork means."""


class WelchForks:
    """Fork means as the unit; Welch on log fork means (needs two forks per side)."""

    name = ComparisonMethod.FORK_LEVEL
    at_looks = ComparisonMethod.FORK_LEVEL_SEQUENTIAL
    in_family = True
    plain = False
    describes_ratio = True
    has_power = True
    summary = "Welch's t on log fork means"

    def summarize(self, forks: Forks, confidence: float) -> Estimate:
        mi = mean_interval(fork_means(forks), confidence)
        return Estimate(mi.mean, (mi.lo, mi.hi), len(forks), iterations(forks))

    def compare(self, base: Forks, head: Forks, confidence: float) -> Effect:
        return ratio_from_logs(fork_means(base), fork_means(head), confidence)

    def at_level(self, effect: Effect, nominal: float, confidence: float) -> Effect:
        return welch_at_level(effect, nominal, confidence)

    def side_at_level(self, side: Estimate, nominal: float, level: float) -> tuple[float, float]:
        return t_side_at_level(side, side.forks, nominal, level)

    def compare_rows(
        self, base: np.ndarray, head: np.ndarray, confidence: float
    ) -> list[Effect] | None:
        e = log_ratio_rows(base, head, confidence)
        columns = (a.tolist() for a in (e.ratio, e.lo, e.hi, e.p_value, e.df))
        return [Effect(*row) for row in zip(*columns, strict=True)]

    def look(
        self,
        log_base: list[np.ndarray],
        log_head: list[np.ndarray],
        groups: list[str] | None,
        schedule: Schedule,
    ) -> LookRows:
        return look_rows(log_base, log_head, groups)

    def levels(self, schedule: Schedule) -> Levels:
        return CALIBRATED

    def mde_log(self, fork_var: float, forks: int, alpha: float) -> float:
        return power.mde_log(fork_var, forks, alpha)

    def forks_needed(self, fork_var: float, threshold: float, alpha: float) -> int:
        return power.forks_needed(fork_var, threshold, alpha)

    def fork_var_for(self, mde_log: float, forks: int, alpha: float) -> float:
        unit = power.standardised_mde(forks, forks, 0.5, alpha)
        return forks / 2.0 * (mde_log / unit) ** 2 if math.isfinite(unit) else math.inf

    def notes(self, base_forks: int, head_forks: int, is_bytes: bool, alpha: float) -> list[Note]:
        out = [method_notes.bytes_vary()] if is_bytes else []
        if min(base_forks, head_forks) < ADVISED_FORKS:
            out.append(method_notes.few_forks(base_forks, head_forks, ADVISED_FORKS))
        return out

    def tag(self, fewest_forks: int) -> str | None:
        return f"{fewest_forks} forks" if fewest_forks < ADVISED_FORKS else None

    def words(self) -> str:
        return "Welch's t on log fork means"

    def interval_words(self) -> str:
        return (
            "Welch's t on the logarithms of the fork means with Welch–Satterthwaite degrees "
            "of freedom"
        )

    def look_words(self, alpha: float, schedule: Schedule) -> str:
        return (
            f"(Welch's t on log fork means) at a nominal level constant across looks "
            f"(Pocock-type; the levels the intervals were decided at are named with them), "
            f"calibrated by Monte Carlo so that the chance of any false improved/regressed over "
            f"all looks stays ≤ {alpha * 100:g}% at fork-variance ratios 1 to 3 between the "
            "sides. Each side's variance of log fork means also borrowed the spread of the other "
            "comparisons of the same metric at that look (empirical Bayes, from 4 comparisons "
            "up) where that widened it: pulled towards the fitted prior's 90th percentile, never "
            "below the comparison's own; a comparison noisier than that kept its own."
        )

    def caveat(self, count: int) -> str:
        return ""


WELCH_FORKS = WelchForks()
