"""What the measuring stages of ``prove`` found, typed: guard, the A/B, the profile diff with
Amdahl, the tests on both commits, end to end, and the report's own files.

As in :mod:`perfproof.model.documents.prove_stages`, ``to_json`` writes the ``perfproof.prove/1``
shape unchanged and another verb's document is kept whole beside the fields ``prove`` reads.
"""

from __future__ import annotations

from dataclasses import dataclass

from perfproof.model.changes import TestChange
from perfproof.model.documents.prove_reach import KeyReach, KeyShare
from perfproof.model.documents.prove_stages import (
    DispatchSkip,
    Json,
    need,
    num,
    objs,
    opt,
    strs,
)


@dataclass(frozen=True)
class GuardLine:
    """One row of the guard's verdict as the report shows it."""

    benchmark: str
    params: tuple[tuple[str, str], ...]
    passed: bool
    reason: str


@dataclass(frozen=True)
class GuardStageResult:
    """Stage 4: the guard of the feature's new or changed benchmarks (``perfproof.guard/1``)."""

    run_dir: str
    verdict: str
    min_ratio: float | None
    kind: str
    rows: tuple[GuardLine, ...]
    document: Json

    def to_json(self) -> Json:
        return {"run_dir": self.run_dir, "document": self.document}

    @classmethod
    def from_json(cls, doc: Json) -> GuardStageResult:
        guard = need(doc, "document", dict)
        rows = tuple(
            GuardLine(
                need(r, "benchmark", str),
                tuple((str(k), str(v)) for k, v in (opt(r, "params", dict) or {}).items()),
                bool(r.get("passed")),
                str(r.get("reason") or ""),
            )
            for r in objs(guard, "rows")
        )
        return cls(
            need(doc, "run_dir", str),
            str(guard.get("verdict")),
            num(guard, "min_ratio"),
            str(guard.get("kind")),
            rows,
            guard,
        )


def _benchmark(label: str) -> str:
    """The benchmark of a key's label (``fx.Codes.sum(n=16)`` → ``fx.Codes.sum``)."""
    return label.split("(", 1)[0].split(" ", 1)[0]


@dataclass(frozen=True)
class AbStageResult:
    """Stage 5a: the A/B run folder inside the bundle and what the later stages need of it."""

    run_dir: str
    report: str
    jfr_dir: str | None
    comparisons: tuple[Json, ...]
    """The comparisons of the run's ``results.json`` (``perfproof.compare``), as written."""
    regressed: tuple[str, ...]
    command: tuple[str, ...]
    reach: tuple[KeyReach, ...] = ()
    """Per measured benchmark, whether the change reaches it and can explain its verdict."""
    left_out: tuple[DispatchSkip, ...] = ()
    """``--reach profile``: benchmarks dynamic dispatch alone reaches whose baseline profile
    never sampled the change, not measured."""

    @property
    def explained_regressed(self) -> tuple[str, ...]:
        """The regressed keys whose benchmark the change reaches."""
        unexplained = {k.benchmark for k in self.reach if k.unexplained}
        return tuple(r for r in self.regressed if _benchmark(r) not in unexplained)

    def to_json(self) -> Json:
        return {
            "reach": [k.to_json() for k in self.reach],
            "run_dir": self.run_dir,
            "report": self.report,
            "jfr_dir": self.jfr_dir,
            "comparisons": list(self.comparisons),
            "regressed": list(self.regressed),
            "command": list(self.command),
            "left_out": [s.to_json() for s in self.left_out],
        }

    @classmethod
    def from_json(cls, doc: Json) -> AbStageResult:
        return cls(
            need(doc, "run_dir", str),
            str(doc.get("report") or ""),
            opt(doc, "jfr_dir", str),
            tuple(objs(doc, "comparisons")),
            strs(doc, "regressed"),
            strs(doc, "command"),
            tuple(KeyReach.from_json(k) for k in objs(doc, "reach")),
            tuple(DispatchSkip.from_json(s) for s in objs(doc, "left_out")),
        )


@dataclass(frozen=True)
class AmdahlRow:
    """A changed method's share of the baseline's recordings and the ceiling it sets."""

    method: str
    frame: str
    cpu_share: float | None
    alloc_share: float | None
    benchmark: str | None
    per_call_gain: float | None
    ceiling_speedup: float | None

    def to_json(self) -> Json:
        return {
            "method": self.method,
            "frame": self.frame,
            "cpu_share": self.cpu_share,
            "alloc_share": self.alloc_share,
            "benchmark": self.benchmark,
            "per_call_gain": self.per_call_gain,
            "ceiling_speedup": self.ceiling_speedup,
        }

    @classmethod
    def from_json(cls, doc: Json) -> AmdahlRow:
        return cls(
            need(doc, "method", str),
            str(doc.get("frame") or ""),
            num(doc, "cpu_share"),
            num(doc, "alloc_share"),
            opt(doc, "benchmark", str),
            num(doc, "per_call_gain"),
            num(doc, "ceiling_speedup"),
        )


