"""The ``sequential`` section of ``compare --sequential --format json`` (a
``perfproof.compare/1`` document): the design of the looks and where each entry stopped."""

from __future__ import annotations

from typing import Annotated

from perfproof.model.diagnostics import ByValue
from perfproof.model.documents.codec import Document
from perfproof.model.enums import Family


class ReplayEntryDoc(Document):
    """One entry of a replay: whether and at which look and round it stopped."""

    benchmark: str
    mode: str
    params: dict[str, str]
    decided: bool
    stopped: bool
    look: int
    round: int
    verdicts: dict[str, str]
    excluded_forks: dict[str, list[int]]
    trimmed_forks: dict[str, dict[str, int]]
    note: str


class ReplaySummaryDoc(Document):
    """The looks' design (forks at the first look and after, family, futility, per-look
    level), how many rounds and looks the replay took, each entry, the methodology words."""

    max_looks: int
    first_forks: int
    forks_per_look: int
    family: Annotated[Family, ByValue]
    futility: float
    per_look_level: float
    rounds: int
    first_look_round: int
    looks: int
    entries: list[ReplayEntryDoc]
    methodology: str
    notes: list[str]
