"""The choices every perfproof module shares: which way is better, what the verdict is, which
side a number belongs to, which format an output takes. A leaf of ``model`` so that the typed
documents can name them too."""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated, Literal

from pydantic import Strict


class Direction(StrEnum):
    """Which way is better for a metric."""

    LOWER = "lower"
    HIGHER = "higher"


class Verdict(StrEnum):
    """The outcome of one comparison at the chosen confidence and practical threshold."""

    IMPROVED = "improved"
    REGRESSED = "regressed"
    SAME = "same"
    NEGLIGIBLE = "negligible"
    INCONCLUSIVE = "inconclusive"


class Side(StrEnum):
    """One of the two versions a comparison measures: the baseline and the change."""

    BASE = "base"
    HEAD = "head"


class RunStatus(StrEnum):
    """Where a run, a step of it or a build stands: waiting, running, finished, failed (with
    the error beside it) or stopped by the user; ``--resume`` redoes what is not done."""

    PENDING = "pending"
    RUNNING = "running"
    DONE = "done"
    FAILED = "failed"
    INTERRUPTED = "interrupted"


class Format(StrEnum):
    """What a verb prints or writes, as ``--format`` names it: a terminal table, Markdown,
    one self-contained HTML page, a versioned JSON document, or a line of text per file."""

    TABLE = "table"
    MD = "md"
    HTML = "html"
    JSON = "json"
    TEXT = "text"


class Family(StrEnum):
    """The family procedure across one report's comparisons (``--family``; what each does is
    :mod:`perfproof.stats.family`'s). A leaf here so that the door and the documents that
    record it name it without the statistics."""

    BH = "bh"
    HOLM = "holm"
    NONE = "none"


DecidedFamily = Annotated[Family, Strict(False)] | Literal["exact", ""]
"""What a comparison records it was decided with: a family procedure, ``exact`` for an exact
comparison (outside every family), or ``""`` where an older writer did not say. Any other
word in a document is refused when it is read."""


class GuardKind(StrEnum):
    """What a guard's benchmark must show to pass (``guard --metric``): the speed-up, the
    allocation cut, both, the off-heap cut or the GC-time cut. The value is the word the flag
    takes and the guard's documents write."""

    TIME = "time"
    ALLOC = "alloc"
    BOTH = "both"
    OFFHEAP = "offheap"
    GCTIME = "gctime"


class ExportFormat(StrEnum):
    """The formats ``export --to`` writes, by the name ``--to`` takes."""

    BENCHER = "bencher"
    GITHUB_ACTION = "github-action-benchmark"
    BENCHSTAT = "benchstat"
    OTAVA = "otava"
    CSV = "csv"


class SampleUnit(StrEnum):
    """What a benchstat sample is (``export --samples``): a fork mean, an iteration, or forks
    when every key has the six benchstat needs to test (``auto``)."""

    AUTO = "auto"
    FORKS = "forks"
    ITERATIONS = "iterations"


SIDES: tuple[str, str] = (Side.BASE, Side.HEAD)
"""Both sides in the order every report, plan and manifest lists them; typed as the strings
they are, since manifests, plans and documents key their dicts by the plain name."""

SIDE_WORDS: dict[str, str] = {Side.BASE: "baseline", Side.HEAD: "feature"}
"""How a report names each side to a reader."""
