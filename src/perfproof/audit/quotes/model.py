"""What the PR-body reader finds: quotes (numbers to check) and overlap claims."""

from __future__ import annotations

from dataclasses import dataclass, field

PRIMARY_METRIC = "primary"
BYTES_METRIC = "bytes"
DIRECT_METRIC = "direct"
NATIVE_METRIC = "native"
GC_TIME_METRIC = "gc time"
GC_COUNT_METRIC = "gc count"

BYTE_METRICS = frozenset({BYTES_METRIC, DIRECT_METRIC, NATIVE_METRIC})
"""Quotes in B/op: heap, direct and native bytes per operation (lower is better, exact)."""

METRIC_UNITS = {DIRECT_METRIC: "B/op", NATIVE_METRIC: "B/op", GC_TIME_METRIC: "ns/op"}
"""The canonical unit of a cost quote; a bytes quote is in B/op, a score in the run's unit,
collections per operation are quoted per million operations, with no unit."""

COST_HEADERS = (
    ("direct", DIRECT_METRIC),
    ("native", NATIVE_METRIC),
    ("gc time", GC_TIME_METRIC),
    ("gcs per", GC_COUNT_METRIC),
)
"""A results-table column whose header holds the word holds that cost of each row."""


@dataclass
class Quote:
    """One number the text states, with everything needed to check it."""

    kind: str  # "score" or "delta"
    value: float
    decimals: int
    text: str
    line: int
    unit: str | None = None  # canonical unit of a score (ns/op, ops/s, B/op) if written
    factor: float = 1.0  # written value × factor = canonical value
    side: str | None = None
    metric: str | None = None
    error: float | None = None
    error_decimals: int = 0
    signed: bool = True  # a delta written with a sign (or a direction word)
    direction_word: str | None = None  # faster/slower/down/up for an unsigned "12% faster"
    benchmark: str | None = None
    params: dict[str, str] = field(default_factory=dict)
    group: int = 0  # quotes of one table row or one clause share a group id


@dataclass
class Claim:
    """A sentence saying two intervals do not overlap."""

    line: int
    text: str
    benchmark: str | None
    params: dict[str, str]


@dataclass
class Parsed:
    quotes: list[Quote]
    claims: list[Claim]
    code: set[int] = field(default_factory=set)
    """0-based numbers of the lines inside fenced or indented code blocks (fences too)."""
