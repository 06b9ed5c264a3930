"""The ``perfproof.run/1`` manifest of a run folder (``ab``, ``guard`` and ``e2e`` alike).

The manifest is written step by step while a run goes on and read back by ``--resume``,
``report``, ``check`` and ``merge``; this module is the one description of it both sides use.
:class:`Environment` is the machine block (JDK, JMH version, CPU, cores, memory, OS, load before
and after): :mod:`perfproof.measure.environment` fills it in and :mod:`perfproof.report.environment`
reads it, so a key the reader looks for is a key the writer writes.

The run machinery fills the manifest in as it works (the plan, the steps, the builds); every
writer and reader goes through the fields of :class:`RunManifest`, never through string keys.
:meth:`RunManifest.from_json` checks each entry and names the first one that is not of the type
perfproof writes (a hand edit), and keeps entries it does not know, so a run folder written by
a newer minor version still opens. Blocks owned by another part of perfproof (the plan, the
verb's options, a shard's or the cluster's partition, the stopping state) are kept as the JSON
objects their owners read with their own ``from_json``.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any

from perfproof.model.documents import check_document, schema_id

NAME = "run"
MAJOR = 1
SCHEMA = schema_id(NAME, MAJOR)

KINDS = ("ab", "e2e")
"""What measured the run: JMH steps (``ab`` and ``guard``) or whole commands (``e2e``)."""


class ManifestShapeError(ValueError):
    """An entry of a manifest is not of the type perfproof writes (the message names it)."""


def _expect(value: Any, kind: type | tuple[type, ...], where: str, what: str) -> Any:
    if value is not None and (not isinstance(value, kind) or isinstance(value, bool)):
        raise ManifestShapeError(f"'{where}' is not {what}")
    return value


def _number_list(value: Any, where: str) -> list[float] | None:
    if value is None:
        return None
    if not isinstance(value, list) or not all(
        isinstance(v, int | float) and not isinstance(v, bool) for v in value
    ):
        raise ManifestShapeError(f"'{where}' is not a list of numbers")
    return [float(v) for v in value]


@dataclass
class Environment:
    """The machine and the tools a run measured with; every field may be unknown (None)."""

    cpu_model: str | None = None
    cores: int | None = None
    memory_bytes: int | None = None
    os: str | None = None
    python: str | None = None
    perfproof_version: str | None = None
    jdk: dict[str, Any] | None = None
    """``perfproof.env.java.JavaInfo`` as JSON: path, home, vendor, version, runtime_version,
    vm_name."""
    jmh_version: str | None = None
    """The JMH version(s) both sides ran, ``"1.37"`` or ``"1.36 / 1.37"``."""
    jmh_versions: dict[str, str | None] = field(default_factory=dict)
    """Per side, when known."""
    git: dict[str, str] = field(default_factory=dict)
    """Side → commit SHA."""
    load_before: list[float] | None = None
    """1, 5 and 15 minute load averages before the first step."""
    load_after: list[float] | None = None
    """The same after the last step (None while the run goes on)."""
    machines: list[dict[str, Any]] | None = None
    """A run merged from shards or cluster groups: each shard's machine block."""
    extra: dict[str, Any] = field(default_factory=dict)
    """Entries this version does not know, kept as they are."""

    def to_json(self) -> dict[str, Any]:
        doc = {f.name: getattr(self, f.name) for f in fields(self) if f.name != "extra"}
        if doc["machines"] is None:
            del doc["machines"]
        for name in ("jmh_versions", "git"):  # absent rather than empty, as older runs wrote
            if doc[name]:
                doc[name] = dict(doc[name])
            else:
                del doc[name]
        return {**self.extra, **doc}

    @classmethod
    def from_json(cls, doc: Any) -> Environment:
        """Check and read an ``environment`` block (:class:`ManifestShapeError` names a bad
        entry)."""
        if doc is None:
            return cls()
        if not isinstance(doc, dict):
            raise ManifestShapeError("'environment' is not a JSON object")
        known = {f.name for f in fields(cls)} - {"extra"}
        jmh = doc.get("jmh_version")
        if isinstance(jmh, dict):  # older runs kept the per-side versions here
            jmh = " / ".join(sorted({str(v) for v in jmh.values() if v})) or None
        jmh_versions = _expect(doc.get("jmh_versions"), dict, "environment.jmh_versions",
                               "a JSON object") or {}  # fmt: skip
        git = _expect(doc.get("git"), dict, "environment.git", "a JSON object") or {}
        return cls(
            cpu_model=_text(doc.get("cpu_model"), "environment.cpu_model"),
            cores=_expect(doc.get("cores"), int, "environment.cores", "a whole number"),
            memory_bytes=_expect(
                doc.get("memory_bytes"), int, "environment.memory_bytes", "a whole number"
            ),
            os=_text(doc.get("os"), "environment.os"),
            python=_text(doc.get("python"), "environment.python"),
            perfproof_version=_text(doc.get("perfproof_version"), "environment.perfproof_version"),
            jdk=_expect(doc.get("jdk"), dict, "environment.jdk", "a JSON object"),
            jmh_version=_text(jmh, "environment.jmh_version"),
            jmh_versions={str(k): (None if v is None else str(v)) for k, v in jmh_versions.items()},
            git={str(k): str(v) for k, v in git.items()},
            load_before=_number_list(doc.get("load_before"), "environment.load_before"),
            load_after=_number_list(doc.get("load_after"), "environment.load_after"),
            machines=_object_list(doc.get("machines"), "environment.machines"),
            extra={k: v for k, v in doc.items() if k not in known},
        )


