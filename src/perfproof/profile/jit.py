"""The JIT's own account of a change, before and after, from what the recordings hold.

A performance PR often argues *why* the code got faster: a method that now inlines, a
deoptimization that no longer happens. The JVM says so itself: JFR's ``jdk.CompilerInlining``
gives every inlining decision with C1's or C2's reason ("hot method too big", "callee is too
large", "no static binding"), ``jdk.Compilation`` the tier each method was compiled at, and
``jdk.Deoptimization`` every deoptimization with its reason. perfproof's recording forks turn
the first on and record every compilation (the ``profile`` settings leave inlining off and
compilations under 100 ms out; :func:`perfproof.measure.jfr_args.jit_settings`).

The helper ``java/JfrJit.java`` prints the events of the focus classes; here each side's
recordings become, per call (caller → callee), the decision of the most optimised compilation
that made one (the highest tier, the latest of them) in each fork, and the forks' verdict:
"inlined", "not inlined (hot method too big)", or how many forks did which when they
disagree. Nothing is inferred that a recording does not hold: a call no compilation decided
says "no decision recorded".
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from perfproof.env.java import find_java
from perfproof.profile.jdk import run_helper

HELPER = "JfrJit"
C2 = 4
"""JDK's tier of a fully optimised (C2) compilation; tiers 1–3 are C1's."""


def short(qualified: str) -> str:
    """``costs.InlineBench.sum(I)J`` or ``InlineBench.sum(int[])`` → ``InlineBench.sum``:
    how a call path and a table name a method (the innermost class: ``Outer$Inner.m`` and
    ``Outer.Inner.m`` are both ``Inner.m``)."""
    head = qualified.split("(", 1)[0].replace("$", ".")
    cls, _, name = head.rpartition(".")
    return f"{cls.rsplit('.', 1)[-1]}.{name}" if cls else head


@dataclass(frozen=True)
class Decision:
    """One compilation's decision on one call."""

    compile_id: int
    level: int
    inlined: bool
    reason: str


@dataclass
class Recording:
    """The compiler events of one recording (one fork)."""

    path: str
    levels: dict[int, int] = field(default_factory=dict)
    """Compile id → tier."""
    compiled: dict[str, int] = field(default_factory=dict)
    """Method (short) → the highest tier it was compiled at on its own."""
    calls: dict[tuple[str, str], list[Decision]] = field(default_factory=dict)
    """(caller, callee), short → every decision made on that call."""
    deopts: Counter[str] = field(default_factory=Counter)
    """Method (short) → deoptimizations; reasons in :attr:`deopt_reasons`."""
    deopt_reasons: dict[str, Counter[str]] = field(default_factory=dict)

    def decision(self, call: tuple[str, str]) -> Decision | None:
        """The decision of the most optimised compilation that decided ``call``: the highest
        tier, the latest compilation at it (the code the fork ran at the end)."""
        found = [
            Decision(d.compile_id, self.levels.get(d.compile_id, 0), d.inlined, d.reason)
            for d in self.calls.get(call, [])
        ]
        return max(found, key=lambda d: (d.level, d.compile_id), default=None)


def read(lines: Iterable[str]) -> list[Recording]:
    """The helper's output, one :class:`Recording` per ``R`` … ``E`` block."""
    out: list[Recording] = []
    for line in lines:
        kind, *rest = line.rstrip("\n").split("\t")
        if kind == "R":
            out.append(Recording(rest[1]))
        elif not out:
            continue
        elif kind == "C" and len(rest) >= 5:
            rec, cid, level = out[-1], int(rest[0]), int(rest[2])
            rec.levels[cid] = level
            if rest[4] == "true":
                m = short(rest[1])
                rec.compiled[m] = max(rec.compiled.get(m, 0), level)
        elif kind == "I" and len(rest) >= 5:
            call = (short(rest[1]), short(rest[2]))
            decision = Decision(int(rest[0]), 0, rest[3] == "true", rest[4])
            out[-1].calls.setdefault(call, []).append(decision)
        elif kind == "D" and len(rest) >= 5:
            m = short(rest[1])
            out[-1].deopts[m] += 1
            out[-1].deopt_reasons.setdefault(m, Counter())[f"{rest[3]} ({rest[4]})"] += 1
    return out


