"""Whether the change can explain each key's verdict: its reach, and the verdicts it cannot.

A benchmark the change never runs in cannot be moved by it, and a reviewer shown such a
verdict as the change's effect stops trusting the rest of the report. The words are only as
strong as the evidence (:mod:`perfproof.model.reach`): "not explained by the change" needs a
recording that shows the changed code never runs there; a call graph that finds no path says
only "no static call path found", and why a path can be missed. A change outside the Java
sources that a build reads (a build file, a resource, a dependency version, a JVM flag) can move
anything, so it reaches every benchmark; one no build reads (a changelog, documentation, a
results file) reaches none (:mod:`perfproof.workspace.build_inputs` tells them apart).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence

from pydantic import Field, SerializerFunctionWrapHandler, model_serializer, model_validator

from perfproof.model.documents.codec import Seq, Text, without
from perfproof.model.documents.compare_wire import ComparisonDoc
from perfproof.model.documents.prove_stages import StageDocument
from perfproof.model.documents.reach import BenchReach
from perfproof.model.reach import MISSED_BY, Reach

MOVED = ("improved", "regressed")
"""The verdicts that claim the change moved the key."""

UNEXPLAINED_NOTE = "not explained by the change"
"""Said of a verdict only where a recording shows the changed code never runs."""
NO_PATH_NOTE = "no static call path found to the change"
"""Said of a verdict where the call graph finds no path and no recording says more."""


class KeyReach(StageDocument):
    """One measured benchmark: does the change reach it, and can it explain its verdict."""

    benchmark: str
    verdict: str
    reached: bool
    path: Seq[str] = ()
    """One shortest call path from the benchmark to a changed method; empty when unreached
    or reached through a change outside the Java sources."""
    why: str = ""
    """How it is reached, or why not, in words a report prints."""
    kind: str = ""
    """The :class:`Reach` kind; empty in documents written before kinds (then a path or
    nothing)."""
    params: dict[str, Text] = Field(default_factory=dict)
    """The key's @Param values: keys of one benchmark share its reach, not its verdict."""

    @property
    def reach(self) -> Reach:
        if self.kind:
            return Reach(self.kind)
        return Reach.STATIC_PATH if self.reached else Reach.NO_STATIC_PATH

    @property
    def unexplained(self) -> bool:
        """A verdict that claims a change where a recording shows the change never runs."""
        return self.verdict in MOVED and self.reach.shown_not_to_run

    @property
    def unconfirmed(self) -> bool:
        """A verdict that claims a change where no static path leads and nothing was recorded."""
        return self.verdict in MOVED and self.reach is Reach.NO_STATIC_PATH

    @model_serializer(mode="wrap")
    def _written(self, handler: SerializerFunctionWrapHandler) -> dict[str, object]:
        """Written with whether the change can explain the verdict, for a reader of the
        JSON; this type computes it again when it reads the row (:meth:`_derived`)."""
        doc: dict[str, object] = handler(self)
        doc["unexplained"] = self.unexplained
        return doc

    @model_validator(mode="before")
    @classmethod
    def _derived(cls, value: object) -> object:
        return without(value, "unexplained")

    @classmethod
    def of(cls, r: BenchReach, verdict: str, params: Mapping[str, str] | None = None) -> KeyReach:
        return cls(benchmark=r.benchmark, verdict=verdict, reached=r.reaches, path=r.path,
                   why=r.why, kind=str(r.kind), params=dict(params or {}))  # fmt: skip


class KeyShare(StageDocument):
    """One reached benchmark's baseline share in the changed methods, and its ceiling."""

    benchmark: str
    cpu_share: float | None = None
    alloc_share: float | None = None
    samples: int = 0
    """The baseline CPU samples of this benchmark the share is taken from."""
    ceiling: float | None = None
    """The most the change can speed the benchmark up (removing the changed code entirely)
    at the share's upper bound; None when the samples cannot bound it."""
    gain: float | None = None
    """The speed-up the A/B measured (base time / feature time − 1)."""
    beyond: bool = False
    """An improvement far beyond the ceiling: one the change cannot explain."""


