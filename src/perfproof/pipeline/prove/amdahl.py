"""The Amdahl rows of ``prove``: each changed method's share of the baseline recordings and
the ceiling it sets, with a per-call speed-up taken from the verdicts themselves.

A changed method's per-call speed-up is what the keys that reach it measured: the keys whose
benchmark's call path runs through the method and whose time verdict is improved or
regressed, summarised as the geometric mean of their ratios (the rows keep each key's own).
A key the A/B left undecided says nothing about the method's speed; pooling it in, or taking
whichever key of a benchmark came last, gives a number the verdicts beside it contradict.
"""

from __future__ import annotations

from collections.abc import Sequence

from perfproof.model.changes import ADDED, ChangedMethod
from perfproof.model.documents.compare_wire import ComparisonDoc
from perfproof.model.documents.prove_measured import AmdahlRow
from perfproof.model.documents.prove_stages import ReachedBenchmark
from perfproof.stats.amdahl import amdahl_ceiling
from perfproof.stats.amdahl_gains import method_gains, reaching, summary_gain


def amdahl_row(
    m: ChangedMethod,
    cpu: float | None,
    alloc: float | None,
    reached: Sequence[ReachedBenchmark],
    comparisons: Sequence[ComparisonDoc],
) -> AmdahlRow:
    """One changed method's row: its shares, the verdicts' speed-up and the ceiling. A method
    the baseline does not have, whose name its overloads hold there, has no share: the samples
    of that name are theirs (kryo's new ``Output.writeInt(int, int)`` was given 17.9 % of the
    baseline, all of it ``writeInt(int, boolean)``)."""
    shared = m.base_overloads or 0
    added = m.kind == ADDED and shared > 0
    if added:
        cpu = alloc = None
    gains, unmoved = method_gains(m.label, reached, comparisons)
    gain = summary_gain([g.gain for g in gains])
    ceiling = amdahl_ceiling(cpu, gain) if cpu and gain is not None and gain > -1 else None
    benches = reaching(m.label, reached)
    return AmdahlRow(
        method=m.label,
        frame=m.frame,
        cpu_share=cpu,
        alloc_share=alloc,
        benchmark=benches[0] if benches else None,
        per_call_gain=gain,
        ceiling_speedup=ceiling.speedup if ceiling else None,
        gains=gains,
        unmoved=unmoved,
        overloads=shared if shared > 1 else 0,
        added=added,
    )
