"""The ``perfproof.prove/1`` document: ``prove.json`` in a bundle folder.

One document holds everything ``prove`` found, stage by stage, and how far it got: each stage
has a status (``pending``, ``done``, ``skipped``, ``failed``), its timing, the reason it was
skipped or the error it stopped on, and its result. ``--resume BUNDLE`` reads it back and runs
only the stages that are not ``done`` or ``skipped``; the report is rendered from it alone.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar, cast

from perfproof.errors import InputError
from perfproof.model.documents import check_document, read_document, schema_id

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

PENDING = "pending"
DONE = "done"
SKIPPED = "skipped"
FAILED = "failed"

NOT_REACHED = "no benchmark reaches the changed code"
"""Why the measuring stages were skipped; the advice is said once, in :data:`NO_BENCHMARK`."""
NO_BENCHMARK = (
    f"{NOT_REACHED}: run with --bench REGEX to name one, or add a benchmark that calls it "
    "(prove then runs guard on it to check that it tells the commits apart)"
)
NO_CHANGE = "the change touches no production Java method: there is nothing to measure"

R = TypeVar("R")


@dataclass
class BundleView:
    """A bundle folder and its ``prove.json``, read-only, each stage's result decoded the
    first time it is read.

    The pipeline's ``Bundle`` adds the writes (stage bookkeeping, saving); renderers get the
    typed results read through this view (``ProveResults.of``), so that rendering never depends
    on the code that runs the stages.
    """

    path: Path
    doc: dict[str, Any]
    decoded: dict[str, object] = field(default_factory=dict, repr=False, compare=False)
    """Stage results already decoded, by stage: each is parsed once, however often it is read."""

    def stage(self, name: str) -> dict[str, Any]:
        entry: dict[str, Any] = self.doc["stages"][name]
        return entry

    def status(self, name: str) -> str:
        return str(self.stage(name)["status"])

    def result(self, name: str) -> dict[str, Any] | None:
        """A finished stage's result, None when it was skipped or has not run."""
        entry = self.stage(name)
        return entry.get("result") if entry["status"] == DONE else None

    def read(self, name: str, parse: Callable[[dict[str, Any]], R]) -> R | None:
        """A finished stage's result as its type (``ChangesResult.from_json``, …), decoded
        the first time it is read."""
        result = self.result(name)
        if result is None:
            return None
        if name not in self.decoded:
            try:
                self.decoded[name] = parse(result)
            except InputError as exc:
                raise InputError(f"{self.path / 'prove.json'}: stage {name}: {exc}") from exc
        return cast(R, self.decoded[name])


STATUSES = (PENDING, DONE, SKIPPED, FAILED)


def new_document(options: dict[str, Any], refs: dict[str, dict[str, str]]) -> dict[str, Any]:
    """A fresh document: every stage pending."""
    return {
        "schema": SCHEMA,
        "options": options,
        "refs": refs,
        "stages": {name: {"status": PENDING} for name in STAGES},
        "outcome": None,
    }


def check_prove(doc: Any, source: str) -> dict[str, Any]:
    """Check the schema and the stage table of a parsed document."""
    checked: dict[str, Any] = check_document(doc, source, NAME, MAJOR)
    doc = checked
    stages = doc.get("stages")
    if not isinstance(stages, dict) or not isinstance(doc.get("options"), dict):
        raise InputError(f"{source}: a {SCHEMA} document needs 'options' and 'stages' objects")
    for name in STAGES:
        entry = stages.setdefault(name, {"status": PENDING})
        if not isinstance(entry, dict) or entry.get("status") not in STATUSES:
            raise InputError(f"{source}: stage {name!r} has no valid status")
    return checked


def read_prove(path: Path) -> dict[str, Any]:
    """Read and check ``prove.json``."""
    return check_prove(read_document(path, NAME, MAJOR), str(path))
