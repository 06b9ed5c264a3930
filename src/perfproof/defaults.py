"""perfproof's own value of every setting a user may leave out, each defined once.

The flags of every verb, their ``--help`` texts, the pinned-settings loader (``perfproof.toml``,
``[tool.perfproof]``), the statistics' keyword defaults and the readers of run folders written
before a setting existed all take their value from here, so two verbs can never judge one
result at two levels, and a default changes in one line.
"""

from __future__ import annotations

CONFIDENCE = 0.99
"""The confidence level 1 − α of every interval and verdict."""

THRESHOLD = 0.01
"""The practical threshold θ: a change smaller than 1% is ``negligible``."""

FAMILY = "bh"
"""The family procedure across one report's comparisons: Benjamini–Hochberg with
false-coverage-adjusted intervals (Holm starved real suites at three forks a side)."""

CHANGE_THRESHOLD = 0.02
"""``history changes``: the least step between two segments of a series that counts as a change
point (history mixes runs of many days, so its noise floor is wider than one A/B's)."""

MAX_ROUNDS = 10
"""At most ten looks: ten forks a side see a 5% change at a fork-to-fork spread of 3-6%."""

FUTILITY = 0.05
"""``ab``'s futility bar γ: an entry stops undecided only on evidence that its change is small,
its interval inside the equivalence margin, or inside ±50% with a predictive chance of a
verdict by the last look below 5% (``stats.futility``). Unchanged keys are most of a real suite
and would otherwise all run to ``--max-rounds``; the stop adds no false verdict (it only ever
stops *without* one), and it no longer drops real 1.3–2× effects whose three forks are noisy
(the estimate of a few forks is never taken as the truth). ``--futility 0`` runs every
undecided key to the maximum."""

JMH_ARGS = ("-f", "1", "-wi", "3", "-w", "500ms", "-i", "4", "-r", "500ms")
"""Per step: one fork, 3 × 0.5 s warm-up, 4 × 0.5 s measurement (about 4 s with the JVM start).

The fork is the unit of replication and fork-to-fork spread dominates on real JVMs, so more,
shorter forks buy more evidence per minute than fewer long ones: on this kind of 2-core
machine a 4 s fork needed about a third less machine time per side than the former 9 s fork
(3 × 1 s + 5 × 1 s) to see a 5% change (``benchmarks/fork_length.py``, BENCHMARKS.md). Forks
are spread over rounds rather than run back to back (one per side per round), which keeps slow
drift of the machine balanced between the sides and lets the sequential design stop a key as
soon as its verdict is in. Four measurement iterations leave the warm-up check a trace to judge.
"""

HUNT_FORKS = 3
"""``hunt``: recorded forks per benchmark (an interval across forks needs two or more)."""

DEPTH = 6
"""Call levels walked up from a changed method: benchmark → setup-free helper → API →
internal → changed method is typical; deeper chains mostly reach everything."""

LOCK_TIMEOUT_S = 900.0
"""Seconds to wait for another JMH holding its lock before giving up."""

GUARD_MIN_RATIO = 1.5
"""``guard``: the smallest oriented baseline/feature ratio that counts as guarding the change."""
