"""The JIT's account of the change in ``prove``'s profile forks, typed: per benchmark, each
call on its path to a changed method with what the compiler decided on each side, and each
changed method's tier and deoptimizations.

Only what the recordings hold (JFR's ``jdk.CompilerInlining``, ``jdk.Compilation`` and
``jdk.Deoptimization``, read by :mod:`perfproof.profile.jit`): a call no compilation decided
says so, never a guess.
"""

from __future__ import annotations

from perfproof.model.documents.codec import Seq
from perfproof.model.documents.prove_stages import StageDocument


class JitCall(StageDocument):
    """One call (caller → callee) and the compiler's decision on it on each side."""

    caller: str
    callee: str
    base: str
    """``inlined``, ``not inlined (hot method too big)``, ``no decision recorded``, …"""
    head: str
    base_forks: int = 0
    """Forks whose recordings hold a decision on the call."""
    head_forks: int = 0

    @property
    def changed(self) -> bool:
        return self.base != self.head


class JitMethod(StageDocument):
    """A changed method: the tier it was compiled at on its own, and its deoptimizations."""

    method: str
    base_tier: str
    head_tier: str
    base_deopts: str
    head_deopts: str


class JitAccount(StageDocument):
    """What the JIT did on one benchmark's path to the change, baseline against feature."""

    benchmark: str
    calls: Seq[JitCall] = ()
    methods: Seq[JitMethod] = ()
    base_recordings: int = 0
    """Recordings read on the baseline (one a fork)."""
    head_recordings: int = 0
