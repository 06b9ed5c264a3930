"""The warm-up of each benchmark's later rounds, chosen from the first round's traces.

One ``-wi`` for a whole suite is a guess: on kryo's serializers 3 × 0.5 s leaves the first one
or two measurement iterations of a fork in three at 0.7× the steady level, while most keys of
the same suite settle well within it. The first round shows, fork by fork, where each
benchmark's steady state begins (``stats.warmup.unsettled_prefixes``, the detector a look
uses): a benchmark whose forks needed up to k more iterations gets k × the measurement
iteration's time more warm-up in every later round, on both sides alike, so those forks measure
steady iterations instead of having their first ones left out. The choice is a function of the
first round's raw files, so a resumed run chooses the same; both sides get the same warm-up, so
it cannot favour one.
"""

from __future__ import annotations

import math

from perfproof.model import PRIMARY, BenchKey, Direction, Samples
from perfproof.model.documents.run_plan import JmhSettings
from perfproof.stats.warmup import unsettled_prefixes, worse_for

MAX_EXTRA_S = 10.0
"""At most this much warm-up is added per fork: a benchmark that needs more has a problem a
longer warm-up does not fix (a drift the trend check reports), and the budget pays for it."""


def chosen_warmups(
    base: dict[BenchKey, Samples], head: dict[BenchKey, Samples], settings: JmhSettings
) -> dict[str, int]:
    """Benchmark → ``-wi`` for its later rounds, for the benchmarks whose first-round forks
    (either side) started unsettled; the others keep the plan's warm-up."""
    needed: dict[str, int] = {}
    for side in (base, head):
        for key, s in side.items():
            if key.metric != PRIMARY or not s.forks:
                continue
            worse = worse_for(s.direction is Direction.HIGHER)
            k = max(unsettled_prefixes(s.forks, worse), default=0)
            if k > 0:
                needed[key.benchmark] = max(needed.get(key.benchmark, 0), k)
    out = {}
    for bench, k in needed.items():
        extra_s = min(k * settings.measurement_s, MAX_EXTRA_S)
        each = settings.warmup_s if settings.warmup_s > 0 else settings.measurement_s
        out[bench] = settings.warmup_iterations + max(math.ceil(extra_s / each - 1e-9), 1)
    return dict(sorted(out.items()))


def describe(warmups: dict[str, int], settings: JmhSettings) -> str:
    """One line for the log: which benchmarks got more warm-up, and why."""
    names = ", ".join(f"{b.rsplit('.', 1)[-1]} {n}" for b, n in list(warmups.items())[:6])
    more = f" and {len(warmups) - 6} more" if len(warmups) > 6 else ""
    return (
        f"warm-up from round 1's traces: {len(warmups)} benchmark(s) whose forks started "
        f"unsettled get more warm-up iterations of {settings.warmup_s:g}s in later rounds, "
        f"both sides alike (-wi {settings.warmup_iterations} → {names}{more})"
    )