@dataclass(frozen=True)
class AllocPerOp:
    """One benchmark entry's allocation sites in bytes per operation, baseline → feature
    (a profile diff document, its Markdown, and the document of the rows its table shows)."""

    benchmark: str
    diff: Json
    diff_md: str
    tables: Json | None = None
    """The rows the report's table shows (``profile.render.shown_json``); None in a bundle
    written before they were kept."""

    def to_json(self) -> Json:
        return {"benchmark": self.benchmark, "diff": self.diff, "diff_md": self.diff_md,
                "tables": self.tables}  # fmt: skip

    @classmethod
    def from_json(cls, doc: Json) -> AllocPerOp:
        return cls(need(doc, "benchmark", str), opt(doc, "diff", dict) or {},
                   str(doc.get("diff_md") or ""), opt(doc, "tables", dict))  # fmt: skip


@dataclass(frozen=True)
class HypothesisFocus:
    """``prove --hypothesis ID --from HUNT``: the hunt's prediction beside what this change
    measured, so a reviewer sees whether the fix landed where the hunt said the cost was."""

    id: str
    method: str
    frame: str
    where: str
    """``file:line`` of the method."""
    hunt: str
    """The hunt.json the hypothesis came from."""
    predicted: float
    """The hunt's expected gain (its discounted Amdahl ceiling, as a fraction)."""
    touched: bool
    """Whether the change edits the hypothesis's method (else the fix is elsewhere)."""
    cpu_share: float | None
    """The method's share of this baseline's profile forks (in or below it)."""
    benchmark: str | None
    per_call_gain: float | None
    ceiling_speedup: float | None
    share_of: str | None = None
    """The benchmark whose own baseline profile forks gave ``cpu_share``; ``ceiling_speedup``
    is then the most removing the method could give that benchmark (at the share's upper
    bound). None: the share is across every profiled benchmark and the ceiling is Amdahl's
    with ``per_call_gain``."""

    @property
    def beyond_ceiling(self) -> bool:
        """The hunt's benchmark gained more than removing the method could give it: the
        recordings under-attribute the method."""
        return (
            self.share_of is not None
            and self.ceiling_speedup is not None
            and self.per_call_gain is not None
            and self.per_call_gain > self.ceiling_speedup
        )

    def to_json(self) -> Json:
        return dict(vars(self))

    @classmethod
    def from_json(cls, doc: Json) -> HypothesisFocus:
        return cls(
            need(doc, "id", str),
            need(doc, "method", str),
            need(doc, "frame", str),
            str(doc.get("where") or ""),
            str(doc.get("hunt") or ""),
            num(doc, "predicted") or 0.0,
            bool(doc.get("touched")),
            num(doc, "cpu_share"),
            opt(doc, "benchmark", str),
            num(doc, "per_call_gain"),
            num(doc, "ceiling_speedup"),
            opt(doc, "share_of", str),
        )


@dataclass(frozen=True)
class ProfileResult:
    """Stage 5b: the profile diff of the A/B's recordings and the Amdahl rows."""

    before: tuple[str, ...]
    after: tuple[str, ...]
    focus: tuple[str, ...]
    diff: Json
    diff_md: str
    census: Json | None
    flamegraph: str | None
    amdahl: tuple[AmdahlRow, ...]
    forks_run: str | None = None
    """The run folder of the recorded forks (``profile/forks``): none of them is a timing fork.
    None in a bundle whose profiles were read from the timing forks themselves."""
    keys: tuple[KeyShare, ...] = ()
    """Per reached benchmark, its own baseline share in the changed methods and its ceiling."""
    hypothesis: HypothesisFocus | None = None
    per_op: tuple[AllocPerOp, ...] = ()
    """Per reached benchmark entry, its allocation sites in bytes per operation."""
    tables: Json | None = None
    """The rows the report's CPU and allocation tables show (``profile.render.shown_json``);
    None in a bundle written before they were kept."""

    @property
    def beyond(self) -> tuple[str, ...]:
        """Benchmarks whose improvement is far beyond the change's ceiling."""
        return tuple(k.benchmark for k in self.keys if k.beyond)

    def to_json(self) -> Json:
        return {
            "keys": [k.to_json() for k in self.keys],
            "forks_run": self.forks_run,
            "before": list(self.before),
            "after": list(self.after),
            "focus": list(self.focus),
            "diff": self.diff,
            "diff_md": self.diff_md,
            "census": self.census,
            "flamegraph": self.flamegraph,
            "amdahl": [a.to_json() for a in self.amdahl],
            "hypothesis": None if self.hypothesis is None else self.hypothesis.to_json(),
            "per_op": [a.to_json() for a in self.per_op],
            "tables": self.tables,
        }

    @classmethod
    def from_json(cls, doc: Json) -> ProfileResult:
        return cls(
            strs(doc, "before"),
            strs(doc, "after"),
            strs(doc, "focus"),
            opt(doc, "diff", dict) or {},
            str(doc.get("diff_md") or ""),
            opt(doc, "census", dict),
            opt(doc, "flamegraph", str),
            tuple(AmdahlRow.from_json(a) for a in objs(doc, "amdahl")),
            opt(doc, "forks_run", str),
            tuple(KeyShare.from_json(k) for k in objs(doc, "keys")),
            _hypothesis(opt(doc, "hypothesis", dict)),
            tuple(AllocPerOp.from_json(a) for a in objs(doc, "per_op")),
            opt(doc, "tables", dict),
        )


