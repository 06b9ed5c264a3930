"""What a project's own tests did on one side, as prove's tests stage records it: each test
case's outcome (read from JUnit XML by :mod:`perfproof.workspace.tests`) and the counts by
status."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field, PlainSerializer, computed_field

from perfproof.model.changes import ERROR, FAILED, PASSED, SKIPPED
from perfproof.model.documents.codec import Document

STATUSES = (PASSED, FAILED, ERROR, SKIPPED)


class TestCase(Document):
    """One test method's outcome: ``Class#method`` and passed, failed, error or skipped."""

    __test__ = False  # not a pytest test class

    name: str
    status: str
    message: str = ""

    @property
    def broken(self) -> bool:
        return self.status in (FAILED, ERROR)


def _seconds(value: float) -> float:
    return round(value, 3)


class TestRun(Document):
    """The selected tests run on one side, as prove's tests stage records it (the counts by
    status written beside the cases, for a reader that wants only them)."""

    __test__ = False  # not a pytest test class

    side: str
    sha: str
    command: list[str]
    cases: list[TestCase] = Field(default_factory=list)
    log: str = ""
    duration_s: Annotated[float, PlainSerializer(_seconds)] = 0.0

    @computed_field  # type: ignore[prop-decorator]
    @property
    def counts(self) -> dict[str, int]:
        out = dict.fromkeys(STATUSES, 0)
        for c in self.cases:
            out[c.status] += 1
        return out

    def status_of(self, name: str) -> str | None:
        for c in self.cases:
            if c.name == name:
                return c.status
        return None
