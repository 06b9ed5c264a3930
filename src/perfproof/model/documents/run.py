"""The ``perfproof.run/1`` manifest of a run folder (``ab``, ``guard`` and ``e2e`` alike).

The manifest is written step by step while a run goes on and read back by ``--resume``,
``report``, ``check`` and ``merge``; this module is the one description of it both sides use.
:class:`Environment` is the machine block (JDK, JMH version, CPU, cores, memory, OS, load before
and after): :mod:`perfproof.measure.environment` fills it in and :mod:`perfproof.report.environment`
reads it, so a key the reader looks for is a key the writer writes.

The run machinery fills the manifest in as it works (the plan, the steps, the builds); every
writer and reader goes through the fields of :class:`RunManifest`, never through string keys.
The manifest and its blocks are codec documents (:mod:`perfproof.model.documents.codec`):
:meth:`RunManifest.read` (the codec's one reader) checks every typed entry and names the first
one that is not of the type perfproof writes (a hand edit), and keeps entries it does not know,
and :meth:`~perfproof.model.documents.codec.Document.dump` writes it, so a run folder
written by a newer minor version still opens. Typed: the header, refs, overlay, options,
environment (with its JDK and a merged run's machines), steps, builds, history, plan (with
its sequential design), stopping, shard, a merged run's shards, a cluster run's groups and
parts, reach, merged, guard, the build settings and an ``e2e`` run's prepared sides.
"""

from __future__ import annotations

from typing import Annotated, ClassVar, Literal

from pydantic import (
    AliasChoices,
    BeforeValidator,
    ConfigDict,
    Field,
    ValidationInfo,
    model_validator,
)

from perfproof.model.documents import schema_id
from perfproof.model.documents.codec import (
    Document,
    Kept,
    Reading,
    Text,
    TextList,
    ValidationError,
    number_as_text,
    problem_line,
)
from perfproof.model.documents.reach import RunReach
from perfproof.model.documents.run_options import RunOptions
from perfproof.model.documents.run_plan import (
    ClusterBlock,
    ClusterPart,
    Machine,
    MachineFacts,
    MergedShard,
    PlanBlock,
    ShardBlock,
    StoppingBlock,
)
from perfproof.model.documents.suite import Selection
from perfproof.model.documents.variants import Variants
from perfproof.model.enums import GuardKind, RunStatus

NAME = "run"
MAJOR = 1
SCHEMA = schema_id(NAME, MAJOR)

DONE = RunStatus.DONE
"""A step's or a run's status once it finished."""

KINDS = ("ab", "e2e")
"""What measured the run: JMH steps (``ab`` and ``guard``) or whole commands (``e2e``)."""


class ManifestShapeError(ValueError):
    """An entry of a manifest is not of the type perfproof writes (the message names it)."""


def _joined_versions(value: object) -> object:
    """Older runs kept the per-side JMH versions in ``jmh_version``: one text of them."""
    if isinstance(value, dict):
        return " / ".join(sorted({str(v) for v in value.values() if v})) or None
    return value


def _as_texts(value: object) -> object:
    """Keys and values of a side → text map, kept as text (a hand edit of a number)."""
    if isinstance(value, dict):
        return {str(k): (None if v is None else str(v)) for k, v in value.items()}
    return value


class Jdk(Document):
    """The JVM a side ran with, as the manifest records it. Older runs wrote ``java`` for
    ``path`` and ``vm`` for ``vm_name``: read here under today's names, so no reader looks for
    both. Every fact may be unknown in a recorded run; :class:`JavaInfo` is the one asked of a
    live JVM, every fact known."""

    path: Text | None = Field(None, validation_alias=AliasChoices("path", "java"))
    home: Text | None = None
    vendor: Text | None = None
    version: Text | None = None
    runtime_version: Text | None = None
    vm_name: Text | None = Field(None, validation_alias=AliasChoices("vm_name", "vm"))