def _hypothesis(doc: Json | None) -> HypothesisFocus | None:
    return None if doc is None else HypothesisFocus.from_json(doc)


@dataclass(frozen=True)
class TestSide:
    """The selected tests on one side: counts by status and each case's message."""

    __test__ = False  # not a pytest test class

    passed: int
    failed: int
    error: int
    skipped: int
    messages: tuple[tuple[str, str], ...]
    document: Json

    @classmethod
    def from_json(cls, doc: Json) -> TestSide:
        counts = need(doc, "counts", dict)
        messages = tuple(
            (need(c, "name", str), str(c.get("message") or "")) for c in objs(doc, "cases")
        )
        return cls(
            need(counts, "passed", int),
            need(counts, "failed", int),
            need(counts, "error", int),
            need(counts, "skipped", int),
            messages,
            doc,
        )


@dataclass(frozen=True)
class TestsResult:
    """Stage 6: the selected test classes on the baseline and on the feature."""

    __test__ = False  # not a pytest test class

    selected: tuple[str, ...]
    base: TestSide
    head: TestSide
    changes: tuple[TestChange, ...]
    regressions: tuple[str, ...]

    def to_json(self) -> Json:
        return {
            "selected": list(self.selected),
            "base": self.base.document,
            "head": self.head.document,
            "changes": [c.to_json() for c in self.changes],
            "regressions": list(self.regressions),
        }

    @classmethod
    def from_json(cls, doc: Json) -> TestsResult:
        changes = tuple(
            TestChange(need(c, "name", str), opt(c, "base", str), opt(c, "head", str))
            for c in objs(doc, "changes")
        )
        return cls(
            strs(doc, "selected"),
            TestSide.from_json(need(doc, "base", dict)),
            TestSide.from_json(need(doc, "head", dict)),
            changes,
            strs(doc, "regressions"),
        )


@dataclass(frozen=True)
class E2EMetric:
    """One end-to-end metric as the report's table shows it."""

    name: str
    delta_pct: float | None
    delta_ci: tuple[float | None, float | None]
    verdict: str
    mde_pct: float | None
    runs: int | None


@dataclass(frozen=True)
class E2EStageResult:
    """Stage 7: ``perfproof e2e`` on both commits (its ``perfproof.e2e`` document kept whole)."""

    command: tuple[str, ...]
    amdahl_message: str
    metrics: tuple[E2EMetric, ...]
    document: Json

    def to_json(self) -> Json:
        return {"command": list(self.command), "document": self.document}

    @classmethod
    def from_json(cls, doc: Json) -> E2EStageResult:
        e2e = need(doc, "document", dict)
        metrics = []
        for m in objs(e2e, "metrics"):
            ci = opt(m, "delta_ci", list) or [None, None]
            bounds = {"lo": ci[0] if ci else None, "hi": ci[1] if len(ci) > 1 else None}
            base = opt(m, "base", dict) or {}
            runs = base.get("n")
            metrics.append(
                E2EMetric(
                    str(m.get("name") or ""),
                    num(m, "delta_pct"),
                    (num(bounds, "lo"), num(bounds, "hi")),
                    str(m.get("verdict") or ""),
                    num(m, "mde_pct"),
                    runs if isinstance(runs, int) else None,
                )
            )
        amdahl = opt(e2e, "amdahl", dict) or {}
        return cls(strs(doc, "command"), str(amdahl.get("message") or ""), tuple(metrics), e2e)


@dataclass(frozen=True)
class ReportResult:
    """Stage 8: the bundle's report files and the one-line summary they open with."""

    markdown: str
    html: str
    summary: str = ""

    def to_json(self) -> Json:
        return {"markdown": self.markdown, "html": self.html, "summary": self.summary}

    @classmethod
    def from_json(cls, doc: Json) -> ReportResult:
        return cls(
            need(doc, "markdown", str), need(doc, "html", str), str(doc.get("summary") or "")
        )
