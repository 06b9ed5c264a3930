"""The Amdahl ceiling: the most a faster hot spot can do for the whole program.

Definitions (all as fractions; the CLI takes percentages):

- ``share`` s: the hot spot's share of the program's time on the baseline, 0 < s <= 1 (e.g. the
  share of CPU samples in the changed method from ``perfproof profile``).
- ``per_call_gain`` g: the hot spot's own speed-up as the micro-benchmark measured it,
  ``t_base / t_feature - 1`` (a benchmark going from 100 ns to 80 ns is g = 0.25; a JMH Δ% of
  −20% is the same thing).
- The program's new time, relative to the old, is ``T = (1 - s) + s / (1 + g)``, and the
  **ceiling** on the whole-program speed-up is ``1 / T - 1``; the matching cut in a time-like
  metric is ``1 - T``.

It is a ceiling because it assumes every bit of the hot spot's share speeds up exactly as in the
micro-benchmark and nothing else moves; real programs rarely do better. In log space the
speed-up and the time cut are the same size (``-log T``), which is how the ceiling is compared
with the end-to-end design's minimal detectable effect.
"""

from __future__ import annotations

import math

from perfproof.model.documents.e2e import AmdahlCeiling


def amdahl_ceiling(share: float, per_call_gain: float) -> AmdahlCeiling:
    """Ceiling on the whole-program speed-up from a hot spot's share and its own speed-up."""
    if not 0.0 < share <= 1.0:
        raise ValueError(f"share must be in (0, 1], got {share}")
    if per_call_gain <= -1.0:
        raise ValueError(f"per-call gain must be > -100%, got {per_call_gain}")
    new_time = (1.0 - share) + share / (1.0 + per_call_gain)
    return AmdahlCeiling(
        share=share,
        per_call_gain=per_call_gain,
        speedup=1.0 / new_time - 1.0,
        time_cut=1.0 - new_time,
    )


def ceiling_if_removed(share: float) -> float | None:
    """The ceiling when the part costs nothing any more (``per_call_gain`` → ∞), ``1/(1-s) - 1``:
    the most any change to a frame of this share can do; None when the share is the whole.
    A share of 0 gives 0, so a census can ask it of every row."""
    if share >= 1.0:
        return None
    return 1.0 / (1.0 - share) - 1.0


def amdahl_message(
    ceiling: AmdahlCeiling, mde_pct: float | None, runs_needed: int | None, runs: int
) -> str:
    """One sentence: can this end-to-end design see the ceiling, and if not, what would."""
    c = ceiling.speedup * 100.0
    head = (
        f"Amdahl ceiling: {ceiling.share * 100:.3g}% share × {ceiling.per_call_gain * 100:.3g}% "
        f"per-call speed-up → at most {c:.2f}% whole-program speed-up"
    )
    if mde_pct is None:
        return head + "; the detectable effect is unknown (too few runs to estimate variance)."
    if ceiling.speedup <= 0:
        return head + "; the change cannot make the program faster."
    if math.log1p(c / 100.0) < math.log1p(mde_pct / 100.0):
        need = (
            f"about {runs_needed} runs per side would be needed"
            if runs_needed is not None
            else "no practical number of runs would reach it"
        )
        return (
            f"{head}. Ceiling {c:.2f}% < detectable {mde_pct:.1f}% with {runs} runs per side: "
            f"inconclusive by design; {need}."
        )
    return (
        f"{head}. Ceiling {c:.2f}% ≥ detectable {mde_pct:.1f}% with {runs} runs per side: "
        "this design can see it."
    )
