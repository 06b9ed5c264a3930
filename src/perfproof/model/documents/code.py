"""``perfproof.callers/1`` and ``perfproof.scan/1``: what ``callers`` and ``scan`` print with
``--format json``, typed once here (``prove`` keeps a callers document in its bundle)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from pydantic import Field

from perfproof.model.documents.codec import Document

CALLERS_SCHEMA = "perfproof.callers/1"
SCAN_SCHEMA = "perfproof.scan/1"


class SiteDoc(Document):
    """One call site."""

    nulls_written: ClassVar[bool] = True

    file: str
    line: int
    column: int
    """1-based, as editors count."""
    caller: str
    kind: str
    confidence: str
    via: str
    scope: str
    source: str


class CallersDocument(Document):
    """The call sites of one method (production only, unless ``--all``) and their counts."""

    nulls_written: ClassVar[bool] = True

    schema_: str = Field(CALLERS_SCHEMA, alias="schema")
    method: str
    class_: str = Field(alias="class")
    arity: int | None
    production: int
    test: int
    benchmark: int
    exact: int
    likely: int
    distinct_callers: int
    library_primitive: bool
    sites: list[SiteDoc]


class RuleDoc(Document):
    """A scan rule a finding names: what it catches and the rewrite it suggests."""

    title: str
    explanation: str
    rewrite: str


@dataclass(frozen=True)
class Finding:
    """One rule's finding in production code: where, in which method, how much that method
    matters (production callers, or its profile share), and the line as written. The scan's
    own value and the entry of its document alike."""

    rule: str
    file: str
    line: int
    method: str
    """Enclosing method as ``Class.method`` (``Class.<init>``, ``Class.<clinit>``)."""
    method_fqn: str
    callers: int
    share: float | None
    shares: dict[str, float] | None
    detail: str
    source: str


class ScanDocument(Document):
    """The findings, ranked, with the rules they name."""

    nulls_written: ClassVar[bool] = True

    schema_: str = Field(SCAN_SCHEMA, alias="schema")
    ranked_by: str
    warnings: list[str]
    findings: list[Finding]
    rules: dict[str, RuleDoc]
