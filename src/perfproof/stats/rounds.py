"""Readings of a run by round: each round's ratio, the rounds as pairs, drift of the machine.

Forks are run in rounds (one fork a side each, ABBA), so both sides of one round ran on the
same machine within minutes of each other. Three questions follow from that layout, each
answered here on plain numbers (the callers read the forks):

- **Each round's ratio** (:func:`round_ratios`): the feature/baseline ratio of the geometric
  means of the fork means measured in that round. A reader sees at once whether the change
  won in every round or only on average.
- **The rounds as pairs** (:func:`paired_rounds`): Student's t on the rounds' log ratios, one
  value per round (n − 1 degrees of freedom). A drift that moves both sides of a round alike
  cancels in the round's ratio, so when the machine drifts between rounds this interval can be
  far narrower than Welch's on all fork means pooled. It is exact for normal log ratios and
  is the one-sample interval the repeated e2e runs use (``mean_interval``); it decides nothing
  by itself here, and a caller that decides with it at a sequential look must use that look's
  level.
- **Drift of the machine** (:func:`machine_drift`): whether rounds differ in level across
  keys, both sides together. Each key's level in a round is the mean log of both sides' fork
  means there (the change cancels: every round has both sides), centred on the key's own mean;
  the test statistic is the between-round sum of squares of those centred levels, and its null
  distribution comes from permuting each key's rounds among themselves (exact under the null
  that a key's rounds are exchangeable, whatever the keys' spreads; keys that left early count
  for the rounds they ran). The shift of a round is the median over keys of its level minus
  the key's level in round 1.
- **Groups that are rounds** (:func:`groups_are_rounds`): two groups of fork means found blind
  to the rounds are drift, not two code shapes, when every round's forks fall in one group.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from perfproof.stats.welch import mean_interval

DRIFT_PERMUTATIONS = 1999
"""Permutations of the drift test: its p-value is resolved to 1/2000, enough for α = 1%."""


@dataclass(frozen=True)
class RoundRatio:
    """One round's feature/baseline ratio of geometric means of fork means."""

    round: int
    ratio: float
    base_forks: int
    head_forks: int


def _log_mean(values: Sequence[float]) -> float | None:
    positive = [v for v in values if v > 0 and math.isfinite(v)]
    if not positive:
        return None
    return float(np.mean(np.log(positive)))


def round_ratios(
    base: Mapping[int, Sequence[float]], head: Mapping[int, Sequence[float]]
) -> list[RoundRatio]:
    """The ratio of each round both sides measured, in round order (fork means by round)."""
    out = []
    for r in sorted(set(base) & set(head)):
        lb, lh = _log_mean(base[r]), _log_mean(head[r])
        if lb is None or lh is None:
            continue
        out.append(RoundRatio(r, math.exp(lh - lb), len(base[r]), len(head[r])))
    return out


@dataclass(frozen=True)
class PairedRounds:
    """The rounds' ratios read as pairs: their geometric mean with a t interval."""

    ratio: float
    lo: float
    hi: float
    rounds: int
    confidence: float
    lean: int
    """+1 when every round's ratio is above 1, −1 when every one is below, 0 otherwise."""


def paired_rounds(ratios: Sequence[float], confidence: float) -> PairedRounds | None:
    """Student's t on the log ratios of the rounds; None with fewer than two rounds."""
    logs = np.log(np.asarray([r for r in ratios if r > 0 and math.isfinite(r)], dtype=float))
    if logs.size < 2:
        return None
    mi = mean_interval(logs, confidence)
    lean = 1 if bool(np.all(logs > 0)) else (-1 if bool(np.all(logs < 0)) else 0)
    return PairedRounds(
        math.exp(mi.mean), math.exp(mi.lo), math.exp(mi.hi), int(logs.size), confidence, lean
    )


