"""The records perfproof keeps on this machine for itself, beside the run folders: a build
cache entry (``perfproof.build/1``), the overlay record of a worktree, a ticket in JMH's lock
queue and the machine's empty-benchmark floor. Another perfproof process, maybe of another
version, reads what this one writes, so each is a document with its fields declared once here,
and a record of a wrong shape is told from a good one by the codec, never by a reader's own
``doc.get``.

None of them is the user's: a record perfproof cannot read is as if absent (a cache miss, a
ticket judged by the pid in its name), so :func:`read_record` raises and its callers decide.
"""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar, TypeVar

from pydantic import Field

from perfproof.model.documents import loads_strict
from perfproof.model.documents.codec import Document
from perfproof.model.documents.run import OwnRun

BUILD_SCHEMA = "perfproof.build/1"

D = TypeVar("D", bound=Document)


class CachedBuild(Document):
    """``builds/<key>/artifact.json``: what a cached build holds and how it was made. Paths
    inside the entry are relative to its folder; dependencies outside the worktree are
    absolute."""

    versioned_as: ClassVar[tuple[str, int] | None] = ("build", 1)
    nulls_written: ClassVar[bool] = True

    schema_: str = Field(BUILD_SCHEMA, alias="schema")
    sha: str
    kind: str
    jar: str | None = None
    classpath: list[str] = Field(default_factory=list)
    build_command: list[str]
    build_cwd: str
    overlaid: list[str] = Field(default_factory=list)
    tool: str = ""
    """The build tool that made it (which Maven, wrapper or Gradle), as the report names it."""
    own_run: OwnRun | None = None
    """The project's own command that runs these benchmarks (benchmarks in the test sources)."""


class OverlayRecord(Document):
    """The files overlaid onto a worktree since it was last made clean, each with its content
    hash (the build cache key includes them), and the commit they came from."""

    source_sha: str = ""
    files: dict[str, str] = Field(default_factory=dict)


class TicketRecord(Document):
    """A place in JMH's lock queue: whose (pid), what step, since when it waits and runs."""

    nulls_written: ClassVar[bool] = True

    pid: int
    what: str = ""
    queued_at: float = 0.0
    running_since: float | None = None


class FloorRecord(Document):
    """``floor/<key>.json``: the empty benchmark's time per operation on this machine and one
    JDK (:mod:`perfproof.measure.floor`), with the forks it is the mean of."""

    ns_per_op: float
    fork_means: list[float] = Field(default_factory=list)
    jmh: str = ""
    measured: str = ""
    """When (UTC, ISO 8601)."""
    machine: str = ""


def read_record(kind: type[D], path: Path) -> D:
    """The record at ``path`` as ``kind``; OSError when it cannot be read, InputError (naming
    the file and the field) when it is not JSON or not of that shape."""
    return kind.read(loads_strict(path.read_text(encoding="utf-8"), str(path)), str(path))
