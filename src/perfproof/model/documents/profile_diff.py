"""``perfproof.profile-diff/1``: a profile diff as ``profile diff --format json`` writes it and a
prove bundle keeps it, typed, so a report renders the diff's tables from fields rather than
from a dict (``perfproof.profile.render`` turns it into the diff it was written from and back).

A row's values per recording are written as they were measured: sample counts stay whole
numbers, rates stay fractions. A number that was not finite is written as null.
"""

from __future__ import annotations

from pydantic import Field

from perfproof.model.documents.codec import Document, Kept
from perfproof.model.documents.compare_wire import Pair

DIFF_SCHEMA = "perfproof.profile-diff/1"

Number = int | float
"""A recording's own value: a count of samples or bytes, or a rate."""


class DiffRowDoc(Document):
    """One frame (or one allocated class under a frame) before and after, with its change."""

    frame: str
    kind: str
    """``cpu`` or ``alloc``."""
    focus_frame: str | None = None
    class_: str | None = Field(None, alias="class")
    before_mean: float | None
    after_mean: float | None
    ci: Pair | None = Field(None, strict=False)
    """The interval of the change (Welch), null with fewer than two recordings a side."""
    change: float | None
    change_pct: float | None = None
    status: str = ""
    p_value: float | None = None
    shares: Pair | None = Field(None, strict=False)
    outside: bool = False
    before: list[Number] = Field(default_factory=list)
    after: list[Number] = Field(default_factory=list)


class ProfileDiffDoc(Kept):
    """A whole diff: the recordings of both sides, the focus, the unit of each kind, the
    confidence of the intervals, the rows and the warnings. Written as held: a prove bundle
    from before the diff was kept reads (and writes back) ``{}``."""

    schema_: str = Field(DIFF_SCHEMA, alias="schema")
    before: list[str] = Field(default_factory=list)
    after: list[str] = Field(default_factory=list)
    focus: list[str] = Field(default_factory=list)
    unit: dict[str, str] = Field(default_factory=dict)
    confidence: float = 0.95
    rows: list[DiffRowDoc] = Field(default_factory=list)
    warnings: list[str] = Field(default_factory=list)