def lean_of(ratios: Sequence[float]) -> int:
    """+1 when every ratio is above 1, −1 when every one is below, 0 otherwise (or none)."""
    if not ratios:
        return 0
    if all(r > 1.0 for r in ratios):
        return 1
    if all(r < 1.0 for r in ratios):
        return -1
    return 0


def round_level(base: Sequence[float], head: Sequence[float]) -> float | None:
    """A key's level in one round: the mean of both sides' mean log fork means (the change
    cancels between rounds, since each round has both sides)."""
    lb, lh = _log_mean(base), _log_mean(head)
    if lb is None or lh is None:
        return None
    return (lb + lh) / 2.0


@dataclass(frozen=True)
class Drift:
    """Rounds that differ in level across keys, the machine's and not one key's."""

    shifts: dict[int, float]
    """Round → the median over keys of its level relative to round 1, as a factor − 1
    (+0.17: 17% higher than round 1; oriented by the caller)."""
    p_value: float
    keys: int
    found: bool


def machine_drift(
    levels: Sequence[Mapping[int, float]],
    alpha: float,
    threshold: float,
    permutations: int = DRIFT_PERMUTATIONS,
) -> Drift | None:
    """The within-key permutation test of round levels (see the module's doc); ``found`` when
    its p-value is at most ``alpha`` and some round moved beyond ``threshold`` (a fraction).
    None when fewer than two keys ran two rounds or more."""
    rows = [
        (np.array(sorted(lv)), np.array([lv[r] for r in sorted(lv)], dtype=float))
        for lv in levels
        if len(lv) >= 2
    ]
    if len(rows) < 2:
        return None
    rounds = sorted({int(r) for idx, _ in rows for r in idx})
    pos = {r: i for i, r in enumerate(rounds)}
    centred = [(np.array([pos[int(r)] for r in idx]), v - v.mean()) for idx, v in rows]
    observed = _between(centred, len(rounds))
    seed = int.from_bytes(np.concatenate([v for _, v in centred]).round(12).tobytes()[:8], "little")
    rng = np.random.default_rng(seed % (2**63))
    sums = np.zeros((permutations, len(rounds)))
    counts = np.zeros(len(rounds))
    for idx, v in centred:
        order = rng.random((permutations, v.size)).argsort(axis=1)
        drawn = v[order]
        np.add.at(sums.T, idx, drawn.T)
        counts[idx] += 1
    null = (sums**2 / np.maximum(counts, 1)).sum(axis=1)
    p = float((1 + np.count_nonzero(null >= observed - 1e-12)) / (permutations + 1))
    shifts: dict[int, float] = {}
    first = rounds[0]
    for r in rounds[1:]:
        d = [v[list(idx).index(r)] - v[list(idx).index(first)] for idx, v in rows
             if r in idx and first in idx]  # fmt: skip
        if d:
            shifts[r] = math.expm1(float(np.median(d)))
    found = p <= alpha and any(abs(s) > threshold for s in shifts.values())
    return Drift(shifts, p, len(rows), found)


def _between(centred: Sequence[tuple[np.ndarray, np.ndarray]], n_rounds: int) -> float:
    sums = np.zeros(n_rounds)
    counts = np.zeros(n_rounds)
    for idx, v in centred:
        np.add.at(sums, idx, v)
        np.add.at(counts, idx, 1)
    return float((sums**2 / np.maximum(counts, 1)).sum())


def groups_are_rounds(in_low: Sequence[bool], rounds: Sequence[int]) -> bool:
    """Whether two groups of forks are the rounds: both groups occur, and every round's forks
    all fall in one of them (so the split is when the forks ran, not how the JIT compiled)."""
    if len(in_low) != len(rounds) or len(set(in_low)) < 2:
        return False
    by_round: dict[int, set[bool]] = {}
    for low, r in zip(in_low, rounds, strict=True):
        by_round.setdefault(r, set()).add(bool(low))
    return len(by_round) >= 2 and all(len(g) == 1 for g in by_round.values())
