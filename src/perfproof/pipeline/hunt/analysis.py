"""Recordings and the source index in, ranked hypotheses out: the part of ``hunt`` that does
not care where the recordings came from (JMH forks, a command, files the user had)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from perfproof.code.callers import SiteIndex
from perfproof.code.project import Project
from perfproof.code.reach import BenchmarkReach
from perfproof.model import benchmark_of_label
from perfproof.model.documents.hunt import (
    UNNAMED_GROUPS,
    CalleeShare,
    Change,
    ClassShare,
    GroupCost,
    Hypothesis,
    InclusiveShare,
    Measure,
    hypothesis_id,
)
from perfproof.pipeline.hunt.inclusive import Ranked, ranked
from perfproof.pipeline.hunt.rank import RecordedGroup, central_gain
from perfproof.pipeline.hunt.source import (
    Declared,
    SourceMap,
    call_lines,
    callers_of,
    pattern_of,
    prove_line,
    reaching,
)
from perfproof.profile.attribute import Attributed

ENRICHED = 15
"""Hypotheses that get callers and the call-graph walk to benchmarks (each walk reads the
whole index; the rest keep their costs, file and line)."""


@dataclass(frozen=True)
class ProveContext:
    """What the ready ``prove`` line needs: the repository, the base and the build flags."""

    repo: str
    base: str
    extra: tuple[str, ...] = ()


@dataclass
class Analysis:
    hypotheses: list[Hypothesis]
    warnings: list[str] = field(default_factory=list)


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%" if x < 0.1 else f"{100 * x:.0f}%"


def _merged(
    forks: Sequence[Attributed], frame: str
) -> tuple[dict[str, int], dict[str, int], dict[str, int], dict[tuple[str, ...], int]]:
    classes: dict[str, int] = {}
    via_cpu: dict[str, int] = {}
    via_alloc: dict[str, int] = {}
    paths: dict[tuple[str, ...], int] = {}
    for a in forks:
        s = a.sites.get(frame)
        if s is None:
            continue
        for src, dst in ((s.classes, classes), (s.via_cpu, via_cpu), (s.via_alloc, via_alloc)):
            for k, v in src.items():
                dst[k] = dst.get(k, 0) + v
        for p, v in s.paths.items():
            paths[p] = paths.get(p, 0) + v
    return classes, via_cpu, via_alloc, paths


def _top(weights: dict[str, int], n: int = 3) -> list[str]:
    return [k for k, _ in sorted(weights.items(), key=lambda kv: (-kv[1], kv[0]))[:n]]


def _short(frame: str) -> str:
    parts = frame.split(".")
    return ".".join(parts[-2:]) if len(parts) >= 2 else frame


def fact(
    d: Declared, costs: list[GroupCost], classes: dict[str, int], via: list[str]
) -> tuple[str, list[tuple[int, str]]]:
    """One sentence of what the method costs and where, in absolute units where known."""
    best = max(costs, key=lambda c: (c.ceiling_discounted or 0.0, c.group))
    parts: list[str] = []
    if best.cpu_share is not None and best.cpu_share.mean > 0:
        ns = f", ≈{best.ns_per_op.mean:,.0f} ns/op" if best.ns_per_op else ""
        parts.append(f"{_pct(best.cpu_share.mean)} of the CPU samples{ns}")
    if best.alloc_share is not None and best.alloc_share.mean > 0:
        if best.bytes_per_op is not None:
            amount = f"{best.bytes_per_op.mean:,.0f} B/op"
        elif best.bytes_per_s is not None:
            amount = f"{best.bytes_per_s.mean / 2**20:,.1f} MiB/s"
        else:
            amount = f"{_pct(best.alloc_share.mean)} of the bytes"
        top = ", ".join(c for c in _top(classes, 2))
        parts.append(f"allocates {amount}" + (f" ({top})" if top else ""))
    lines = call_lines(d, via)
    where = Path(d.method.file).name
    calls = [v for v in via if v != d.method.frame]
    text = " and ".join(parts) or "costs"
    if calls:
        text += " in " + ", ".join(_short(v) for v in calls)
    if lines:
        text += f" at {where}:" + ", ".join(str(n) for n in sorted({n for n, _ in lines}))
    else:
        text += f" in {where}:{d.method.line}-{d.method.end_line}"
    group = "" if best.group in UNNAMED_GROUPS else f" of {_short(best.group)}"
    return f"{text}{group}", lines


def inclusive_fact(d: Declared, costs: list[GroupCost], split: InclusiveShare | None) -> str:
    """One sentence for a method ranked by inclusive cost: what it holds with all it calls,
    its own part, and the callees that hold the rest."""
    best = max(costs, key=lambda c: (c.ceiling_discounted or 0.0, c.group))
    held = best.cpu_share.mean if best.cpu_share is not None else 0.0
    ns = f", ≈{best.ns_per_op.mean:,.0f} ns/op" if best.ns_per_op else ""
    text = f"{_pct(held)} of the CPU samples with what it calls{ns}"
    if split is not None:
        mine = split.self_share.mean if split.self_share is not None else 0.0
        below = ", ".join(f"{_short(c.method)} {_pct(c.share)}" for c in split.callees)
        text += f" (itself {_pct(mine)}; below it: {below})"
    where = Path(d.method.file).name
    group = "" if best.group in UNNAMED_GROUPS else f" of {_short(best.group)}"
    return f"{text} in {where}:{d.method.line}-{d.method.end_line}{group}"


def _named(row: Ranked, sources: SourceMap) -> tuple[InclusiveShare, ...]:
    """The row's callees by the names a reader knows (``Class.method``)."""

    def label(frame: str) -> str:
        found = sources.by_frame.get(frame)
        return found.method.label if found else frame

    return tuple(
        InclusiveShare(
            s.group, s.self_share, tuple(CalleeShare(label(c.method), c.share) for c in s.callees)
        )
        for s in row.inclusive
    )


