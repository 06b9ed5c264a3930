"""What a comparison method is: the one protocol every way of comparing two sides implements.

A method answers every question the layers above ask about a key's two sides, so that
``compare/``, ``render/`` and ``report/`` ask it and never test which method it is:

- the **test** and the **interval** of the ratio head/base at a level (:meth:`Method.compare`),
  the same interval at another level (:meth:`Method.at_level`, what a family procedure needs),
  and one side's estimate (:meth:`Method.summarize`);
- the **batch path** (:meth:`Method.compare_rows`): many keys of one shape at once, or None
  when the method has none;
- the **sequential look** (:meth:`Method.look`): the statistics of every key of a look as a
  :class:`LookStats`, whose repeated interval, detectable effect and calibrated per-look levels
  (:class:`Levels`) the design reads;
- **power** (:meth:`Method.mde_log`, :meth:`Method.forks_needed`): what a design of so many forks
  detects, and how many forks a change of θ needs;
- the **notes** a comparison carries because of the method (:meth:`Method.notes`) and its tag
  in a table (:meth:`Method.tag`);
- the **words** of the methodology: how the ratio's interval was computed at a fixed design and
  at the looks, and a caveat the report adds when a comparison used it.

A new method is one module implementing this protocol plus its line in
:mod:`perfproof.stats.methods` (and its member of
:class:`~perfproof.model.diagnostics.ComparisonMethod`, the names comparisons record).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Protocol

import numpy as np

from perfproof.model import Estimate, RatioBounds
from perfproof.model.diagnostics import ComparisonMethod, Note
from perfproof.stats.forks import Forks
from perfproof.stats.sequential_levels import Levels, Schedule


@dataclass(frozen=True)
class Support:
    """An interval's candidate ends, sorted (a rank method's pairwise differences, on the scale
    of the interval), and the sizes of the two sides whose null law picks them: enough to give
    the interval again at any level without the forks."""

    values: np.ndarray
    sizes: tuple[int, int]
    unbounded: tuple[float, float] = (-math.inf, math.inf)
    """The interval where no level can be reached (on a ratio's scale: 0…∞)."""

    def interval(self, trim: int) -> tuple[float, float]:
        """The interval leaving out ``trim`` values at each end (0: unbounded)."""
        if trim <= 0:
            return self.unbounded
        return float(self.values[trim - 1]), float(self.values[self.values.size - trim])


@dataclass(frozen=True)
class Effect:
    """Ratio head/base with its interval and two-sided p-value (unadjusted).

    ``support`` is what a method needs to give the interval again at another level without
    the forks (a rank method's sorted pairwise differences; None for Welch, whose degrees of
    freedom suffice).
    """

    ratio: float
    lo: float
    hi: float
    p_value: float
    df: float
    support: Support | None = field(default=None, compare=False, repr=False)

    @property
    def bounds(self) -> RatioBounds:
        """The interval as the type every later layer carries."""
        return RatioBounds(self.lo, self.hi)


class LookStats(Protocol):
    """One look's statistics of many keys (any shape; 1-D for a run's keys): the log ratio
    estimate, the nominal p-value, whether each key was tested, and the se and degrees of
    freedom that the futility rule's predictive power and the notes read."""

    @property
    def diff(self) -> np.ndarray: ...

    @property
    def se(self) -> np.ndarray: ...

    @property
    def df(self) -> np.ndarray: ...

    @property
    def p_value(self) -> np.ndarray: ...

    @property
    def tested(self) -> np.ndarray: ...

    @property
    def borrowed(self) -> np.ndarray | None: ...

    @property
    def levels(self) -> Levels:
        """The per-look levels this look's p-values are calibrated for."""
        ...

    def interval(self, level: float | np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The repeated interval of the log ratio at nominal two-sided ``level`` (per key or
        one for all); unbounded where a key was not tested."""
        ...

    def detectable(self, per_look: np.ndarray, power: float = 0.8) -> np.ndarray:
        """The smallest true |log ratio| this look's interval at ``per_look`` would exclude 0
        for with probability ``power`` (infinite where a key was not tested)."""
        ...

    def padded(self, count: int) -> LookStats:
        """The same look with ``count`` untested keys appended (the frozen ones of a family)."""
        ...


class Method(Protocol):
    """One way to compare a key's two sides; see the module docstring."""

    name: ComparisonMethod
    """What a comparison of a fixed design records."""
    at_looks: ComparisonMethod
    """What a comparison judged at the looks of a sequential design records."""
    in_family: bool
    """Whether its p-values go through the family procedure (an exact rule's do not)."""
    plain: bool
    """Whether values are compared as they are: a side is its value, the change a difference
    in the metric's unit, no interval (the exact bytes/op rule)."""
    describes_ratio: bool
    """Whether its words are those of the ratio's interval in a methodology (the fork-level
    methods); the exact rule and the one-fork fallback have sentences of their own."""
    has_power: bool
    """Whether a power analysis of its design means anything (the minimal detectable effect,
    the forks that resolve θ)."""
    summary: str
    """What it computes and when it holds, in a phrase: ``compare --method`` lists a
    fork-level method by its name and this."""

    def summarize(self, forks: Forks, confidence: float) -> Estimate: ...

    def side_at_level(self, side: Estimate, nominal: float, level: float) -> tuple[float, float]:
        """A side's interval (:meth:`summarize`'s, at ``nominal``) at ``level`` instead: a report
        shows a side at the level its row was decided at."""
        ...

    def compare(self, base: Forks, head: Forks, confidence: float) -> Effect: ...

    def at_level(self, effect: Effect, nominal: float, confidence: float) -> Effect:
        """``effect`` (computed at ``nominal``) with its interval at ``confidence``."""
        ...

    def compare_rows(
        self, base: np.ndarray, head: np.ndarray, confidence: float
    ) -> list[Effect] | None:
        """The effects of many keys from their positive fork means, (keys × forks) per side,
        as whole-array operations; None when the method has no batch path."""
        ...

    def look(
        self,
        log_base: list[np.ndarray],
        log_head: list[np.ndarray],
        groups: list[str] | None,
        schedule: Schedule,
    ) -> LookStats:
        """Every key's look statistics from its sides' log fork means (``groups``: a label per
        key, e.g. the metric, for what a method borrows across keys)."""
        ...

    def levels(self, schedule: Schedule) -> Levels:
        """The per-look levels of a sequential design on ``schedule``."""
        ...

    def mde_log(self, fork_var: float, forks: int, alpha: float) -> float:
        """The smallest |log ratio| detected at 80% power with ``forks`` a side whose log fork
        means vary by ``fork_var`` (infinite when no such design can decide)."""
        ...

    def forks_needed(self, fork_var: float, threshold: float, alpha: float) -> int:
        """Forks a side to detect a change of ``threshold`` at 80% power."""
        ...

    def fork_var_for(self, mde_log: float, forks: int, alpha: float) -> float:
        """The fork variance that gives ``forks`` a side the detectable effect ``mde_log``
        (the inverse of :meth:`mde_log`)."""
        ...

    def notes(self, base_forks: int, head_forks: int, is_bytes: bool, alpha: float) -> list[Note]:
        """The notes a comparison by this method at level 1 − ``alpha`` carries because of the
        method."""
        ...

    def tag(self, fewest_forks: int) -> str | None:
        """The short tag of a table row compared this way (None: no tag)."""
        ...

    def words(self) -> str:
        """How the ratio's interval is computed, in a clause ("Welch's t on log fork means")."""
        ...

    def interval_words(self) -> str:
        """The same, as a methodology states it in full."""
        ...

    def look_words(self, alpha: float, schedule: Schedule) -> str:
        """What a look did, from the interval's test to its calibration."""
        ...

    def caveat(self, count: int) -> str:
        """A report's sentence about the ``count`` comparisons this method made ("" for none)."""
        ...
