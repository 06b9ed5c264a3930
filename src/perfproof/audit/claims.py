"""Words and levels checked against the run, not only numbers.

A body can quote every number right and still say what the run does not: "unchanged" where no
key is ``same``, "99% CI" beside intervals decided at 99.93%, "not warmed up" on forks whose
warm-up had already reached the steady level, "JMH's own score ± error" for numbers perfproof
recomputed over several rounds, a bytes/op geometric mean that does not say it leaves out the
keys going to 0 B/op, "two code shapes" for groups that are the rounds, "run more forks" for a
key that stopped, "stopped for futility" for a key no look stopped so.
Each claim is read line by line (outside code) and held to the facts of the
run folder (:class:`RunFacts`, read once); a line about one key (its label on the line, or on
the list item or heading it sits under) is held to that key's facts.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from perfproof.audit.truth import Mismatch
from perfproof.compare.geomean import geomeans
from perfproof.model import ALLOC_NORM, PRIMARY, BenchKey, Comparison, Verdict
from perfproof.render.levels import decided_levels, level_text
from perfproof.report.context import comparison_label
from perfproof.report.rounds import CODE_SHAPES, groups_follow_rounds, rounds_view
from perfproof.report.rundir import BASE, HEAD, RunFolder
from perfproof.report.warmfacts import WarmFacts, claims_warm_up, warm_facts

JMH_LEVEL = "99.9%"
"""JMH's own error is the half-width of a 99.9% interval: a level a body may name for it."""

_LEVEL = re.compile(r"(?<![\d.])(\d{2}(?:\.\d+)?)\s?% (CI|confidence|intervals?|level)\b|"
                    r"\[(\d{2}(?:\.\d+)?)% (CI)\]|(?<![\d.])(\d{2}\.\d+)% (per look)")  # fmt: skip
"""A level named with what it is the level of: a ``CI`` and a look's level must be ones the
run's Δ% intervals were decided at; a ``confidence``, an ``interval`` or a ``level`` may also
be the run's nominal one (the sides' intervals in results.json are at it)."""
_UNCHANGED = re.compile(r"\bunchanged\b", re.I)
_FUTILE = re.compile(r"\b(?:stopped|stops) (?:for|by) futility\b", re.I)
"""A key said to be stopped for futility: a reader takes it as "no effect here"."""
_FUTILE_COUNT = re.compile(r"\b(\d+) (?:keys? )?(?:stopped )?for futility\b")
_GEOMEAN = re.compile(r"geo(?:metric)?\s?mean", re.I)


@dataclass
class RunFacts:
    """What a run folder says about the words a body may use."""

    any_same: bool
    undecided: int
    levels: set[str]
    nominal: str
    """The run's confidence (1 − α), as written."""
    jmh_recomputed: bool
    to_zero: int
    """Keys whose bytes/op fell to zero: outside any bytes/op geometric mean."""
    labels: dict[str, BenchKey] = field(default_factory=dict)
    warm: dict[BenchKey, WarmFacts] = field(default_factory=dict)
    trending: set[BenchKey] = field(default_factory=set)
    drift_groups: set[BenchKey] = field(default_factory=set)
    """Keys whose two groups of fork means are the rounds."""
    stopped: set[BenchKey] = field(default_factory=set)
    futile: set[BenchKey] = field(default_factory=set)
    """Keys a sequential look stopped for futility (no verdict)."""


def _stopped(c: Comparison) -> bool:
    look = c.diagnostics.sequential
    return look is not None and bool(
        look.decided or look.futile or (look.max_looks and look.look >= look.max_looks)
    )


def run_facts(run: RunFolder) -> RunFacts:
    doc = run.document
    primary = [c for c in doc.comparisons if c.key.metric == PRIMARY]
    view = rounds_view(run, 1.0 - doc.confidence, doc.threshold)
    drift = set()
    for c in primary:
        k = view.keys.get(c.key) if view is not None else None
        if k is not None and any(groups_follow_rounds(c, k, s) for s in (BASE, HEAD)):
            drift.add(c.key)
    g_zero = sum(g.to_zero for g in geomeans(doc.comparisons) if g.metric == ALLOC_NORM)
    return RunFacts(
        any_same=any(c.verdict is Verdict.SAME for c in primary),
        undecided=sum(1 for c in primary if c.verdict is Verdict.INCONCLUSIVE),
        levels=set(decided_levels(doc.comparisons)),
        nominal=level_text(doc.confidence),
        jmh_recomputed=any(c.jmh is not None and c.jmh.recomputed for c in doc.comparisons),
        to_zero=g_zero,
        labels={comparison_label(c): c.key for c in primary},
        warm=warm_facts(run),
        trending={c.key for c in primary if c.diagnostics.trending},
        drift_groups=drift,
        stopped={c.key for c in primary if _stopped(c)},
        futile={
            c.key
            for c in primary
            if c.diagnostics.sequential is not None and c.diagnostics.sequential.futile
        },
    )


def _key_of(line: str, facts: RunFacts) -> BenchKey | None:
    """The key a line names: the longest label it holds (``Codes.sum (n=128)`` before
    ``Codes.sum``)."""
    found = [label for label in facts.labels if label in line]
    return facts.labels[max(found, key=len)] if found else None


