"""Every stage of a prove bundle decoded once into its typed result: what the report renders.

``prove.json`` holds each stage's status and result as JSON; the page, the terminal lines and
``check`` need the same typed values many times over (the A/B's reach in the summary, the
Results section and the terminal). :class:`ProveResults` is built once from a
:class:`~perfproof.model.documents.prove.BundleView` and handed to every renderer, so no
renderer parses a stage again or reads the bundle's dict.
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
        """Each finished stage's result decoded once (a bad one is exit 2 naming the stage)."""
        refs = view.doc.get("refs") or {}
        states = {}
        for name in STAGES:
            entry = view.stage(name)
            why = entry.get("reason") or entry.get("error") or None
            states[name] = StageState(str(entry["status"]), None if why is None else str(why))
        return cls(
            path=view.path,
            base_ref=str(refs.get("base", {}).get("ref", "")),
            head_ref=str(refs.get("head", {}).get("ref", "")),
            command=tuple(str(a) for a in view.doc.get("command") or ()),
            states=states,
            changes=view.read("changes", ChangesResult.from_json),
            callers=view.read("callers", CallersStageResult.from_json),
            benchmarks=view.read("benchmarks", BenchmarksResult.from_json),
            guard=view.read("guard", GuardStageResult.from_json),
            ab=view.read("ab", AbStageResult.from_json),
            profile=view.read("profile", ProfileResult.from_json),
            tests=view.read("tests", TestsResult.from_json),
            e2e=view.read("e2e", E2EStageResult.from_json),
            report=view.read("report", ReportResult.from_json),
        )
