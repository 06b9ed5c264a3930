"""The ``perfproof.run/1`` manifest of a run folder (``ab``, ``guard`` and ``e2e`` alike).

The manifest is written step by step while a run goes on and read back by ``--resume``,
``report``, ``check`` and ``merge``; this module is the one description of it both sides use.
:class:`Environment` is the machine block (JDK, JMH version, CPU, cores, memory, OS, load before
and after): :mod:`perfproof.measure.environment` fills it in and :mod:`perfproof.report.environment`
reads it, so a key the reader looks for is a key the writer writes.

The run machinery adds entries as it works (the plan, the steps, the builds), so the manifest
stays a JSON object in memory; :meth:`RunManifest.from_json` checks every entry a reader relies
on and names the first one that is not of the type perfproof writes (a hand edit), and keeps
entries it does not know, so a run folder written by a newer minor version still opens.
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
    extra: dict[str, Any] = field(default_factory=dict)
    """Entries this version does not know, kept as they are."""

    def to_json(self) -> dict[str, Any]:
        doc = {f.name: getattr(self, f.name) for f in fields(self) if f.name != "extra"}
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
            extra={k: v for k, v in doc.items() if k not in known},
        )


def _text(value: Any, where: str) -> str | None:
    if value is None:
        return None
    if isinstance(value, int | float) and not isinstance(value, bool):
        return str(value)
    text: str = _expect(value, str, where, "a string")
    return text


_SHAPE: dict[str, tuple[type, str]] = {
    "refs": (dict, "a JSON object"),
    "plan": (dict, "a JSON object"),
    "steps": (list, "a JSON list"),
    "options": (dict, "a JSON object"),
    "builds": (list, "a JSON list"),
    "history": (list, "a JSON list"),
}
"""Types of the manifest entries readers rely on; perfproof writes them so, a hand edit may not."""


@dataclass
class RunManifest:
    """A run folder's manifest: the typed header and environment, the rest as written."""

    kind: str = "ab"
    id: str | None = None
    status: str | None = None
    created: str | None = None
    perfproof_version: str | None = None
    environment: Environment = field(default_factory=Environment)
    steps: list[dict[str, Any]] = field(default_factory=list)
    entries: dict[str, Any] = field(default_factory=dict)
    """Every other entry (refs, options, plan, builds, sides, history, …) as written."""

    def to_json(self) -> dict[str, Any]:
        head: dict[str, Any] = {"schema": SCHEMA}
        if self.kind != "ab":
            head["kind"] = self.kind
        for name in ("id", "status", "created", "perfproof_version"):
            value = getattr(self, name)
            if value is not None:
                head[name] = value
        return {
            **head,
            **self.entries,
            "environment": self.environment.to_json(),
            "steps": list(self.steps),
        }

    @classmethod
    def from_json(cls, doc: Any, source: str) -> RunManifest:
        """Check the schema (InputError naming ``source``) and the shape of every entry a
        reader relies on (:class:`ManifestShapeError` naming the entry)."""
        check_document(doc, source, NAME, MAJOR)
        for key, (kind, what) in _SHAPE.items():
            if key in doc and not isinstance(doc[key], kind):
                raise ManifestShapeError(f"'{key}' is not {what}")
        plan = doc.get("plan") or {}
        planned = plan.get("steps", [])
        if not isinstance(planned, list):
            raise ManifestShapeError("'plan.steps' is not a JSON list")
        steps = doc.get("steps") or []
        entries = [*steps, *planned, *(doc.get("builds") or [])]
        if not all(isinstance(e, dict) for e in entries):
            raise ManifestShapeError("a step or build entry is not a JSON object")
        refs = doc.get("refs") or {}
        if not all(isinstance(refs.get(side, {}), dict) for side in ("base", "head")):
            raise ManifestShapeError("'refs.base' or 'refs.head' is not a JSON object")
        kind = doc.get("kind", "ab")
        if kind not in KINDS:
            raise ManifestShapeError(f"'kind' is {kind!r}, not one of {', '.join(KINDS)}")
        if kind == "e2e":
            sides = doc.get("sides")
            if not isinstance(sides, dict) or not all(
                isinstance(sides.get(s), dict) for s in ("base", "head")
            ):
                raise ManifestShapeError("'sides' does not hold a 'base' and a 'head' object")
        header = {"schema", "kind", "id", "status", "created", "perfproof_version",
                  "environment", "steps"}  # fmt: skip
        return cls(
            kind=kind,
            id=_text(doc.get("id"), "id"),
            status=_text(doc.get("status"), "status"),
            created=_text(doc.get("created"), "created"),
            perfproof_version=_text(doc.get("perfproof_version"), "perfproof_version"),
            environment=Environment.from_json(doc.get("environment")),
            steps=list(steps),
            entries={k: v for k, v in doc.items() if k not in header},
        )
