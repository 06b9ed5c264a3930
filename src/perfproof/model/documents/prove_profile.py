"""What ``prove``'s profile forks recorded and why, typed: the keys whose verdicts the PR
body explains, the keys of the same shape each stands for, the forks a side, and what was
reused from the reach round. The methodology line is written from it, and a stage that adds
its own readings of the same recordings (off-heap bytes, GC time, the JIT's account) reads
the keys and folders from here rather than choosing them again."""

from __future__ import annotations

from pydantic import Field

from perfproof.model.documents.codec import Seq, Text
from perfproof.model.documents.prove_stages import StageDocument


class RecordedKey(StageDocument):
    """One key the profile forks recorded."""

    key: str
    """The suite key's label, ``Bench.m(n=16)``: what ``ab``'s plan selects."""
    benchmark: str
    params: dict[str, Text] = Field(default_factory=dict)
    why: Seq[str] = ()
    """The verdicts it is recorded for, in words (``time improved``, ``bytes/op improved``)."""
    stands_for: Seq[str] = ()
    """Keys of the same shape (benchmark, verdicts, bytes/op on both sides) left unrecorded:
    this key's recordings explain theirs."""
    reused: int = 0
    """Forks a side taken from the reach round (same builds and JMH settings)."""


class ProfileDesign(StageDocument):
    """The profile forks' design."""

    recorded: Seq[RecordedKey] = ()
    forks: int = 0
    """Recorded forks a side of every recorded key (reused ones included): the fewest that
    give each row of the diff an interval across forks."""
    runs: Seq[str] = ()
    """Every run folder whose recordings were read (the reach round's first when reused)."""
    measured: int = 0
    """Keys the A/B measured."""
    futile: int = 0
    """Keys stopped for futility with no improved or regressed verdict: never recorded (one
    whose bytes/op moved is recorded for that verdict)."""
    no_verdict: int = 0
    """Other keys without an improved or regressed verdict: nothing for a profile to explain."""
    every: bool = False
    """``--jfr every``: every measured key recorded for as many rounds as the A/B ran."""

    @property
    def represented(self) -> int:
        """Keys left unrecorded because a recorded key of the same shape stands for them."""
        return sum(len(k.stands_for) for k in self.recorded)

    @property
    def reused(self) -> int:
        return sum(k.reused for k in self.recorded)
