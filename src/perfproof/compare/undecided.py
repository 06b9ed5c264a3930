"""No verdict from fewer than two forks a side: what a run that ended too early may say.

With one fork per side there is no fork-to-fork spread to test against: the fallback compares
iterations as if independent, and iterations of one JVM share its JIT decisions and heap
layout, so its interval is far too narrow (DESIGN.md, "Statistics"). A run that stopped
before a key had two forks a side (its ``--budget`` ended, or every other fork was left out
as not warmed up) leaves that key *undecided*, with an interval that bounds nothing, and says
how far it got; a gate (``--fail-on-regression``) must then say it could not look rather
than pass.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from perfproof.model import PRIMARY, BenchKey, Comparison, RatioBounds, Verdict
from perfproof.model.diagnostics import Kind
from perfproof.model.documents.compare_wire import ComparisonDoc

VERDICT_MIN_FORKS = 2
"""Forks per side below which no comparison gets a verdict in a run."""


def forks_a_side(c: Comparison) -> int:
    """The fewer forks of the two sides."""
    return min(c.base.forks, c.head.forks)


def undecided_note(forks: int, why: str) -> str:
    """The one sentence an undecided key carries: ``why`` the run ended, and how far it got."""
    return f"undecided: {why} after {forks} fork{'s' if forks != 1 else ''} a side"


def too_few_forks(comparisons: Sequence[Comparison], why: str) -> list[Comparison]:
    """Every comparison of an entry with fewer than :data:`VERDICT_MIN_FORKS` forks on a side (its
    primary metric's, which every metric of the entry shares) made undecided
    (``inconclusive``, unbounded interval, the note first among its warnings); the others as
    they were. ``why`` names what ended the run (``"budget ended"``)."""
    forks = _entry_forks(comparisons)
    out = []
    for c in comparisons:
        n = forks[c.key.entry()]
        if n >= VERDICT_MIN_FORKS:
            out.append(c)
            continue
        note = undecided_note(n, why)
        # the iteration fallback's note describes an interval no longer shown
        fallback = {x.text for x in c.diagnostics.notes or [] if x.kind is Kind.ONE_FORK}
        kept = [
            w
            for w in c.warnings
            if not w.startswith(("undecided:", "inconclusive:")) and w not in fallback
        ]
        left = [x for x in c.diagnostics.notes or [] if x.kind is not Kind.ONE_FORK]
        out.append(
            replace(
                c,
                verdict=Verdict.INCONCLUSIVE,
                ratio_ci=RatioBounds.unbounded(),
                delta_ci_pct=RatioBounds.unbounded().percent(),
                warnings=[note, *kept],
                diagnostics=replace(c.diagnostics, notes=left if c.diagnostics.notes else None),
            )
        )
    return out


def unlooked(comparisons: Sequence[Comparison]) -> list[Comparison]:
    """The comparisons no look could judge, for want of two forks a side (a gate names them:
    a regression there is not ruled out, as it is by an interval inside ±θ)."""
    forks = _entry_forks(comparisons)
    return [
        c
        for c in comparisons
        if forks[c.key.entry()] < VERDICT_MIN_FORKS
        and any(w.startswith("undecided:") for w in c.warnings)
    ]


def _entry_forks(comparisons: Sequence[Comparison]) -> dict[BenchKey, int]:
    """Forks a side of each entry: its primary metric's (any metric's when it has none)."""
    forks: dict[BenchKey, int] = {}
    for c in comparisons:
        if c.key.metric == PRIMARY or c.key.entry() not in forks:
            forks[c.key.entry()] = forks_a_side(c)
    return forks


def unlooked_in(comparisons: Sequence[ComparisonDoc]) -> list[str]:
    """:func:`unlooked` on the comparisons of a written results document: the labels of the
    primary comparisons no look could judge (for gates that read a run folder)."""
    out = []
    for c in comparisons:
        if c.metric not in (None, PRIMARY):
            continue
        said = any(isinstance(w, str) and w.startswith("undecided:") for w in c.warnings)
        counted = [s.forks for s in (c.base, c.head) if "forks" in s.model_fields_set]
        if said and counted and min(counted) < VERDICT_MIN_FORKS:
            at = ", ".join(f"{k}={v}" for k, v in c.params.items())
            out.append(f"{c.benchmark}({at})" if at else c.benchmark)
    return out