def claim_mismatches(lines: list[str], facts: RunFacts, code: set[int]) -> list[Mismatch]:
    """Every word or level of ``lines`` the run does not support (``code``: indices of lines
    inside code blocks, which hold commands and JMH's output, not claims)."""
    out: list[Mismatch] = []
    about: BenchKey | None = None
    for i, line in enumerate(lines):
        if i in code:
            continue
        if line.startswith("#") or (line.startswith("- ") and "**" in line):
            about = _key_of(line, facts)  # a heading or a list item naming a key
        key = _key_of(line, facts) or (about if line.startswith(("  ", "\t")) else None)
        out += [Mismatch(i + 1, kind, quoted, expected, message)
                for kind, quoted, expected, message in _line(line, key, facts)]  # fmt: skip
    return out


def _line(line: str, key: BenchKey | None, facts: RunFacts) -> list[tuple[str, str, str, str]]:
    found = []
    if _UNCHANGED.search(line) and not facts.any_same:
        found.append((
            "words", "unchanged", "same",
            f"says 'unchanged' but no key's verdict is same ({facts.undecided} undecided): "
            "an undecided key is not an unchanged one",
        ))  # fmt: skip
    for m in _LEVEL.finditer(line) if _of_the_ab(line) else ():
        level = f"{m.group(1) or m.group(3) or m.group(5)}%"
        what = m.group(2) or m.group(4) or m.group(6)
        allowed = facts.levels | ({JMH_LEVEL} if "JMH" in line else set())
        if what not in ("CI", "per look"):
            allowed = allowed | {facts.nominal}
        if level not in allowed and _normal(level) not in {_normal(a) for a in allowed}:
            levels = ", ".join(sorted(facts.levels)) or "none"
            found.append((
                "level", level, levels,
                f"names a {level} interval; the run's intervals were decided at {levels}",
            ))  # fmt: skip
    if claims_warm_up(line) and _warm_refuted(key, facts):
        what = "its forks" if key is not None else "no fork of the run"
        found.append((
            "words", "not warmed up", "warmed up",
            f"claims first iterations were not warmed up, but {what} had a warm-up that "
            "reached the steady level before them (JMH's log; a later dip, not warm-up)",
        ))  # fmt: skip
    quotes_jmh = "±" in line or "error" in line
    if "JMH's own" in line and facts.jmh_recomputed and quotes_jmh and "recomputed" not in line:
        found.append((
            "words", "JMH's own", "recomputed",
            "calls JMH's own the score ± error perfproof recomputed over several rounds "
            "(JMH printed one table per side and round, never this one)",
        ))  # fmt: skip
    of_bytes = "B/op" in line or "bytes/op" in line
    geomean = (_GEOMEAN.search(line) and of_bytes) or line.startswith("| bytes/op |")
    said_zero = "going to 0" in line or "to 0 B/op" in line
    if geomean and facts.to_zero and not said_zero:
        found.append((
            "words", "geometric mean", f"{facts.to_zero} keys going to 0 left out",
            f"a bytes/op geometric mean that does not say it leaves out the "
            f"{facts.to_zero} key(s) going to 0 B/op",
        ))  # fmt: skip
    shapes = CODE_SHAPES.strip("; ") in line and "not two code shapes" not in line
    rounds = key in facts.drift_groups if key is not None else bool(facts.drift_groups)
    if shapes and rounds:
        found.append((
            "words", "code shapes", "drift between rounds",
            "calls two code shapes two groups of fork means that are the rounds: the "
            "machine drifted between rounds",
        ))  # fmt: skip
    # a line naming no key speaks of the run's keys ("… stopped for futility on numOfDigits =
    # …"), unless it is a rule about such keys ("… are never recorded")
    about_none = key is None and not facts.futile and "never" not in line
    if _FUTILE.search(line) and ((key is not None and key not in facts.futile) or about_none):
        found.append((
            "words", "stopped for futility", "not futile",
            f"says {'this key' if key else 'keys'} stopped for futility, but no look of the "
            f"run stopped {'it' if key else 'any'} so (a fixed design, a verdict or the last "
            "look): a reader takes it for 'no effect here'",
        ))  # fmt: skip
    for m in _FUTILE_COUNT.finditer(line) if key is None else ():
        if int(m.group(1)) != len(facts.futile):
            found.append((
                "words", m.group(0), f"{len(facts.futile)} for futility",
                f"counts {m.group(1)} keys stopped for futility; the run's looks stopped "
                f"{len(facts.futile)} so",
            ))  # fmt: skip
    if "run more forks" in line and key is not None and key in facts.stopped:
        found.append((
            "words", "run more forks", "stopped",
            "advises running more forks for a key the run stopped (its verdict, or its "
            "futility stop, is in)",
        ))  # fmt: skip
    return found


AB_WORDS = ("Δ%", "faster", "slower", "ratio", "improved", "regressed", "per look", "verdict")
"""Words that tie a level to the A/B comparison (a profile diff's or an e2e run's interval
has a level of its own)."""


def _of_the_ab(line: str) -> bool:
    lowered = line.lower()
    return any(w.lower() in lowered for w in AB_WORDS)


def _normal(level: str) -> str:
    """``99.90%`` and ``99.9%`` are one level."""
    return level_text(float(level.rstrip("%")) / 100.0)


def _warm_refuted(key: BenchKey | None, facts: RunFacts) -> bool:
    """Whether the traces say no fork (of ``key``, or of the run) was still warming up."""
    if key is not None:
        found = facts.warm.get(key)
        if found is not None:
            return not found.warm_up
        return key not in facts.trending
    return (
        bool(facts.warm)
        and not any(f.warm_up for f in facts.warm.values())
        and not (facts.trending)
    )