def _text(value: Any, where: str) -> str | None:
    if value is None:
        return None
    if isinstance(value, int | float) and not isinstance(value, bool):
        return str(value)
    text: str = _expect(value, str, where, "a string")
    return text


JsonObject = dict[str, Any]
"""A block whose owner reads it with its own ``from_json`` (plan, options, shard, stopping)."""


def _object_list(value: Any, where: str) -> list[JsonObject] | None:
    if value is None:
        return None
    if not isinstance(value, list):
        raise ManifestShapeError(f"'{where}' is not a JSON list")
    for i, item in enumerate(value):
        if not isinstance(item, dict):
            raise ManifestShapeError(f"'{where}[{i}]' is not a JSON object")
    return list(value)


def _object(value: Any, where: str) -> JsonObject | None:
    if value is None:
        return None
    if not isinstance(value, dict):
        raise ManifestShapeError(f"'{where}' is not a JSON object")
    return value


def _text_list(value: Any, where: str) -> list[str]:
    if value is None:
        return []
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ManifestShapeError(f"'{where}' is not a list of strings")
    return list(value)


@dataclass
class SideRef:
    """What one side measured: the ref as the user spelled it and the commit it resolved to."""

    ref: str | None = None
    sha: str | None = None
    extra: JsonObject = field(default_factory=dict)

    def to_json(self) -> JsonObject:
        doc: JsonObject = dict(self.extra)
        if self.ref is not None:
            doc["ref"] = self.ref
        if self.sha is not None:
            doc["sha"] = self.sha
        return doc

    @classmethod
    def from_json(cls, doc: Any, where: str) -> SideRef:
        if not isinstance(doc, dict):
            raise ManifestShapeError(f"'{where}' is not a JSON object")
        return cls(
            ref=_text(doc.get("ref"), f"{where}.ref"),
            sha=_text(doc.get("sha"), f"{where}.sha"),
            extra={k: v for k, v in doc.items() if k not in ("ref", "sha")},
        )


@dataclass
class Overlay:
    """``--overlay``: files copied from one side onto the other before building it."""

    paths: list[str] = field(default_factory=list)
    source: str = "head"
    onto: str = "base"
    files: list[str] = field(default_factory=list)
    """The files actually copied (known once the side is built)."""

    def to_json(self) -> JsonObject:
        return {"paths": self.paths, "from": self.source, "onto": self.onto, "files": self.files}

    @classmethod
    def from_json(cls, doc: Any) -> Overlay | None:
        if doc is None:
            return None
        if not isinstance(doc, dict):
            raise ManifestShapeError("'overlay' is not a JSON object")
        return cls(
            paths=_text_list(doc.get("paths"), "overlay.paths"),
            source=_text(doc.get("from"), "overlay.from") or "head",
            onto=_text(doc.get("onto"), "overlay.onto") or "base",
            files=_text_list(doc.get("files"), "overlay.files"),
        )


