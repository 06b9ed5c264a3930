"""What one history record holds, built from an ``ab`` run folder, a compare, or a JMH file.

A record is everything needed to redraw a key's series later without the files: the per-fork
iteration values in the canonical unit (so intervals can be recomputed with any method), the
comparisons as the compare document wrote them, the commits and refs, the branch, when it ran,
the JMH and JDK versions and the machine. Its ``uid`` makes recording idempotent: an ``ab`` run
is known by its id, start time and commits; a plain JMH file by its content hash and commit.

A record may carry a machine *name* (``--machine``, ``$PERFPROOF_MACHINE``): the kind of runner
or testbed it was measured on, which keeps series of different runners apart. Nothing invents
one: a record without a name is unnamed, not named after the host that happened to record it,
because a host name says nothing about which runs are comparable (CI runners of one kind have
many host names, and one host can change kind).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal

from perfproof.errors import InputError
from perfproof.jmh.reader import load_json, read_results
from perfproof.model import BenchKey, Samples
from perfproof.model.documents import json_safe
from perfproof.model.documents.compare_wire import ComparisonDoc, comparison_rows
from perfproof.model.documents.run import Environment, SideRef
from perfproof.model.documents.run_plan import Machine

_SHA = re.compile(r"^[0-9a-f]{7,64}$")

MACHINE_ENV = "PERFPROOF_MACHINE"
MACHINE_MAX = 100


def check_machine(name: str, flag: str = "--machine") -> str:
    """A machine name as stored: trimmed, 1 to 100 printable characters.

    Refused at the door so a stray newline or an empty value from a CI variable never becomes
    a series of its own.
    """
    text = name.strip()
    if not text:
        raise InputError(f"{flag}: empty machine name (name the runner kind, e.g. ci-large)")
    if len(text) > MACHINE_MAX or not text.isprintable():
        raise InputError(
            f"{flag} {text[:40]!r}: not a machine name (1 to {MACHINE_MAX} printable characters)"
        )
    return text


def machine_name(flag: str | None, recorded: str | None = None) -> str | None:
    """The machine name a record is filed under: ``--machine``, else the name the run folder
    was measured under, else ``$PERFPROOF_MACHINE``, else None (unnamed).

    The run folder's own name comes before the variable because the variable describes the
    host recording now, the folder the host that measured.
    """
    if flag is not None:
        return check_machine(flag)
    if recorded:
        return recorded
    env = os.environ.get(MACHINE_ENV, "")
    return check_machine(env, MACHINE_ENV) if env.strip() else None


@dataclass(frozen=True)
class SampleRow:
    """One key's forks on one side of a record."""

    side: str
    commit: str | None
    key: BenchKey
    unit: str
    direction: str
    forks: list[list[float]]


@dataclass
class Record:
    """One recorded run: who it is, where and on what it was measured, and what it holds."""

    uid: str
    """Makes recording idempotent (see the module docstring)."""
    kind: Literal["ab", "compare", "jmh"]
    run_time: str
    """When it ran, UTC (:func:`iso_time`)."""
    run_id: str | None = None
    """The ``ab`` run's folder id; None for a compare or a plain JMH file."""
    branch: str | None = None
    base: SideRef = field(default_factory=SideRef)
    head: SideRef = field(default_factory=SideRef)
    """Each side's commit, and its ref as the user spelled it (an ``ab`` run), as the run's
    manifest holds them."""
    source: str | None = None
    """The folder or file it was read from."""
    jmh_version: str | None = None
    jdk_version: str | None = None
    machine: Machine = field(default_factory=Machine)
    """The host facts that make two runs comparable (or not); its host name is never set."""
    machine_name: str | None = None
    """The runner kind it was measured on (``--machine``); None: unnamed."""
    samples: list[SampleRow] = field(default_factory=list)
    comparisons: list[ComparisonDoc] = field(default_factory=list)
    """The comparisons as the compare document wrote them (another writer's fields kept)."""

    @property
    def commit(self) -> str | None:
        """The commit measured: the head side's."""
        return self.head.sha


def params_text(key: BenchKey) -> str:
    """The canonical text of a key's @Params: sorted JSON, equal for equal parameter sets."""
    return params_json(key.params_dict)


def params_json(params: dict[str, Any]) -> str:
    """The canonical text of a @Param mapping as the ``params`` columns hold it."""
    return json.dumps(params, sort_keys=True, separators=(",", ":"), allow_nan=False)


def iso_time(text: str | None, flag: str = "--time") -> str:
    """``2026-01-02T03:04:05Z`` (UTC, seconds) from any ISO 8601 time; now when None.

    One spelling makes the text sortable the same way in SQLite and PostgreSQL.
    """
    if text is None:
        moment = datetime.now(UTC)
    else:
        try:
            moment = datetime.fromisoformat(text.strip())
        except ValueError:
            raise InputError(
                f"{flag} {text}: not an ISO 8601 time (e.g. 2026-01-02T03:04:05Z)"
            ) from None
        if moment.tzinfo is None:
            moment = moment.replace(tzinfo=UTC)
    try:  # 9999-12-31T23:59:59-23:59 is past the last moment a datetime holds in UTC
        return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    except OverflowError:
        raise InputError(f"{flag} {text}: out of range in UTC (years 1 to 9999)") from None


def _rows(side: str, commit: str | None, samples: dict[BenchKey, Samples]) -> list[SampleRow]:
    return [
        SampleRow(
            side,
            commit,
            key,
            s.unit,
            str(s.direction),
            [[float(v) for v in fork] for fork in s.forks],
        )
        for key, s in sorted(samples.items())
        if s.forks
    ]


