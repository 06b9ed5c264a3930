"""The ``perfproof.prove/1`` document: ``prove.json`` in a bundle folder, and its typed view.

One document holds everything ``prove`` found, stage by stage, and how far it got: each stage
has a status (``pending``, ``done``, ``skipped``, ``failed``), its timing, the reason it was
skipped or the error it stopped on, and its result. ``--resume BUNDLE`` reads it back and runs
only the stages that are not ``done`` or ``skipped``; the report is rendered from it alone.

The page, the terminal lines and ``check`` need the same typed stage results many times over
(the A/B's reach in the summary, the Results section and the terminal): :class:`ProveResults`
gathers them once from a :class:`BundleView` and is handed to every renderer. Each stage's
result type is named once, in :class:`Stages`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Final, Generic, Literal, TypeVar

from pydantic import Field

from perfproof.errors import InputError
from perfproof.model.documents import check_document, read_document, schema_id
from perfproof.model.documents.codec import (
    Kept,
    Text,
    TextList,
    ValidationError,
    shape_problem,
)
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
    StageDocument,
)
from perfproof.model.documents.run import SideRef
from perfproof.model.documents.run_options import RunOptions
from perfproof.model.documents.settings import WithSettings

NAME = "prove"
MAJOR = 1
SCHEMA = schema_id(NAME, MAJOR)

STAGES = (
    "changes",
    "callers",
    "benchmarks",
    "guard",
    "ab",
    "profile",
    "tests",
    "e2e",
    "report",
)
"""The stages in the order they run."""

TITLES = {
    "changes": "changed methods",
    "callers": "callers",
    "benchmarks": "affected benchmarks",
    "guard": "guard",
    "ab": "A/B (timing forks, no JFR)",
    "profile": "profile forks, diff and Amdahl",
    "tests": "tests on both commits",
    "e2e": "end to end",
    "report": "report",
}
SKIPPABLE = ("callers", "guard", "ab", "profile", "tests", "e2e")

PENDING: Final = "pending"
DONE: Final = "done"
SKIPPED: Final = "skipped"
FAILED: Final = "failed"

NOT_REACHED = "no benchmark reaches the changed code"
"""Why the measuring stages were skipped; the advice is said once, in :data:`NO_BENCHMARK`."""
NO_BENCHMARK = (
    f"{NOT_REACHED}: run with --bench REGEX to name one, or add a benchmark that calls it "
    "(prove then runs guard on it to check that it tells the commits apart)"
)
NO_CHANGE = "the change touches no production Java method: there is nothing to measure"

STATUSES = (PENDING, DONE, SKIPPED, FAILED)
Status = Literal["pending", "done", "skipped", "failed"]

R = TypeVar("R", bound=StageDocument, covariant=True)


class StageEntry(Kept, Generic[R]):
    """One stage's row of ``prove.json``: its status, timing, why it was skipped or where it
    stopped, and its typed result once done."""

    status: Status = PENDING
    started: str | None = None
    finished: str | None = None
    duration_s: float | None = None
    reason: str | None = None
    error: str | None = None
    result: R | None = None

    @property
    def done(self) -> R | None:
        """The result of a finished stage; None when it was skipped or has not run."""
        return self.result if self.status == DONE else None

    def forget(self, *names: str) -> None:
        """Leave these entries out of the row, as if never written."""
        for name in names:
            setattr(self, name, None)
            self.model_fields_set.discard(name)


class Stages(Kept):
    """Every stage's row, in the order they run; a row missing from an older bundle is
    pending."""

    changes: StageEntry[ChangesResult] = Field(default_factory=StageEntry[ChangesResult])
    callers: StageEntry[CallersStageResult] = Field(default_factory=StageEntry[CallersStageResult])
    benchmarks: StageEntry[BenchmarksResult] = Field(default_factory=StageEntry[BenchmarksResult])
    guard: StageEntry[GuardStageResult] = Field(default_factory=StageEntry[GuardStageResult])
    ab: StageEntry[AbStageResult] = Field(default_factory=StageEntry[AbStageResult])
    profile: StageEntry[ProfileResult] = Field(default_factory=StageEntry[ProfileResult])
    tests: StageEntry[TestsResult] = Field(default_factory=StageEntry[TestsResult])
    e2e: StageEntry[E2EStageResult] = Field(default_factory=StageEntry[E2EStageResult])
    report: StageEntry[ReportResult] = Field(default_factory=StageEntry[ReportResult])

    def entry(self, name: str) -> StageEntry[StageDocument]:
        if name not in STAGES:
            raise KeyError(name)
        entry: StageEntry[StageDocument] = getattr(self, name)
        return entry


class ProveSettings(Kept):
    """``options`` of ``prove.json``: what ``prove`` was asked, as
    :class:`perfproof.pipeline.prove.options.ProveOptions` writes it (the A/B's as a run
    manifest's options)."""

    ab: RunOptions = Field(default_factory=RunOptions)
    out: Text | None = None
    skip: TextList = Field(default_factory=list)
    depth: int | None = None
    e2e_run: Text | None = None
    e2e_metric: TextList = Field(default_factory=list)
    e2e_runs: int | None = None
    fail_on_regression: bool = False
    jfr: str | None = None
    gate: str | None = None
    reach: str | None = None
    hypothesis: Text | None = None
    hunt: Text | None = None


class Outcome(Kept):
    """The gates the chain failed (none: it passed)."""

    gates: list[str] = Field(default_factory=list)
    ok: bool = True


class ProveDocument(WithSettings, Kept):
    """A whole ``prove.json``, decoded once when a bundle is opened."""

    schema_: str = Field(SCHEMA, alias="schema")
    options: ProveSettings
    refs: dict[str, SideRef] = Field(default_factory=dict)
    command: TextList | None = None
    stages: Stages
    outcome: Outcome | None = None

    def side(self, name: str) -> SideRef:
        return self.refs.get(name) or SideRef()

    def dump(self) -> dict[str, object]:
        """The document as written: every entry read or set (a null too), each stage's
        result whole."""
        return self.model_dump(mode="json", by_alias=True)


@dataclass
class BundleView:
    """A bundle folder and its ``prove.json``, read-only, every stage's result decoded once
    when the bundle is opened.

    The pipeline's ``Bundle`` adds the writes (stage bookkeeping, saving); renderers get the
    typed results through this view (``ProveResults.of``), so that rendering never depends
    on the code that runs the stages.
    """

    path: Path
    doc: ProveDocument

    def stage(self, name: str) -> StageEntry[StageDocument]:
        return self.doc.stages.entry(name)

    def status(self, name: str) -> str:
        return self.stage(name).status


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


def new_document(options: ProveSettings, refs: dict[str, SideRef]) -> ProveDocument:
    """A fresh document: every stage pending."""
    stages = Stages.model_validate({name: {"status": PENDING} for name in STAGES})
    return ProveDocument(schema_=SCHEMA, options=options, refs=refs, stages=stages, outcome=None)


def check_prove(doc: object, source: str) -> ProveDocument:
    """Decode a parsed document: its schema, its stage table and every stage's result; a
    field of another shape is refused naming its path (``stage changes: 'methods[0].kind'
    is not a string``)."""
    checked = check_document(doc, source, NAME, MAJOR)
    try:
        return ProveDocument.model_validate(checked)
    except ValidationError as exc:
        raise InputError(f"{source}: {_problem(exc)}") from None


def _problem(exc: ValidationError) -> str:
    path, what, value = shape_problem(exc)
    head, _, rest = path.partition(".")
    name, _, field = rest.partition(".")
    if head == "stages" and name in STAGES:
        where = f"stage {name}: "
        path = field.removeprefix("result.").removeprefix("result") or "status"
    else:
        where = ""
    if what == "missing":
        return f"{where}'{path}' is missing"
    if what.startswith("'"):  # a reader of another module's words: 'kind' is not str (5)
        return f"{where}{path}: {what}"
    shown = repr(value)
    shown = shown if len(shown) <= 40 else shown[:37] + "..."
    return f"{where}'{path}' is not {what} ({shown})"


def read_prove(path: Path) -> ProveDocument:
    """Read and decode ``prove.json``."""
    return check_prove(read_document(path, NAME, MAJOR), str(path))
