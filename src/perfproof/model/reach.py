"""Whether a change can move a benchmark, and how strongly that is known: its reach.

Reach decides how a verdict reads (a key the change moves is the change's effect; one it never
runs is something else) and how the sequential looks treat a clean split of forks by side (the
signature of a real change where the change runs, a reason to wait where it does not). Each
source of it is as strong as it is, and the kind says which:

- a static call path from the benchmark to a changed method is a hypothesis (reflection,
  lambdas, dynamic dispatch and field types can hide a path or invent one);
- a recording whose samples or allocations fall in the changed code is evidence it runs;
- a recording with enough samples and none in the changed code is evidence it does not;
- no static path is only that: the search found none, which is not evidence the change never
  runs there;
- a benchmark the source index does not know (Kotlin, Scala, generated code) has no reach at all.

A change outside the Java sources that a build reads (a build file, a resource, a dependency
version) can move anything: it reaches every benchmark. One no build reads (a changelog, the
documentation, a checked-in results file) moves nothing.

A benchmark's reach and a run's, as the run works with them and its manifest records them, are
:mod:`perfproof.model.documents.reach`.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum


class Reach(StrEnum):
    """What is known about whether a change runs in one benchmark (see the module docstring)."""

    STATIC_PATH = "static path"
    """A call path from the benchmark to a changed method, or the benchmark's own source changed."""
    OUTSIDE_JAVA = "outside java"
    """A change outside the Java sources that a build reads: it reaches every benchmark."""
    RECORDED = "seen in a recording"
    """A recording of the benchmark sampled (or saw allocate) a changed method."""
    NOT_RECORDED = "not in a recording"
    """A recording with enough samples of the benchmark has none in a changed method."""
    NO_STATIC_PATH = "no static path"
    """The call graph finds no path and nothing was recorded to say more."""
    NOT_INDEXED = "not indexed"
    """The source index does not know the benchmark: nothing is known."""

    @property
    def reaches(self) -> bool:
        """The change can move the benchmark: a path, a recording, or a non-Java change."""
        return self in (Reach.STATIC_PATH, Reach.OUTSIDE_JAVA, Reach.RECORDED)

    @property
    def shown_not_to_run(self) -> bool:
        """A recording shows the change never runs there: the only kind that supports
        calling a verdict "not explained by the change"."""
        return self is Reach.NOT_RECORDED


MISSED_BY = "reflection, lambdas, dynamic dispatch or field types can hide a path"
"""Why "no static path" is not "not reached", in the words every report uses."""

REACH_FIELD = "reach"
"""The field each primary comparison of results.json gets: kind, reached, why, path."""

UNREACHED = (Reach.NO_STATIC_PATH, Reach.NOT_RECORDED)
"""The kinds said beside a verdict: what is known says the change may not run there."""


def unreached_note(extra: Mapping[str, object]) -> str:
    """What a comparison's reach (its ``extra``) says beside its verdict: ``no static path``
    or ``not in a recording`` where the change may not run in the benchmark, so no reader
    credits the change with the verdict; empty where it reaches or nothing is known."""
    written = extra.get(REACH_FIELD)
    kind = written.get("kind") if isinstance(written, Mapping) else None
    return str(kind) if kind in {str(k) for k in UNREACHED} else ""
