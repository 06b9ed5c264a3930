"""What the measuring stages of ``prove`` found, typed: guard, the A/B, the profile diff with
Amdahl, the tests on both commits, end to end, and the report's own files.

As in :mod:`perfproof.model.documents.prove_stages`, each is a codec document in the
``perfproof.prove/1`` shape, and another verb's document is kept whole with the fields ``prove``
reads typed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated

from pydantic import Field

from perfproof.model.diagnostics import ByValue
from perfproof.model.documents.codec import Kept, Seq, Text
from perfproof.model.documents.compare_wire import ComparisonDoc
from perfproof.model.documents.profile_diff import ProfileDiffDoc
from perfproof.model.documents.prove_jit import JitAccount
from perfproof.model.documents.prove_profile import ProfileDesign
from perfproof.model.documents.prove_reach import KeyReach, KeyShare
from perfproof.model.documents.prove_stages import DispatchSkip, Json, StageDocument, Test
from perfproof.model.enums import GuardKind


@dataclass(frozen=True)
class GuardLine:
    """One row of the guard's verdict as the report shows it."""

    benchmark: str
    params: tuple[tuple[str, str], ...]
    passed: bool
    reason: str


class KeptGuardRow(Kept):
    """A row of a ``perfproof.guard/1`` document, as prove reads it."""

    benchmark: str
    params: dict[str, Text] | None = None
    passed: bool = False
    reason: str | None = None


class KeptGuard(Kept):
    """A ``perfproof.guard/1`` document, kept whole, with what prove shows of it typed."""

    verdict: Text | None = None
    min_ratio: float | None = None
    kind: Annotated[GuardKind, ByValue] | None = None
    rows: list[KeptGuardRow] = Field(default_factory=list)


class GuardStageResult(StageDocument):
    """Stage 4: the guard of the feature's new or changed benchmarks (``perfproof.guard/1``)."""

    run_dir: str
    document: KeptGuard

    @property
    def verdict(self) -> str:
        return str(self.document.verdict)

    @property
    def min_ratio(self) -> float | None:
        return self.document.min_ratio

    @property
    def kind(self) -> GuardKind | None:
        return self.document.kind

    @property
    def rows(self) -> tuple[GuardLine, ...]:
        return tuple(
            GuardLine(r.benchmark, tuple((params or {}).items()), r.passed, r.reason or "")
            for r in self.document.rows
            for params in [r.params]
        )


def _benchmark(label: str) -> str:
    """The benchmark of a key's label (``fx.Codes.sum(n=16)`` → ``fx.Codes.sum``)."""
    return label.split("(", 1)[0].split(" ", 1)[0]


class AbStageResult(StageDocument):
    """Stage 5a: the A/B run folder inside the bundle and what the later stages need of it."""

    reach: Seq[KeyReach] = ()
    """Per measured benchmark, whether the change reaches it and can explain its verdict."""
    run_dir: str
    report: str = ""
    jfr_dir: str | None = None
    comparisons: Seq[ComparisonDoc] = ()
    """The comparisons of the run's ``results.json`` (``perfproof.compare``), as written."""
    regressed: Seq[str] = ()
    command: Seq[str] = ()
    left_out: Seq[DispatchSkip] = ()
    """``--reach profile``: benchmarks dynamic dispatch alone reaches whose baseline profile
    never sampled the change, or too rarely to move them by the threshold; not measured."""
    probed: Seq[str] = ()
    """``--reach profile``: the benchmarks dynamic dispatch alone reaches that the reach round
    recorded before the A/B, one baseline fork each (``BUNDLE/reach``)."""

    @property
    def explained_regressed(self) -> tuple[str, ...]:
        """The regressed keys whose benchmark the change reaches."""
        unexplained = {k.benchmark for k in self.reach if k.unexplained}
        return tuple(r for r in self.regressed if _benchmark(r) not in unexplained)


class MethodCeiling(StageDocument):
    """A method's CPU share of the baseline's recordings and the Amdahl ceiling that share sets
    on a benchmark: what the profile stage finds for a changed method and for a hunt's
    hypothesis alike."""

    method: str
    frame: str = ""
    cpu_share: float | None = None
    benchmark: str | None = None
    per_call_gain: float | None = None
    ceiling_speedup: float | None = None


class KeyGain(StageDocument):
    """One key's own speed-up as its A/B verdict measured it."""

    key: str
    """The entry's label, ``B.m(n=16) [avgt]``."""
    verdict: str
    gain: float
    """Base time / feature time − 1, from the key's ratio."""


class AmdahlRow(MethodCeiling):
    """A changed method's shares of the baseline's recordings (CPU and allocation) and the
    ceiling it sets. ``per_call_gain`` is the geometric mean of ``gains``: the speed-ups of the
    keys whose benchmark reaches the method and whose time verdict is improved or regressed
    (None when no such key has one), never a key the verdicts leave undecided."""

    alloc_share: float | None = None
    gains: Seq[KeyGain] = ()
    """The decided keys the per-call speed-up is summarised from."""
    unmoved: int = 0
    """Keys reaching the method whose time verdict is neither improved nor regressed (same,
    negligible, undecided): left out of the speed-up."""
    overloads: int = 0
    """The baseline's methods of this one's type and name when there are others than itself:
    a recording names a frame without its parameters, so its shares are those of all of them
    (at most this method's own, and so is the ceiling). 0 when the name is its alone."""
    added: bool = False
    """New in the feature while its name is an overload's in the baseline: the samples that
    name finds there are the other overloads', so no share is given."""

    @property
    def gain_range(self) -> tuple[float, float] | None:
        """The smallest and largest of ``gains``."""
        if not self.gains:
            return None
        values = [g.gain for g in self.gains]
        return min(values), max(values)