def analyse(
    groups: list[RecordedGroup],
    sources: SourceMap,
    root: Path,
    prove: ProveContext | None,
) -> Analysis:
    """Every project method worth a line, ranked; the first :data:`ENRICHED` with callers,
    pattern, the benchmarks that reach them and a ``prove`` line."""
    project: Project = sources.project
    rows = ranked(groups)
    reach: BenchmarkReach | None = None
    out: list[Hypothesis] = []
    measured_in: set[str] = set()
    for rank, row in enumerate(rows, 1):
        frame, costs, gain = row.frame, row.costs, row.gain
        d = sources.by_frame[frame]
        inclusive = _named(row, sources)
        forks = [a for g in groups for a in g.forks]
        classes, via_cpu, via_alloc, paths = _merged(forks, frame)
        heaviest = max(paths.items(), key=lambda kv: (kv[1], kv[0]), default=((), 0))[0]
        path = tuple(sources.by_frame[f].method.label for f in heaviest if f in sources.by_frame)
        via = list(dict.fromkeys(_top(via_cpu) + _top(via_alloc)))
        sentence, _lines = fact(d, costs, classes, via)
        if row.ranked_by == "inclusive":
            best = max(costs, key=lambda c: (c.ceiling_discounted or 0.0, c.group))
            split = next((i for i in inclusive if i.group == best.group), None)
            sentence = inclusive_fact(d, costs, split)
        under = sources.by_frame[row.under].method.label if row.under else None
        total = sum(classes.values())
        shares = tuple(ClassShare(c, classes[c] / total) for c in _top(classes, 5)) if total else ()
        callers = pattern = None
        benchmarks: list[str] = []
        line = None
        if rank <= ENRICHED:
            if reach is None:
                # one index of call sites and one call graph serve every enriched row
                reach = BenchmarkReach(project, root, sites=SiteIndex(project, eager=True))
            callers = callers_of(project, reach.graph.sites, d)
            pattern = pattern_of(d)
            benchmarks = reaching(reach, d)
            named = [c.group for c in costs if c.group not in UNNAMED_GROUPS]
            measured_in.update(named)
            # a group is a key (with its @Param values and mode); JMH selects benchmarks
            measured = list(dict.fromkeys(benchmark_of_label(g) for g in named))
            chosen = [b for b in measured if b in benchmarks] or measured or benchmarks
            if prove is not None and chosen:
                line = prove_line(prove.repo, prove.base, chosen, prove.extra)
        out.append(
            Hypothesis(
                id=hypothesis_id(frame),
                rank=rank,
                method=d.method.label,
                frame=frame,
                file=d.method.file,
                line=d.method.line,
                end_line=d.method.end_line,
                expected_gain=gain,
                costs=tuple(costs),
                fact=sentence,
                classes=shares,
                via=tuple(v for v in via if v != frame),
                pattern=pattern,
                callers=callers,
                path=path,
                benchmarks=tuple(benchmarks),
                prove=line,
                ranked_by=row.ranked_by,
                inclusive=inclusive,
                under=under,
            )
        )
    return Analysis(out)


GONE_FACTOR = 10.0
"""A hypothesis whose measure fell tenfold has ``fell``: the cost it named was removed, though
the method is still there and still does (much less) work. ``gone`` is kept for a hypothesis
the new hunt no longer lists, so a reader never sees ``gone`` beside a method still ranked."""


def _measures(h: Hypothesis) -> dict[Measure, float]:
    out: dict[Measure, float] = {"ceiling": central_gain(list(h.costs))}
    times = [c.ns_per_op.mean for c in h.costs if c.ns_per_op is not None]
    if times:
        out["ns/op"] = max(times)
    return out


def compare_hunts(old: list[Hypothesis], new: list[Hypothesis]) -> list[Change]:
    """Which hypotheses a change removed, which it created, which moved.

    Compared on time per operation when both hunts measured it (JMH), else on the ceiling of
    the mean share (:func:`central_gain`); never on the discounted ceiling that ranks, so a
    cost that only became noisier between forks has not gone. Gone: absent now. Fell: still
    listed, its measure down by :data:`GONE_FACTOR` or more.
    Changed: it moved by more than a third (or its
    rank by more than two places); smaller moves are the noise of another set of forks."""
    before = {h.id: h for h in old}
    after = {h.id: h for h in new}
    out: list[Change] = []
    for h in new:
        now = _measures(h)
        o = before.get(h.id)
        if o is None:
            unit: Measure = "ns/op" if "ns/op" in now else "ceiling"
            out.append(Change(h.id, h.method, "new", None, now[unit], unit))
            continue
        was = _measures(o)
        unit = "ns/op" if "ns/op" in now and "ns/op" in was else "ceiling"
        a, b = was[unit], now[unit]
        status: Literal["fell", "changed", "same"]
        if b * GONE_FACTOR <= a:
            status = "fell"
        elif abs(b - a) > max(a, b) / 3 or abs(h.rank - o.rank) > 2:
            status = "changed"
        else:
            status = "same"
        out.append(Change(h.id, h.method, status, a, b, unit))
    for o in old:
        if o.id not in after:
            was = _measures(o)
            unit = "ns/op" if "ns/op" in was else "ceiling"
            out.append(Change(o.id, o.method, "gone", was[unit], None, unit))
    return out
