"""Every stage of a prove bundle decoded once into its typed result: what the report renders.

``prove.json`` is decoded once when a bundle is opened; the page, the terminal lines and
``check`` need the same typed values many times over (the A/B's reach in the summary, the
Results section and the terminal). :class:`ProveResults` gathers them from a
:class:`~perfproof.model.documents.prove.BundleView` and is handed to every renderer.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from perfproof.model.documents.prove import DONE, STAGES, BundleView
from perfproof.model.documents.prove_measured import (
    AbStageResult,
    E2EStageResult,
    GuardStageResult,
    ProfileResult,
    ReportResult,
    TestsResult,
)
from perfproof.model.documents.prove_stages import (
    BenchmarksResult,
    CallersStageResult,
    ChangesResult,
)


@dataclass(frozen=True)
class StageState:
    """A stage's status and, when it did not finish, why (its skip reason or its error)."""

    status: str
    why: str | None = None

    @property
    def done(self) -> bool:
        return self.status == DONE


@dataclass(frozen=True)
class ProveResults:
    """One bundle's refs, command, stage states and typed stage results (None: not done)."""

    path: Path
    base_ref: str
    head_ref: str
    command: tuple[str, ...]
    states: Mapping[str, StageState]
    changes: ChangesResult | None = None
    callers: CallersStageResult | None = None
    benchmarks: BenchmarksResult | None = None
    guard: GuardStageResult | None = None
    ab: AbStageResult | None = None
    profile: ProfileResult | None = None
    tests: TestsResult | None = None
    e2e: E2EStageResult | None = None
    report: ReportResult | None = None

    def status(self, name: str) -> str:
        return self.states[name].status

    @classmethod
    def of(cls, view: BundleView) -> ProveResults:
        """The stages' typed results as the bundle holds them (decoded once, when it was
        opened)."""
        doc, stages = view.doc, view.doc.stages
        states = {}
        for name in STAGES:
            entry = stages.entry(name)
            why = entry.reason or entry.error or None
            states[name] = StageState(entry.status, why)
        return cls(
            path=view.path,
            base_ref=doc.side("base").ref or "",
            head_ref=doc.side("head").ref or "",
            command=tuple(doc.command or ()),
            states=states,
            changes=stages.changes.done,
            callers=stages.callers.done,
            benchmarks=stages.benchmarks.done,
            guard=stages.guard.done,
            ab=stages.ab.done,
            profile=stages.profile.done,
            tests=stages.tests.done,
            e2e=stages.e2e.done,
            report=stages.report.done,
        )