def load(paths: Sequence[Path], focus: Sequence[str], java: str | None = None) -> list[Recording]:
    """The compiler events of ``focus`` classes (qualified or simple names) in ``paths``."""
    if not paths:
        return []
    lines: list[str] = []
    classes = ",".join(sorted({c.replace("$", ".") for c in focus})) or "-"
    run_helper(find_java(java), list(paths), lines.append, HELPER, (classes,))
    return read(lines)


@dataclass(frozen=True)
class SideCall:
    """What one side's forks decided on one call."""

    forks: int
    """Forks with a decision recorded."""
    inlined: int
    """Of those, the forks whose last decision inlined it."""
    reasons: tuple[str, ...]
    """The compiler's reasons where it did not inline (most frequent first)."""
    tier: int

    def text(self) -> str:
        """``inlined``, ``not inlined (hot method too big)``, ``inlined in 2 of 3 forks``."""
        if self.forks == 0:
            return "no decision recorded"
        c1 = "" if self.tier >= C2 else " by C1 only"
        if self.inlined == self.forks:
            return f"inlined{c1}"
        why = f" ({self.reasons[0]})" if self.reasons else ""
        if self.inlined == 0:
            return f"not inlined{why}{c1}"
        return f"inlined in {self.inlined} of {self.forks} forks, not in the others{why}"


def side_call(recordings: Sequence[Recording], call: tuple[str, str]) -> SideCall:
    decided = [d for r in recordings if (d := r.decision(call)) is not None]
    reasons = Counter(d.reason for d in decided if not d.inlined)
    return SideCall(
        len(decided),
        sum(1 for d in decided if d.inlined),
        tuple(r for r, _ in reasons.most_common()),
        max((d.level for d in decided), default=0),
    )


def calls_seen(recordings: Iterable[Recording]) -> set[tuple[str, str]]:
    return {call for r in recordings for call in r.calls}


def deopt_text(recordings: Sequence[Recording], method: str) -> str:
    """``2 in 3 forks (unstable_if (reinterpret))``, ``none`` over a side's forks."""
    total = sum(r.deopts.get(method, 0) for r in recordings)
    if not total:
        return "none"
    reasons: Counter[str] = Counter()
    for r in recordings:
        reasons.update(r.deopt_reasons.get(method, Counter()))
    top = ", ".join(reason for reason, _ in reasons.most_common(2))
    return f"{total} in {len(recordings)} forks ({top})"


def tier_text(recordings: Sequence[Recording], method: str) -> str:
    """The highest tier ``method`` was compiled at on its own, over a side's forks."""
    tiers = [r.compiled[method] for r in recordings if method in r.compiled]
    if not tiers:
        return "not compiled on its own"
    best = max(tiers)
    return f"C2 (tier {best})" if best >= C2 else f"C1 (tier {best})"


@dataclass(frozen=True)
class CallChange:
    """A call the two sides' compilers decided differently."""

    caller: str
    callee: str
    before: SideCall
    after: SideCall

    def text(self) -> str:
        """``Summer.sum into InlineBench.sum: not inlined (hot method too big) → inlined``."""
        return f"{self.callee} into {self.caller}: {self.before.text()} → {self.after.text()}"


MAX_CHANGES = 20
"""Calls ``profile diff`` lists whose decision changed, the most decided first."""


def changed_calls(
    before: Sequence[Path], after: Sequence[Path], focus: Sequence[str], java: str | None = None
) -> list[CallChange]:
    """The calls in or into ``focus`` (classes or packages) whose decision differs between
    the recordings ``before`` and ``after``; empty when they hold no inlining events (recorded
    without ``jdk.CompilerInlining``, which ``perfproof``'s JMH recordings turn on)."""
    if not focus:
        return []
    b, a = load(before, focus, java), load(after, focus, java)
    out = []
    for call in sorted(calls_seen([*b, *a])):
        one, two = side_call(b, call), side_call(a, call)
        if one.text() != two.text() and one.forks and two.forks:
            out.append(CallChange(call[0], call[1], one, two))
    out.sort(key=lambda c: -(c.before.forks + c.after.forks))
    return out[:MAX_CHANGES]


def changes_text(changes: Sequence[CallChange], md: bool = False) -> str:
    """The section ``profile diff`` prints after its tables; nothing without a change."""
    if not changes:
        return ""
    head = "### " if md else ""
    lines = [f"{head}JIT decisions that changed (jdk.CompilerInlining, most optimised compilation)"]
    lines += [f"- `{c.text()}`" if md else f"  {c.text()}" for c in changes]
    return "\n".join(["", *lines, ""])
