"""Whether the change can explain each key's verdict: its reach, and the verdicts it cannot.

A benchmark the diff never reaches cannot be moved by it: an ``improved`` or ``regressed`` on
such a key is JIT, code-layout or machine noise that happened to pass the test, and a reviewer
who is shown it as the change's effect stops trusting the rest of the report. A change outside
the Java sources (a build file, a resource, a dependency version, a JVM flag) can move
anything, so it reaches every benchmark.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from perfproof.model.documents.prove_stages import Json, need, num, opt, strs
from perfproof.model.reach import MISSED_BY, BenchReach, Reach

MOVED = ("improved", "regressed")
"""The verdicts that claim the change moved the key."""

NOT_CODE = (".md", ".txt", ".adoc", ".rst", ".html", ".png", ".svg", ".jpg")
"""Changed files that no build reads: documentation and pictures."""

UNEXPLAINED_NOTE = "not explained by the change: likely JIT/layout noise"


@dataclass(frozen=True)
class KeyReach:
    """One measured benchmark: does the change reach it, and can it explain its verdict."""

    benchmark: str
    verdict: str
    reached: bool
    path: tuple[str, ...]
    """One shortest call path from the benchmark to a changed method; empty when unreached
    or reached through a change outside the Java sources."""
    why: str
    """How it is reached, or why not, in words a report prints."""

    @property
    def unexplained(self) -> bool:
        """A verdict that claims a change on a key the change cannot move."""
        return self.verdict in MOVED and not self.reached

    def to_json(self) -> Json:
        return {
            "benchmark": self.benchmark,
            "verdict": self.verdict,
            "reached": self.reached,
            "path": list(self.path),
            "why": self.why,
            "unexplained": self.unexplained,
        }

    @classmethod
    def from_json(cls, doc: Json) -> KeyReach:
        return cls(
            need(doc, "benchmark", str),
            need(doc, "verdict", str),
            need(doc, "reached", bool),
            strs(doc, "path"),
            str(doc.get("why") or ""),
        )


@dataclass(frozen=True)
class KeyShare:
    """One reached benchmark's baseline share in the changed methods, and its ceiling."""

    benchmark: str
    cpu_share: float | None
    alloc_share: float | None
    samples: int
    """The baseline CPU samples of this benchmark the share is taken from."""
    ceiling: float | None
    """The most the change can speed the benchmark up (removing the changed code entirely)
    at the share's upper bound; None when the samples cannot bound it."""
    gain: float | None
    """The speed-up the A/B measured (base time / feature time − 1)."""
    beyond: bool
    """An improvement far beyond the ceiling: one the change cannot explain."""

    def to_json(self) -> Json:
        return {
            "benchmark": self.benchmark,
            "cpu_share": self.cpu_share,
            "alloc_share": self.alloc_share,
            "samples": self.samples,
            "ceiling": self.ceiling,
            "gain": self.gain,
            "beyond": self.beyond,
        }

    @classmethod
    def from_json(cls, doc: Json) -> KeyShare:
        return cls(
            need(doc, "benchmark", str),
            num(doc, "cpu_share"),
            num(doc, "alloc_share"),
            opt(doc, "samples", int) or 0,
            num(doc, "ceiling"),
            num(doc, "gain"),
            bool(doc.get("beyond")),
        )


def outside_java(paths: Iterable[str]) -> tuple[str, ...]:
    """Changed files that are neither Java sources nor documentation: each can move any key."""
    return tuple(p for p in paths if not p.endswith(".java") and not p.lower().endswith(NOT_CODE))


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
        return BenchReach(bench, Reach.STATIC_PATH, "call path: " + " → ".join(path) + how, path)
    if own is not None:
        return BenchReach(bench, Reach.STATIC_PATH, f"its own source changed: {own}")
    if other_files:
        shown = ", ".join(other_files[:3]) + (" …" if len(other_files) > 3 else "")
        why = f"a change outside the Java sources reaches every benchmark: {shown}"
        return BenchReach(bench, Reach.OUTSIDE_JAVA, why)
    within = f" within {depth} calls" if depth is not None else ""
    why = f"no static call path found{within} from this benchmark to a changed method ({MISSED_BY})"
    return BenchReach(bench, Reach.NO_STATIC_PATH, why)


def reach_of_keys(
    comparisons: Iterable[Mapping[str, object]],
    paths: Mapping[str, Sequence[str]],
    other_files: Sequence[str],
    bench_files: Sequence[str] = (),
    depth: int | None = None,
) -> tuple[KeyReach, ...]:
    """Per primary comparison, its reach: ``paths`` maps each benchmark the call graph
    reaches to one call path (benchmark first); ``bench_files`` are the changed benchmark
    sources (a benchmark whose own code changed is reached by that change)."""
    out = []
    for c in comparisons:
        if c.get("metric") not in (None, "primary"):
            continue
        bench = str(c.get("benchmark"))
        verdict = str(c.get("verdict"))
        own = _own_source(bench, bench_files)
        if bench in paths:
            path = tuple(paths[bench])
            out.append(KeyReach(bench, verdict, True, path, "call path: " + " → ".join(path)))
        elif own is not None:
            out.append(KeyReach(bench, verdict, True, (), f"its own source changed: {own}"))
        elif other_files:
            shown = ", ".join(other_files[:3]) + (" …" if len(other_files) > 3 else "")
            why = f"a change outside the Java sources reaches every benchmark: {shown}"
            out.append(KeyReach(bench, verdict, True, (), why))
        else:
            within = f" within {depth} calls" if depth is not None else ""
            why = f"no call path{within} from this benchmark to a changed method"
            out.append(KeyReach(bench, verdict, False, (), why))
    return tuple(out)


def unexplained_summary(
    keys: Sequence[KeyReach], see: str, beyond: Sequence[str] = ()
) -> str | None:
    """The summary's count of verdicts the change cannot explain, counted apart: verdicts on
    keys it does not reach, and improvements far beyond the ceiling (``beyond``)."""
    parts = []
    for verdict, noun in (("regressed", "regression"), ("improved", "improvement")):
        n = sum(
            1
            for k in keys
            if k.verdict == verdict
            and (k.unexplained or (verdict == "improved" and k.benchmark in beyond))
        )
        if n:
            parts.append(f"{n} {noun}{'s' if n > 1 else ''}")
    if not parts:
        return None
    return f"{' and '.join(parts)} {UNEXPLAINED_NOTE} — see {see}"
