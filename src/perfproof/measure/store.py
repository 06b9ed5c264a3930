"""The run folder: the manifest, the raw JMH files, the logs, the results and the report.

Layout (``.perfproof/runs/<id>/``)::

    manifest.json              schema, repo, refs→SHAs, options, plan, environment, builds, steps
    jmh/<round>-<side>.json    raw JMH output of one step, moved into place once, never rewritten
    logs/                      build-<side>[-rNN].log, <round>-<side>.jmh.log, list-<side>.log
    jfr/r<round>-<side>/       with --jfr: fork-N.jfr, one JFR recording per fork of the step
    results.json               the comparison (perfproof.compare/1 document plus run_dir)
    report.md                  a Markdown summary

Every write is atomic (temp file + rename), so a crash or ``kill -9`` leaves either the old or
the new version of a file, never half of one; that is what lets ``--resume`` trust the folder.
A step counts as finished when its raw file exists: the file is renamed into place only after
JMH succeeded and its content was checked, and the manifest is updated right after.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import secrets
import shutil
import time
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Protocol

from perfproof.errors import InputError
from perfproof.measure import environment
from perfproof.measure.plan import Plan, Step
from perfproof.model.documents import loads_strict, parse_schema
from perfproof.model.documents.run import (
    DONE,
    SCHEMA,
    BuildEntry,
    Environment,
    HistoryEvent,
    ManifestShapeError,
    RunManifest,
    StepEntry,
)
from perfproof.model.enums import RunStatus
from perfproof.storage import write_json_atomic, write_text_atomic

MANIFEST = "manifest.json"
RESULTS = "results.json"

PENDING = RunStatus.PENDING
RUNNING = RunStatus.RUNNING
FAILED = RunStatus.FAILED
INTERRUPTED = RunStatus.INTERRUPTED


def now_iso() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds").replace("+00:00", "Z")


def new_run_id(clock: float | None = None) -> str:
    """``20261122-101500-3f9a``: sorts by start time, unique enough for one repository."""
    stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime(clock if clock is not None else None))
    return f"{stamp}-{secrets.token_hex(2)}"


def default_runs_dir(repo: Path) -> Path:
    """``<repo>/.perfproof/runs``, with a ``.gitignore`` so git status stays as the user left it."""
    top = repo / ".perfproof"
    top.mkdir(exist_ok=True)
    ignore = top / ".gitignore"
    if not ignore.exists():
        write_text_atomic(ignore, "# perfproof run folders: not part of the project\n*\n")
    return top / "runs"


class StepRef(Protocol):
    """Any step the store keeps an entry for (an ``ab`` step, an ``e2e`` run): its id."""

    @property
    def id(self) -> str: ...


class RunStore:
    """One run folder and its manifest, kept in memory and written through atomically."""

    def __init__(self, path: Path, manifest: RunManifest) -> None:
        self.path = path
        self.manifest = manifest

    # -- creation and loading -------------------------------------------------------------

    @classmethod
    def create(
        cls, path: Path, manifest: RunManifest, *, folders: tuple[str, ...] = ("jmh", "logs")
    ) -> RunStore:
        """Start a new run folder; refuses a folder that already holds a run.

        ``folders`` are made inside it: ``jmh`` and ``logs`` for JMH steps, ``outputs`` and
        ``logs`` for the command steps of ``e2e``.
        """
        if (path / MANIFEST).exists():
            raise InputError(f"{path} already holds a run; use --resume {path} or another --out")
        if path.exists() and any(path.iterdir()):
            raise InputError(f"--out {path} is not empty")
        for name in folders:
            (path / name).mkdir(parents=True, exist_ok=True)
        manifest.created = manifest.created or now_iso()
        manifest.status = manifest.status or RUNNING
        store = cls(path, manifest)
        store.save()
        return store

    @classmethod
    def open(cls, path: Path, *, kind: str = "ab") -> RunStore:
        """Load an existing run folder of ``kind`` (``ab`` or ``e2e``) for ``--resume``.

        The manifest must be strict JSON of schema ``perfproof.run/1`` whose entries have the
        types perfproof writes (:class:`~perfproof.model.documents.run.RunManifest`); anything
        else is one line naming the folder and what is wrong (exit 2).
        """
        manifest_path = path / MANIFEST
        if not manifest_path.is_file():
            raise InputError(f"--resume {path}: no {MANIFEST} (not a perfproof run folder)")
        try:
            text = manifest_path.read_text(encoding="utf-8")
        except (OSError, ValueError) as exc:  # ValueError: not UTF-8
            raise InputError(f"--resume {path}: unreadable {MANIFEST}: {exc}") from exc
        source = f"--resume {path}: {MANIFEST}"
        doc = loads_strict(text, f"--resume {path}: unreadable {MANIFEST}")
        if not isinstance(doc, dict) or parse_schema(doc.get("schema")) is None:
            raise InputError(f"{source} is not a {SCHEMA} manifest")
        try:
            typed = RunManifest.read(doc, source)
        except ManifestShapeError as exc:
            raise InputError(f"--resume {path}: {MANIFEST} was edited: {exc}") from None
        if typed.kind != kind:
            raise InputError(
                f"--resume {path}: an {typed.kind} run folder; resume it with perfproof "
                f"{typed.kind} --resume"
            )
        return cls(path, typed)

    @property
    def environment(self) -> Environment:
        return self.manifest.environment

    def discard_if_unused(self) -> bool:
        """Remove the folder when no step finished: an error found before any measurement
        leaves nothing to resume, and a folder with a "continue with --resume" hint would
        only fail again. Returns whether the folder was removed."""
        if any(e.done for e in self.manifest.steps):
            return False
        shutil.rmtree(self.path, ignore_errors=True)
        return True

    @contextlib.contextmanager
    def exclusive(self) -> Iterator[None]:
        """Hold the folder's lock: two processes working on one run would corrupt it."""
        lock_path = self.path / ".lock"
        fd = os.open(lock_path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError as exc:
                raise InputError(f"{self.path} is in use by another perfproof process") from exc
            yield
        finally:
            os.close(fd)

    # -- paths ----------------------------------------------------------------------------

    def result_path(self, step: Step) -> Path:
        return self.path / "jmh" / f"{step.id}.json"

    def partial_path(self, step: Step) -> Path:
        """Where JMH writes while it runs; moved to :meth:`result_path` once checked."""
        return self.path / "jmh" / f".{step.id}.partial.json"

    def step_log(self, step: Step) -> Path:
        return self.path / "logs" / f"{step.id}.jmh.log"

    def jfr_dir(self) -> Path:
        """With ``--jfr``: ``r<round>-<side>/fork-N.jfr`` under it (listed in each step entry)."""
        return self.path / "jfr"

    def build_log(self, side: str, round_no: int | None = None) -> Path:
        suffix = f"-r{round_no:02d}" if round_no is not None else ""
        return self.path / "logs" / f"build-{side}{suffix}.log"

    def rel(self, path: Path) -> str:
        """A path relative to the run folder, for the manifest (the folder may move)."""
        try:
            return str(path.relative_to(self.path))
        except ValueError:
            return str(path)

    # -- manifest bookkeeping ---------------------------------------------------------------

    def save(self) -> None:
        self.manifest.updated = now_iso()
        write_json_atomic(self.path / MANIFEST, self.manifest.dump())

    @property
    def plan(self) -> Plan:
        if self.manifest.plan is None:
            raise InputError(f"{self.path / MANIFEST}: the run has no plan")
        plan = self.manifest.plan
        if plan.jmh_settings is None:  # a run folder written before plans kept them
            plan = plan.model_copy(update={"jmh_settings": plan.settings})
        return plan

    def init_steps(self, plan: Plan) -> None:
        """One manifest entry per planned step, all pending (done once, at creation)."""
        self.manifest.plan = plan
        self.manifest.steps = [self._new_entry(step) for step in plan.steps]
        self.save()

    def add_steps(self, plan: Plan, steps: list[Step]) -> None:
        """Record a later round's steps, pending (a sequential run plans round by round);
        ``plan`` already holds them."""
        self.manifest.plan = plan
        self.manifest.steps.extend(self._new_entry(step) for step in steps)
        self.save()

    def _new_entry(self, step: Step) -> StepEntry:
        return StepEntry.model_validate(
            {
                **step.model_dump(exclude_none=True),
                "kind": "jmh",
                "status": PENDING,
                "result": self.rel(self.result_path(step)),
                "log": self.rel(self.step_log(step)),
            }
        )

    def step_entry(self, step: StepRef) -> StepEntry:
        for entry in self.manifest.steps:
            if entry.id == step.id:
                return entry
        raise KeyError(step.id)

    def update_step(self, step: StepRef, **fields: Any) -> None:
        """Set fields of a step's entry (a field the entry does not declare is kept beside)."""
        entry = self.step_entry(step)
        for name, value in fields.items():
            setattr(entry, name, value)
        self.save()

    def is_finished(self, step: Step) -> bool:
        """A step is finished when its raw file is in place (it is moved there only when good)."""
        return self.result_path(step).is_file()

    def pending_steps(self) -> list[Step]:
        """Steps still to run, in plan order; reconciles the manifest with the files on disk.

        A step whose file exists is finished even if the manifest did not get to say so (a
        crash between the rename and the manifest write); a step the manifest calls finished
        without a file (deleted by hand) is run again.
        """
        todo: list[Step] = []
        changed = False
        for step in self.plan.steps:
            entry = self.step_entry(step)
            if self.is_finished(step):
                if not entry.done:
                    entry.status = DONE
                    if entry.note is None:
                        entry.note = "recovered: result file present after a crash"
                    changed = True
                continue
            if entry.status != PENDING:
                entry.previous_status = entry.status
                entry.status = PENDING
                changed = True
            todo.append(step)
        if changed:
            self.save()
        return todo

    def finished_result_files(self, side: str) -> list[Path]:
        return [
            self.result_path(s) for s in self.plan.steps if s.side == side and self.is_finished(s)
        ]

    def record_build(self, entry: BuildEntry) -> None:
        self.manifest.builds.append(entry)
        self.save()

    def set_status(self, status: RunStatus, *, error: str | None = None) -> None:
        self.manifest.status = status
        if error is not None:
            self.manifest.error = error
        self.save()

    def close(self, status: RunStatus, error: str | None = None) -> None:
        """End this attempt with ``status``: the machine's load after the run is taken unless an
        earlier step already did, and the error (if any) is kept for ``--resume`` to show."""
        env = self.manifest.environment
        if env.load_after is None:
            env.load_after = environment.load_average()
        if error:
            self.manifest.error = error
        self.set_status(status)

    def add_event(self, kind: str, **fields: Any) -> None:
        """Append to the run's history (started, interrupted, resumed, failed, done)."""
        self.manifest.history.append(
            HistoryEvent.model_validate({"event": kind, "at": now_iso(), **fields})
        )
        self.save()

    # -- outputs ----------------------------------------------------------------------------

    def write_results(self, doc: dict[str, Any]) -> Path:
        return write_json_atomic(self.path / RESULTS, doc)
