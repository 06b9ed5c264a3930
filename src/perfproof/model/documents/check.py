"""``perfproof.check/1``: what ``check --format json`` prints, typed once here."""

from __future__ import annotations

from typing import ClassVar

from pydantic import Field

from perfproof.model.documents.codec import Document

CHECK_SCHEMA = "perfproof.check/1"


class MismatchDoc(Document):
    """A number (or word) of the document that the run does not support, and what it holds."""

    line: int
    kind: str
    quoted: str
    expected: str
    message: str


class CheckDocument(Document):
    """How many numbers were checked and tied to the run, and each mismatch."""

    nulls_written: ClassVar[bool] = True

    schema_: str = Field(CHECK_SCHEMA, alias="schema")
    file: str
    run_dir: str
    ok: bool
    checked: int
    unattributed: int
    compared_with: str | None
    excused: int
    mismatches: list[MismatchDoc]
