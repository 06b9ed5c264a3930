"""Find the numbers a hand-written PR body quotes: scores, errors, Δ%, bytes/op, claims.

A PR body mixes prose, Markdown tables and pasted JMH console tables. This package turns each
into *quotes*: a number with the precision it was written at, its unit, which side it is
about (baseline or feature, when the text says), which metric (time/throughput or bytes/op)
and what it names nearby (benchmark and @Param values). It knows nothing about a run;
:mod:`perfproof.audit.match` checks the quotes against one.

``words`` holds the vocabulary (numbers, units, side words), ``prose``, ``tables`` and
``console`` read one kind of block each, and ``document`` walks the Markdown blocks.
"""

from perfproof.audit.quotes.document import parse
from perfproof.audit.quotes.model import (
    BYTE_METRICS,
    BYTES_METRIC,
    DIRECT_METRIC,
    GC_COUNT_METRIC,
    GC_TIME_METRIC,
    METRIC_UNITS,
    NATIVE_METRIC,
    PRIMARY_METRIC,
    Claim,
    Parsed,
    Quote,
)
from perfproof.audit.quotes.words import BASE, HEAD, Names, side_of, to_number

__all__ = [
    "BASE",
    "BYTES_METRIC",
    "BYTE_METRICS",
    "DIRECT_METRIC",
    "GC_COUNT_METRIC",
    "GC_TIME_METRIC",
    "HEAD",
    "METRIC_UNITS",
    "NATIVE_METRIC",
    "PRIMARY_METRIC",
    "Claim",
    "Names",
    "Parsed",
    "Quote",
    "parse",
    "side_of",
    "to_number",
]