class AllocPerOp(StageDocument):
    """One benchmark entry's allocation sites in bytes per operation, baseline → feature
    (a profile diff document, and the document of the rows its table shows)."""

    benchmark: str
    diff: ProfileDiffDoc = Field(default_factory=ProfileDiffDoc)
    tables: ProfileDiffDoc | None = None
    """The rows the report's table shows (``profile.render.shown_doc``); None in a bundle
    written before they were kept."""


class HypothesisFocus(MethodCeiling):
    """``prove --hypothesis ID --from HUNT``: the hunt's prediction beside what this change
    measured, so a reviewer sees whether the fix landed where the hunt said the cost was.
    ``cpu_share`` is the method's share of this baseline's profile forks (in or below it)."""

    id: str
    frame: str
    where: str = ""
    """``file:line`` of the method."""
    hunt: str = ""
    """The hunt.json the hypothesis came from."""
    predicted: float = 0.0
    """The hunt's expected gain (its discounted Amdahl ceiling, as a fraction)."""
    touched: bool = False
    """Whether the change edits the hypothesis's method (else the fix is elsewhere)."""
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


class ProfileResult(StageDocument):
    """Stage 5b: the profile diff of the A/B's recordings and the Amdahl rows."""

    keys: Seq[KeyShare] = ()
    """Per reached benchmark, its own baseline share in the changed methods and its ceiling."""
    forks_run: str | None = None
    """The run folder of the recorded forks (``profile/forks``): none of them is a timing fork.
    None in a bundle whose profiles were read from the timing forks themselves."""
    before: Seq[str] = ()
    after: Seq[str] = ()
    focus: Seq[str] = ()
    diff: ProfileDiffDoc = Field(default_factory=ProfileDiffDoc)
    census: Json | None = None
    flamegraph: str | None = None
    amdahl: Seq[AmdahlRow] = ()
    hypothesis: HypothesisFocus | None = None
    per_op: Seq[AllocPerOp] = ()
    """Per reached benchmark entry, its allocation sites in bytes per operation."""
    tables: ProfileDiffDoc | None = None
    """The rows the report's CPU and allocation tables show (``profile.render.shown_doc``);
    None in a bundle written before they were kept."""
    design: ProfileDesign | None = None
    """Which keys the profile forks recorded and why; None in a bundle written before."""
    jit: Seq[JitAccount] = ()
    """Per profiled benchmark, the compiler's decisions on its path to the change, both sides
    (empty in a bundle written before, or whose recordings hold no compiler events)."""

    @property
    def beyond(self) -> tuple[str, ...]:
        """Benchmarks whose improvement is far beyond the change's ceiling."""
        return tuple(k.benchmark for k in self.keys if k.beyond)


class TestCounts(Kept):
    """How many selected tests ended in each status on one side."""

    __test__ = False  # not a pytest test class

    passed: int
    failed: int
    error: int
    skipped: int


class TestCase(Kept):
    """One test case of a side, with its failure message."""

    __test__ = False  # not a pytest test class

    name: str
    message: str | None = None


class TestSide(Kept):
    """The selected tests on one side (``perfproof.workspace.tests.TestRun``, kept whole):
    counts by status and each case's message."""

    __test__ = False  # not a pytest test class

    counts: TestCounts
    cases: list[TestCase] = Field(default_factory=list)

    @property
    def messages(self) -> tuple[tuple[str, str], ...]:
        return tuple((c.name, c.message or "") for c in self.cases)


class TestsResult(StageDocument):
    """Stage 6: the selected test classes on the baseline and on the feature."""

    __test__ = False  # not a pytest test class

    selected: Seq[str] = ()
    base: TestSide
    head: TestSide
    changes: Seq[Test] = ()
    regressions: Seq[str] = ()


@dataclass(frozen=True)
class E2EMetric:
    """One end-to-end metric as the report's table shows it."""

    name: str
    delta_pct: float | None
    delta_ci: tuple[float | None, float | None]
    verdict: str
    mde_pct: float | None
    runs: int | None


class KeptE2ESide(Kept):
    n: int | float | None = None


class KeptE2EMetric(Kept):
    """A metric of a ``perfproof.e2e/1`` document, as prove reads it."""

    name: Text | None = None
    delta_pct: float | None = None
    delta_ci: list[float | None] | None = None
    verdict: Text | None = None
    mde_pct: float | None = None
    base: KeptE2ESide | None = None


class KeptE2EAmdahl(Kept):
    message: str | None = None


class KeptE2E(Kept):
    """A ``perfproof.e2e/1`` document, kept whole, with what prove shows of it typed."""

    metrics: list[KeptE2EMetric] = Field(default_factory=list)
    amdahl: KeptE2EAmdahl | None = None


class E2EStageResult(StageDocument):
    """Stage 7: ``perfproof e2e`` on both commits (its ``perfproof.e2e`` document kept whole)."""

    command: Seq[str] = ()
    document: KeptE2E

    @property
    def amdahl_message(self) -> str:
        amdahl = self.document.amdahl
        return (amdahl.message if amdahl is not None else None) or ""

    @property
    def metrics(self) -> tuple[E2EMetric, ...]:
        out = []
        for m in self.document.metrics:
            ci = m.delta_ci or [None, None]
            runs = m.base.n if m.base is not None else None
            out.append(
                E2EMetric(
                    m.name or "",
                    m.delta_pct,
                    (ci[0] if ci else None, ci[1] if len(ci) > 1 else None),
                    m.verdict or "",
                    m.mde_pct,
                    runs if isinstance(runs, int) else None,
                )
            )
        return tuple(out)


class ReportResult(StageDocument):
    """Stage 8: the bundle's report files and the one-line summary they open with."""

    markdown: str
    html: str
    summary: str = ""
