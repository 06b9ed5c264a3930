"""The notes a comparison carries because of the method that compared it, worded once.

A method (:mod:`perfproof.stats.method`) says which of these its comparisons carry; the notes
about the data themselves (trends, warm-up, two groups of forks) are worded in
:mod:`perfproof.compare.notes`.
"""

from __future__ import annotations

from perfproof.model.diagnostics import Kind, Note


def exact() -> Note:
    return Note(
        Kind.EXACT,
        "bytes/op compared exactly (equal within 0.5 B or 0.1%), not statistically: "
        "allocation per op is near-deterministic",
    )


def one_fork(base: int, head: int) -> Note:
    return Note(
        Kind.ONE_FORK,
        f"only {base} base / {head} head fork(s): no fork-to-fork variation measured, "
        "iterations compared as if independent, so the interval is too narrow; "
        "rerun with -f 3 or more",
    )


def bytes_vary() -> Note:
    return Note(
        Kind.BYTES_VARY,
        "bytes/op varies more than 0.5 B or 0.1% within a side: compared statistically",
    )


def few_forks(base: int, head: int, minimum: int) -> Note:
    return Note(
        Kind.FEW_FORKS,
        f"too few forks: {base} base, {head} head (fewer than {minimum} per side); "
        "the verdict rests on very few JVMs",
    )