class JavaInfo(Jdk):
    """A JVM as ``perfproof.env.java.java_info`` asked it: the manifest's :class:`Jdk` with
    every fact known (the JVM answered), so it is recorded as it is and its users need no
    check for an unknown home. Frozen: one description serves every caller that asks."""

    model_config = ConfigDict(frozen=True)

    path: str
    home: str
    vendor: str
    version: str
    runtime_version: str
    vm_name: str

    @property
    def label(self) -> str:
        return f"{self.vendor} {self.runtime_version or self.version} ({self.home})"


def _empty(value: object) -> bool:
    """An entry that says nothing: left out rather than written empty, as always written."""
    return not value


class Environment(MachineFacts):
    """The machine and the tools a run measured with; every field may be unknown (None),
    and is written so (null), but for empty per-side maps, left out as older runs wrote."""

    nulls_written: ClassVar[bool] = True

    python: Text | None = None
    perfproof_version: Text | None = None
    jdk: Jdk | None = None
    jmh_version: Annotated[Text | None, BeforeValidator(_joined_versions)] = None
    """The JMH version(s) both sides ran, ``"1.37"`` or ``"1.36 / 1.37"``."""
    jmh_versions: Annotated[dict[str, str | None], BeforeValidator(_as_texts)] = Field(
        default_factory=dict, exclude_if=_empty
    )
    """Per side, when known."""
    git: Annotated[dict[str, str], BeforeValidator(_as_texts)] = Field(
        default_factory=dict, exclude_if=_empty
    )
    """Side → commit SHA."""
    load_before: list[float] | None = None
    """1, 5 and 15 minute load averages before the first step."""
    load_after: list[float] | None = None
    """The same after the last step (None while the run goes on)."""
    machines: list[Machine] | None = Field(None, exclude_if=_empty)
    """A run merged from shards or cluster groups: each shard's machine block."""


class SideRef(Document):
    """What one side measured: the ref as the user spelled it and the commit it resolved to."""

    ref: Text | None = None
    sha: Text | None = None


class Overlay(Document):
    """``--overlay``: files copied from one side onto the other before building it."""

    paths: TextList = Field(default_factory=list)
    source: Text = Field("head", alias="from")
    onto: Text = "base"
    files: TextList = Field(default_factory=list)
    """The files actually copied (known once the side is built)."""


class ProcessEntry(Document):
    """What the manifest records of any process a run starts, a build or a step alike: the
    side and round it belongs to, its status, the command and the folder it ran in, its
    cache key, its log and how long it took."""

    side: str | None = None
    round: int | None = None
    status: RunStatus | None = Field(None, strict=False)
    command: list[Text] | str | None = None
    cwd: str | None = None
    key: str | None = None
    log: str | None = None
    duration_s: float | None = None


class StepEntry(ProcessEntry):
    """One step of the run: what the plan made of it, then what running it did.

    A JMH step (``kind`` ``jmh``) is the plan's ``PlannedStep`` (index, round, side, part,
    selection, forks, warm-up iterations); a command step of ``e2e`` (``kind`` ``command``)
    comes from ``CommandStep`` (``warmup``). Running it adds the status, the times, the argv and
    what it left (raw result, log, recordings). A merged run's steps name their shard."""

    id: Text | None = None
    index: int | None = None
    kind: Literal["jmh", "command"] = "jmh"
    part: int | None = None
    selection: Selection | None = None
    forks: int | None = None
    warmup_iterations: int | None = None
    warmup: bool | None = None
    result: str | None = None
    stdout: str | None = None
    started: str | None = None
    finished: str | None = None
    argv: list[Text] | None = None
    jmh_seconds: float | None = None
    lock_wait_s: float | None = None
    lock_holders: list[Text] | None = None
    exit_code: int | None = None
    entries: int | None = None
    recordings: list[str] | None = None
    error: str | None = None
    note: str | None = None
    previous_status: RunStatus | None = Field(None, strict=False)
    shard: int | None = None
    machine: str | None = None

    @property
    def done(self) -> bool:
        return self.status == DONE

    def jmh_ran_s(self) -> float:
        """Seconds JMH itself ran in this step (0 unless finished): its own time when
        recorded, else its duration less the wait for JMH's lock (older runs)."""
        if not self.done:
            return 0.0
        ran = self.jmh_seconds
        if ran is None:
            ran = (self.duration_s or 0.0) - (self.lock_wait_s or 0.0)
        return max(ran, 0.0)