def _branch_from_ref(ref: str | None) -> str | None:
    """A ref that names a branch (not HEAD, not a SHA, not a merge-base spec), else None."""
    if not ref or ref == "HEAD" or _SHA.match(ref) or ":" in ref or "~" in ref or "^" in ref:
        return None
    return ref


def _jmh_version(value: Any) -> str | None:
    if isinstance(value, dict):
        versions = sorted({str(v) for v in value.values() if v})
        return ", ".join(versions) or None
    return str(value) if value else None


def machine_facts(environment: Environment) -> Machine:
    """The facts about the host that make two runs comparable (or not)."""
    return Machine(
        cpu_model=environment.cpu_model,
        cores=environment.cores,
        memory_bytes=environment.memory_bytes,
        os=environment.os,
    )


def from_run_dir(path: Path, branch: str | None = None, machine: str | None = None) -> Record:
    """A finished ``ab`` run folder: its manifest, raw JMH files and results.json.

    ``machine`` is ``--machine``; without it the name ``ab --machine`` stored in the manifest
    applies (see :func:`machine_name`).
    """
    from perfproof.report.rundir import BASE, HEAD, load_run

    run = load_run(path)
    manifest = run.manifest
    if not (path / "manifest.json").is_file():
        raise InputError(
            f"{path}: no manifest.json; record plain JMH files with "
            "`perfproof history record FILE --commit SHA`"
        )
    base, head = manifest.side(BASE), manifest.side(HEAD)
    env = manifest.environment
    stored = manifest.options.machine
    if stored is not None:
        stored = check_machine(stored, f"{path / 'manifest.json'}: options.machine")
    run_id = manifest.id or path.name
    stamp = manifest.created or manifest.updated
    if stamp is None:  # a hand-made folder: when its manifest was written is the best guess
        when = datetime.fromtimestamp((path / "manifest.json").stat().st_mtime, UTC)
        stamp = when.isoformat()
    created = iso_time(str(stamp), f"{path / 'manifest.json'}: created")
    head_sha, base_sha = head.sha, base.sha
    uid = f"run/{run_id}/{created}/{base_sha or '-'}/{head_sha or '-'}"
    record = Record(
        uid=uid,
        kind="ab",
        run_time=created,
        run_id=run_id,
        branch=branch or _branch_from_ref(head.ref),
        base=base,
        head=head,
        source=str(path.resolve()),
        jmh_version=_jmh_version(env.jmh_versions or env.jmh_version),
        jdk_version=env.jdk.version if env.jdk else None,
        machine=machine_facts(env),
        machine_name=machine_name(machine, stored),
        comparisons=comparison_rows(run.document.dump()["comparisons"], str(path / "results.json")),
    )
    for side, sha in ((BASE, base_sha), (HEAD, head_sha)):
        files = [r.path for r in run.raw_for(side)]
        if files:
            record.samples.extend(_rows(side, sha, read_results(files)))
    if not any(r.side == HEAD for r in record.samples):
        raise InputError(f"{path}: no JMH results of the head side under jmh/")
    return record


def _measured_here(
    kind: Literal["compare", "jmh"],
    prefix: str,
    content: bytes,
    commit: str,
    branch: str | None,
    time: str | None,
    machine: str | None,
) -> Record:
    """A record of results measured on this machine, named by a digest of what it holds and
    the commit: importing the same results twice finds the record already there."""
    from perfproof.measure.environment import machine_environment

    digest = hashlib.sha256(content).hexdigest()[:32]
    return Record(
        uid=f"{prefix}/{digest}/{commit}",
        kind=kind,
        run_time=iso_time(time),
        branch=branch,
        head=SideRef(sha=commit),
        machine=machine_facts(machine_environment()),
        machine_name=machine_name(machine),
    )


def from_jmh_file(
    path: Path, commit: str, branch: str | None, time: str | None, machine: str | None = None
) -> Record:
    """A plain JMH ``-rf json`` file from a pipeline that does not use ``ab``; ``machine`` is
    ``--machine`` (else ``$PERFPROOF_MACHINE``, else unnamed)."""

    if not commit:
        raise InputError(f"{path}: a plain JMH file needs --commit SHA")
    content = Path(path).read_bytes() if Path(path).is_file() else b""
    entries = load_json(path)
    samples = read_results([path])
    first = entries[0] if isinstance(entries, list) and entries else {}
    return replace(
        _measured_here("jmh", "file", content, commit, branch, time, machine),
        source=str(Path(path).resolve()),
        jmh_version=first.get("jmhVersion"),
        jdk_version=first.get("jdkVersion"),
        samples=_rows("head", commit, samples),
    )


def from_compare(
    base: dict[BenchKey, Samples],
    head: dict[BenchKey, Samples],
    document: dict[str, Any],
    *,
    commit: str,
    branch: str | None,
    base_commit: str | None = None,
    time: str | None = None,
    machine: str | None = None,
) -> Record:
    """A finished ``compare``: both sides' forks and the comparisons, at ``commit``;
    ``machine`` is ``--machine`` (else ``$PERFPROOF_MACHINE``, else unnamed)."""

    payload = json.dumps(
        json_safe([document.get("comparisons"), commit, base_commit]),
        sort_keys=True,
        default=str,
        allow_nan=False,
    )
    return replace(
        _measured_here("compare", "compare", payload.encode(), commit, branch, time, machine),
        base=SideRef(sha=base_commit),
        samples=_rows("base", base_commit, base) + _rows("head", commit, head),
        comparisons=comparison_rows(document.get("comparisons"), "the compare document"),
    )
