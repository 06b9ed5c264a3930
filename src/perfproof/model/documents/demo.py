"""``perfproof.demo/1``: what ``perfproof demo --format json`` prints, typed once here.

The demo runs four verbs, and an agent reading its JSON should find each one's document as
that verb prints it, not a second spelling of it: each A/B run's ``perfproof.compare/1`` (its
``results.json``), the ``perfproof.prove/1`` chain (null when it did not run) and each hunt's
``perfproof.hunt/1``. So the parts are typed by their own models and written as those write
themselves: nulls kept (``prove.json`` and ``hunt.json`` write theirs), numbers no JSON file
can hold written as null (a hunt's unknown interval).
"""

from __future__ import annotations

from typing import ClassVar

from pydantic import Field

from perfproof.model.documents import schema_id
from perfproof.model.documents.codec import Document
from perfproof.model.documents.compare import CompareDocument
from perfproof.model.documents.hunt import HuntResult
from perfproof.model.documents.prove import ProveDocument

NAME = "demo"
MAJOR = 1
SCHEMA = schema_id(NAME, MAJOR)


class DemoDocument(Document):
    """The sample project's path, each A/B run's comparisons by run name, the prove chain and
    each hunt by the ref it ran on."""

    versioned_as: ClassVar[tuple[str, int] | None] = (NAME, MAJOR)
    nulls_written: ClassVar[bool] = True
    finite_only: ClassVar[bool] = True

    schema_: str = Field(SCHEMA, alias="schema")
    project: str
    runs: dict[str, CompareDocument]
    prove: ProveDocument | None
    """None when the chain did not run (written as null)."""
    hunt: dict[str, HuntResult]