class OwnRun(Document):
    """How the project runs its benchmarks itself (a profile whose exec or antrun step starts
    JMH in a lifecycle phase): the command, and the property its JMH run takes the benchmark
    regex from (None: it always runs them all)."""

    argv: list[Text]
    selector: str | None = None

    def command(self, regexes: list[str]) -> list[str] | None:
        """The command that runs the benchmarks ``regexes`` select (None: this run cannot
        select them, so it would not run what was measured)."""
        if regexes and self.selector is None:
            return None
        chosen = [f"-D{self.selector}={'|'.join(regexes)}"] if regexes else []
        return [*self.argv, *chosen]


class BuildEntry(ProcessEntry):
    """One build of a side: how it was made (or found cached) and where its log is."""

    sha: str | None = None
    cached: bool | None = None
    layout: str | None = None
    jar: str | None = None
    overlaid: list[str] | None = None
    seconds: float | None = None
    """What older runs called ``duration_s``."""
    at: str | None = None
    reused: str | None = None
    """Set when this side was not built because the other side's build serves it: why
    (no file of the modules the build includes differs between the two commits)."""
    tool: str | None = None
    """The build tool that made it: which Maven (on PATH, the wrapper's, or one perfproof
    fetched) or Gradle."""
    own_run: OwnRun | None = None
    """For benchmarks in the test sources, the project's own command that runs them."""


class HistoryEvent(Document):
    """One event of the run's history (started, resumed, interrupted, failed, done, …)."""

    event: str
    at: str | None = None
    error: str | None = None
    pending: list[str] | None = None
    machine: str | None = None
    group: int | None = None
    host: str | None = None


class PreparedSide(Document):
    """An ``e2e`` side as prepared: where its commands run (a folder, or a worktree of a ref
    built first) and the commands (``measure.targets.command.SideCommands``)."""

    cwd: str
    run: list[Text] = Field(default_factory=list)
    setup: list[Text] | None = None
    teardown: list[Text] | None = None
    ref: Text | None = None
    sha: Text | None = None
    build_log: str | None = None
    build_command: list[Text] | None = None


class GuardBlock(Document):
    """A ``guard`` run's settings, what they protect, its outcome and the command that ran it
    (read back by ``guard --resume``)."""

    kind: GuardKind | None = Field(None, strict=False)
    protects: str | None = None
    min_ratio: float | None = None
    confidence: float | None = None
    passed: bool | None = None
    command: TextList = Field(default_factory=list)


class Merged(Document):
    """When a merged folder was made and from which shard folders."""

    at: str | None = None
    sources: list[str] = Field(default_factory=list, alias="from")


class BuildSpecBlock(Kept):
    """How the user asked both sides to be built, as the run recorded it for the reader and
    the build cache hashes it (``workspace.spec.BuildSpec.to_block`` says why the two differ);
    launch settings left at their defaults are not written, those set are (a null too)."""

    nulls_written: ClassVar[bool] = True

    kind: str = "auto"
    module: Text | None = None
    build_cmd: TextList | None = None
    jar_glob: Text | None = None
    classpath_file: Text | None = None
    java: Text | None = None
    build_args: TextList | None = None
    maven: str | None = None
    gradle: str | None = None
    keep_checks: bool | None = None


def _argv(value: object) -> object:
    """An argv is a list of strings; numbers in it (a hand edit) are kept as their text."""
    if isinstance(value, list):
        return [number_as_text(v) for v in value]
    return value