def _own_source(bench: str, bench_files: Sequence[str]) -> str | None:
    """The changed benchmark source that declares the benchmark's class, if any."""
    cls = bench.rsplit(".", 1)[0].split("$")[0]
    tail = cls.replace(".", "/") + ".java"
    simple = "/" + cls.rsplit(".", 1)[-1] + ".java"
    return next((f for f in bench_files if f.endswith(tail) or f.endswith(simple)), None)


def bench_reach(
    bench: str,
    paths: Mapping[str, Sequence[str]],
    other_files: Sequence[str],
    bench_files: Sequence[str] = (),
    depth: int | None = None,
    dispatch: Mapping[str, str] | None = None,
) -> BenchReach:
    """One benchmark's static reach: ``paths`` maps each benchmark the call graph reaches to
    one call path (benchmark first); ``bench_files`` are the changed benchmark sources (a
    benchmark whose own code changed is reached by that change); ``dispatch`` names, for a
    benchmark reached only through dynamic dispatch, the call the search went through."""
    own = _own_source(bench, bench_files)
    if bench in paths:
        path = tuple(paths[bench])
        through = (dispatch or {}).get(bench)
        how = f" (through dynamic dispatch: {through})" if through else ""
        return BenchReach(
            benchmark=bench,
            kind=Reach.STATIC_PATH,
            why="call path: " + " → ".join(path) + how,
            path=path,
        )
    if own is not None:
        return BenchReach(
            benchmark=bench, kind=Reach.STATIC_PATH, why=f"its own source changed: {own}"
        )
    if other_files:
        shown = ", ".join(other_files[:3]) + (" …" if len(other_files) > 3 else "")
        read = "a change outside the Java sources, read by the build,"
        why = f"{read} reaches every benchmark: {shown}"
        return BenchReach(benchmark=bench, kind=Reach.OUTSIDE_JAVA, why=why)
    within = f" within {depth} calls" if depth is not None else ""
    why = f"no static call path found{within} from this benchmark to a changed method ({MISSED_BY})"
    return BenchReach(benchmark=bench, kind=Reach.NO_STATIC_PATH, why=why)


def reach_of_keys(
    comparisons: Iterable[ComparisonDoc],
    paths: Mapping[str, Sequence[str]],
    other_files: Sequence[str],
    bench_files: Sequence[str] = (),
    depth: int | None = None,
) -> tuple[KeyReach, ...]:
    """Per primary comparison, its reach: ``paths`` maps each benchmark the call graph
    reaches to one call path (benchmark first); ``bench_files`` are the changed benchmark
    sources (a benchmark whose own code changed is reached by that change)."""
    return tuple(
        KeyReach.of(bench_reach(c.benchmark, paths, other_files, bench_files, depth),
                    str(c.verdict), c.params)
        for c in comparisons
        if c.metric in (None, "primary")
    )  # fmt: skip


def unexplained_summary(
    keys: Sequence[KeyReach], see: str, beyond: Sequence[str] = ()
) -> str | None:
    """The summary's counts of verdicts the change cannot explain, apart from the rest:
    verdicts on keys a recording shows the change never runs in, improvements far beyond the
    ceiling (``beyond``), and, in words of their own, verdicts no static path leads to."""
    shown = _count(
        keys, lambda k: k.unexplained or (k.verdict == "improved" and k.benchmark in beyond)
    )
    unconfirmed = _count(keys, lambda k: k.unconfirmed)
    parts = []
    if shown:
        parts.append(f"{shown} {UNEXPLAINED_NOTE}")
    if unconfirmed:
        parts.append(f"{unconfirmed} with {NO_PATH_NOTE}, not confirmed by a recording")
    return f"{'; '.join(parts)} — see {see}" if parts else None


def _count(keys: Sequence[KeyReach], which: Callable[[KeyReach], bool]) -> str | None:
    """ "2 regressions and 1 improvement" among the keys ``which`` selects."""
    parts = []
    for verdict, noun in (("regressed", "regression"), ("improved", "improvement")):
        n = sum(1 for k in keys if k.verdict == verdict and which(k))
        if n:
            parts.append(f"{n} {noun}{'s' if n > 1 else ''}")
    return " and ".join(parts) or None