_NUMBER = (int, float)
_ENTRY_FIELDS: dict[str, tuple[type, ...]] = {
    "id": (str,), "side": (str,), "kind": (str,), "status": (str,), "result": (str,),
    "log": (str,), "cwd": (str,), "key": (str,), "round": (int,), "argv": (list,),
    "command": (list, str), "duration_s": _NUMBER, "jmh_seconds": _NUMBER,
    "lock_wait_s": _NUMBER, "cached": (bool,), "recordings": (list,),
}  # fmt: skip
"""Fields of a step or build entry that readers use, and the types perfproof writes."""
_PLAN_FIELDS: dict[str, tuple[type, ...]] = {
    "rounds": (int,), "order": (str,), "stopping": (str,), "benchmarks": (list,),
    "jmh_options": (list,), "seed": (int,),
}  # fmt: skip
_STOPPING_FIELDS: dict[str, tuple[type, ...]] = {
    "design": (str,), "keys": (list,), "max_rounds": (int,), "rounds_run": (int,),
    "ended": (str,),
}  # fmt: skip


_TYPE_WORDS = {str: "a string", int: "a whole number", float: "a number", list: "a JSON list",
               bool: "true or false"}  # fmt: skip


def _check_fields(doc: JsonObject | None, where: str, types: dict[str, tuple[type, ...]]) -> None:
    """A field present with another type than perfproof writes is a hand edit: name it."""
    for name in doc or {}:
        expected = types.get(name)
        if expected is None or doc is None or doc[name] is None:
            continue
        value = doc[name]
        wrong_bool = isinstance(value, bool) and bool not in expected
        if wrong_bool or not isinstance(value, expected):
            what = " or ".join(_TYPE_WORDS[t] for t in expected)
            raise ManifestShapeError(f"'{where}.{name}' is not {what}")


_HEADER = ("id", "status", "created", "updated", "perfproof_version", "error", "repo")
_BLOCKS = ("options", "plan", "build_spec", "stopping", "shard", "merged", "cluster",
           "cluster_parts", "guard", "reach")  # fmt: skip
_LISTS = ("steps", "builds", "history", "shards")