class RunManifest(Document):
    """A run folder's manifest, every entry a field (see the module docstring). Read with
    :meth:`read` (a shape problem is a :class:`ManifestShapeError` naming the entry; the
    caller names the file), written with ``dump()``: entries not set left out, an ``ab``
    run's kind and an empty command or refs too, the environment and options as their
    blocks write themselves."""

    versioned_as: ClassVar[tuple[str, int] | None] = (NAME, MAJOR)

    schema_: str = Field(SCHEMA, alias="schema")
    kind: Literal["ab", "e2e"] = Field("ab", exclude_if=lambda kind: kind == "ab")
    id: Text | None = None
    status: RunStatus | None = Field(None, strict=False)
    created: Text | None = None
    updated: Text | None = None
    perfproof_version: Text | None = None
    error: Text | None = None
    """Why the last attempt stopped (absent once a resume starts)."""
    repo: Text | None = None
    command: Annotated[TextList, BeforeValidator(_argv)] = Field(
        default_factory=list, exclude_if=_empty
    )
    """The argv that reproduces the run."""
    refs: dict[str, SideRef] = Field(default_factory=dict, exclude_if=_empty)
    options: RunOptions = Field(default_factory=RunOptions)
    """The verb's options as typed (:mod:`perfproof.model.documents.run_options`)."""
    overlay: Overlay | None = None
    benchmarks: dict[str, TextList] | None = None
    """Side → the benchmarks its build listed."""
    sides: dict[str, PreparedSide] | None = None
    """``e2e``: each side's prepared checkout and commands."""
    plan: PlanBlock | None = None
    build_spec: BuildSpecBlock | None = None
    stopping: StoppingBlock | None = None
    shard: ShardBlock | None = None
    merged: Merged | None = None
    """A folder ``merge`` made from shards (a merged run is never resumed)."""
    cluster: ClusterBlock | None = None
    cluster_parts: dict[str, ClusterPart] | None = None
    guard: GuardBlock | None = None
    reach: RunReach | None = None
    """``ab``: each benchmark's reach from the diff, known before the first look
    (:class:`perfproof.model.reach.RunReach`)."""
    variants: Variants | None = None
    """``ab --ref C`` with a variant rule: the sides are two variants of one commit."""
    steps: list[StepEntry] = Field(default_factory=list)
    builds: list[BuildEntry] = Field(default_factory=list)
    history: list[HistoryEvent] = Field(default_factory=list)
    shards: list[MergedShard] | None = None
    environment: Environment = Field(default_factory=Environment)

    def side(self, side: str) -> SideRef:
        """The ref of ``side``: from ``refs``, or an ``e2e`` run's ``sides`` (an empty one when
        the run did not record it)."""
        if side in self.refs:
            return self.refs[side]
        prepared = (self.sides or {}).get(side)
        if prepared is None:
            return SideRef()
        return SideRef(ref=prepared.ref, sha=prepared.sha)

    @model_validator(mode="before")
    @classmethod
    def _known_kind(cls, doc: object, info: ValidationInfo[object]) -> object:
        """A manifest read from a file says first what measured the run, and an ``e2e`` run's
        both sides (its steps ran them); one the run is making is filled in as it goes."""
        if not isinstance(doc, dict) or not isinstance(info.context, Reading):
            return doc
        kind = doc.get("kind", "ab")
        if kind not in KINDS:
            raise ValueError(f"'kind' is {kind!r}, not one of {', '.join(KINDS)}")
        sides = doc.get("sides")
        if kind == "e2e" and (
            not isinstance(sides, dict)
            or not all(isinstance(sides.get(s), dict) for s in ("base", "head"))
        ):
            raise ValueError("'sides' does not hold a 'base' and a 'head' object")
        return doc

    @classmethod
    def refusal(cls, exc: ValidationError, source: str) -> Exception:
        """The entry named alone (``'steps[0].round' is not a whole number``): each caller
        says which file and why it was reading it."""
        return ManifestShapeError(problem_line(exc))