@dataclass
class RunManifest:
    """A run folder's manifest, every entry a field (see the module docstring)."""

    kind: str = "ab"
    id: str | None = None
    status: str | None = None
    created: str | None = None
    updated: str | None = None
    perfproof_version: str | None = None
    error: str | None = None
    """Why the last attempt stopped (absent once a resume starts)."""
    repo: str | None = None
    command: list[str] = field(default_factory=list)
    """The argv that reproduces the run."""
    refs: dict[str, SideRef] = field(default_factory=dict)
    options: JsonObject = field(default_factory=dict)
    """The verb's options as written (``AbOptions``/``E2EOptions`` read them)."""
    plan: JsonObject | None = None
    build_spec: JsonObject | None = None
    overlay: Overlay | None = None
    environment: Environment = field(default_factory=Environment)
    steps: list[JsonObject] = field(default_factory=list)
    builds: list[JsonObject] = field(default_factory=list)
    history: list[JsonObject] = field(default_factory=list)
    benchmarks: dict[str, list[str]] | None = None
    """Side → the benchmarks its build listed."""
    stopping: JsonObject | None = None
    shard: JsonObject | None = None
    shards: list[JsonObject] | None = None
    merged: JsonObject | None = None
    cluster: JsonObject | None = None
    cluster_parts: JsonObject | None = None
    guard: JsonObject | None = None
    reach: JsonObject | None = None
    """``ab``: each benchmark's reach from the diff, known before the first look
    (:class:`perfproof.model.reach.RunReach`)."""
    sides: dict[str, JsonObject] | None = None
    """``e2e``: each side's prepared checkout and commands."""
    extra: JsonObject = field(default_factory=dict)
    """Entries this version does not know, kept as they are."""

    def side(self, side: str) -> SideRef:
        """The ref of ``side``: from ``refs``, or an ``e2e`` run's ``sides`` (an empty one when
        the run did not record it)."""
        if side in self.refs:
            return self.refs[side]
        prepared = (self.sides or {}).get(side) or {}
        ref, sha = prepared.get("ref"), prepared.get("sha")
        return SideRef(
            ref=ref if isinstance(ref, str) else None, sha=sha if isinstance(sha, str) else None
        )

    def to_json(self) -> JsonObject:
        doc: JsonObject = {"schema": SCHEMA, **self.extra}
        if self.kind != "ab":
            doc["kind"] = self.kind
        for name in _HEADER:
            value = getattr(self, name)
            if value is not None:
                doc[name] = value
        if self.command:
            doc["command"] = list(self.command)
        if self.refs:
            doc["refs"] = {side: ref.to_json() for side, ref in self.refs.items()}
        doc["options"] = self.options
        if self.overlay is not None:
            doc["overlay"] = self.overlay.to_json()
        if self.benchmarks is not None:
            doc["benchmarks"] = self.benchmarks
        if self.sides is not None:
            doc["sides"] = self.sides
        for name in _BLOCKS:
            value = getattr(self, name)
            if value is not None and name != "options":
                doc[name] = value
        for name in _LISTS:
            value = getattr(self, name)
            if value is not None:
                doc[name] = value
        doc["environment"] = self.environment.to_json()
        return doc

    @classmethod
    def from_json(cls, doc: Any, source: str, *, require_schema: bool = True) -> RunManifest:
        """Check the schema (InputError naming ``source``; skipped for a folder made by hand
        from ``compare`` data when ``require_schema`` is false) and every entry
        (:class:`ManifestShapeError` naming the entry)."""
        if require_schema or "schema" in doc:
            check_document(doc, source, NAME, MAJOR)
        blocks = {name: _object(doc.get(name), name) for name in _BLOCKS}
        lists = {name: _object_list(doc.get(name), name) for name in _LISTS}
        planned = (blocks["plan"] or {}).get("steps", [])
        if _object_list(planned, "plan.steps") is None and planned is not None:
            raise ManifestShapeError("'plan.steps' is not a JSON list")
        for name in ("steps", "builds"):
            for i, entry in enumerate(lists[name] or []):
                _check_fields(entry, f"{name}[{i}]", _ENTRY_FIELDS)
        for i, entry in enumerate(planned or []):
            _check_fields(entry, f"plan.steps[{i}]", _ENTRY_FIELDS)
        _check_fields(blocks["plan"], "plan", _PLAN_FIELDS)
        _check_fields(blocks["stopping"], "stopping", _STOPPING_FIELDS)
        _object_list((blocks["stopping"] or {}).get("keys"), "stopping.keys")
        refs_doc = _object(doc.get("refs"), "refs") or {}
        refs = {str(k): SideRef.from_json(v, f"refs.{k}") for k, v in refs_doc.items()}
        kind = doc.get("kind", "ab")
        if kind not in KINDS:
            raise ManifestShapeError(f"'kind' is {kind!r}, not one of {', '.join(KINDS)}")
        sides = doc.get("sides")
        if kind == "e2e" and (
            not isinstance(sides, dict)
            or not all(isinstance(sides.get(s), dict) for s in ("base", "head"))
        ):
            raise ManifestShapeError("'sides' does not hold a 'base' and a 'head' object")
        sides = _object(sides, "sides")
        benchmarks = _object(doc.get("benchmarks"), "benchmarks")
        known = {"schema", "kind", "command", "refs", "overlay", "benchmarks", "sides",
                 "environment", *_HEADER, *_BLOCKS, *_LISTS}  # fmt: skip
        header = {name: _text(doc.get(name), name) for name in _HEADER}
        return cls(
            kind=kind,
            id=header["id"],
            status=header["status"],
            created=header["created"],
            updated=header["updated"],
            perfproof_version=header["perfproof_version"],
            error=header["error"],
            repo=header["repo"],
            command=[str(a) for a in _text_list(_argv(doc.get("command")), "command")],
            refs=refs,
            options=blocks["options"] or {},
            plan=blocks["plan"],
            build_spec=blocks["build_spec"],
            overlay=Overlay.from_json(doc.get("overlay")),
            environment=Environment.from_json(doc.get("environment")),
            steps=lists["steps"] or [],
            builds=lists["builds"] or [],
            history=lists["history"] or [],
            benchmarks=(
                None
                if benchmarks is None
                else {str(k): _text_list(v, f"benchmarks.{k}") for k, v in benchmarks.items()}
            ),
            stopping=blocks["stopping"],
            shard=blocks["shard"],
            shards=lists["shards"],
            merged=blocks["merged"],
            cluster=blocks["cluster"],
            cluster_parts=blocks["cluster_parts"],
            guard=blocks["guard"],
            reach=blocks["reach"],
            sides=sides,
            extra={k: v for k, v in doc.items() if k not in known},
        )


def _argv(value: Any) -> Any:
    """An argv is a list of strings; numbers in it (a hand edit) are kept as their text."""
    if isinstance(value, list):
        return [str(v) if isinstance(v, int | float) and not isinstance(v, bool) else v
                for v in value]  # fmt: skip
    return value
