"""The run by round: each key's ratio in every round, and whether the machine drifted.

A run's rounds (ABBA: both sides of a round within minutes of each other) are its blocks. A
reader trusts a change that won in every round more than one that won on average, and a
machine that slowed down for two rounds moves every key alike: both show only when the
rounds are laid out. The raw JMH files give each round's forks (a round split in parts is one
round); :mod:`perfproof.stats.rounds` does the arithmetic.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from perfproof.jmh.reader import read_file
from perfproof.model import PRIMARY, BenchKey, Comparison, Direction, Side
from perfproof.report.rundir import BASE, HEAD, RunFolder
from perfproof.stats.rounds import (
    Drift,
    RoundRatio,
    groups_are_rounds,
    lean_of,
    machine_drift,
    round_level,
    round_ratios,
)
from perfproof.units.percentages import ratio_text

ForksByRound = dict[int, list[float]]
"""Round → the fork means one side measured in it."""


@dataclass
class KeyRounds:
    """One key's forks by round on each side, and the ratio of every round."""

    key: BenchKey
    direction: Direction
    base: ForksByRound = field(default_factory=dict)
    head: ForksByRound = field(default_factory=dict)

    @property
    def ratios(self) -> list[RoundRatio]:
        return round_ratios(self.base, self.head)

    @property
    def lean(self) -> int:
        """+1 when the feature was better in every round, −1 worse in every round, else 0."""
        lean = lean_of([r.ratio for r in self.ratios])
        return lean if self.direction is Direction.HIGHER else -lean

    def slowness(self) -> dict[int, float]:
        """Round → the key's level there, both sides together, oriented so that higher is
        slower (a throughput's log is negated)."""
        sign = 1.0 if self.direction is Direction.LOWER else -1.0
        out = {}
        for r in sorted(set(self.base) & set(self.head)):
            level = round_level(self.base[r], self.head[r])
            if level is not None:
                out[r] = sign * level
        return out


@dataclass
class RoundsView:
    """Every primary key's rounds, and the drift test across them."""

    keys: dict[BenchKey, KeyRounds]
    rounds: list[int]
    drift: Drift | None


def _round_number(text: str) -> int:
    digits = re.sub(r"\D", "", text)
    return int(digits) if digits else 0


def rounds_view(run: RunFolder, alpha: float, threshold: float) -> RoundsView | None:
    """The rounds of a run with two rounds or more on both sides; None otherwise (one round,
    or files compared without rounds)."""
    keys: dict[BenchKey, KeyRounds] = {}
    for raw in run.raw:
        if raw.side not in (BASE, HEAD):
            continue
        r = _round_number(raw.round)
        for s in read_file(raw.path):
            if s.key.metric != PRIMARY:
                continue
            k = keys.setdefault(s.key, KeyRounds(s.key, s.direction))
            side = k.base if raw.side == BASE else k.head
            side.setdefault(r, []).extend(float(v) for v in s.fork_means())
    rounds = sorted({r for k in keys.values() for r in (set(k.base) & set(k.head))})
    if len(rounds) < 2:
        return None
    drift = machine_drift([k.slowness() for k in keys.values()], alpha, threshold)
    return RoundsView(keys, rounds, drift)


def drift_sentence(view: RoundsView) -> str:
    """What the drift test found, said only when it found something: which rounds ran slower
    or faster than round 1 across keys, both sides alike."""
    d = view.drift
    if d is None or not d.found:
        return ""
    short = drift_sentence_short(view).removesuffix(" (see Rounds).")
    return (
        f"{short} (within-key permutation test of each key's level by round, "
        f"p = {d.p_value:.2g}). Each round's ratio compares sides measured together, so the "
        "drift cancels there, but it widens every interval that pools the rounds."
    )


def drift_sentence_short(view: RoundsView) -> str:
    """The drift in one summary line, or nothing when none was found."""
    d = view.drift
    if d is None or not d.found:
        return ""
    moved = {r: s for r, s in d.shifts.items() if abs(s) >= 0.005}
    parts = []
    for word, which in (
        ("longer", [r for r, s in sorted(moved.items()) if s > 0]),
        ("less time", [r for r, s in sorted(moved.items()) if s < 0]),
    ):
        if which:
            # a factor on the time per operation: a throughput halved is "100% longer"
            sizes = sorted({f"{abs(moved[r]) * 100:.0f}" for r in which}, key=float)
            size = f"{sizes[0]}–{sizes[-1]}%" if len(sizes) > 1 else f"{sizes[0]}%"
            parts.append(f"{_rounds(which)} took about {size} {word} per operation")
    return (
        f"The machine drifted between rounds: {' and '.join(parts)} than round "
        f"{view.rounds[0]} across {d.keys} keys, both sides alike (see Rounds)."
    )


def _rounds(rounds: Sequence[int]) -> str:
    if len(rounds) == 1:
        return f"round {rounds[0]}"
    if list(rounds) == list(range(rounds[0], rounds[-1] + 1)):
        return f"rounds {rounds[0]}–{rounds[-1]}"
    return "rounds " + ", ".join(map(str, rounds[:-1])) + f" and {rounds[-1]}"


def groups_follow_rounds(c: Comparison, k: KeyRounds, side: str) -> list[list[int]] | None:
    """The two groups of ``side``'s fork means as rounds, when the groups are the rounds
    (both sides of a round in one group, the other side's forks scaled by the ratio); None
    when some round's forks fall in both groups, or the groups cannot be placed."""
    found = (c.diagnostics.bimodal or {}).get(Side(side))
    if found is None or found.level != "forks" or not found.low or not found.high:
        return None
    if not (c.ratio > 0 and math.isfinite(c.ratio)):
        return None
    mid = math.sqrt(found.low * found.high)
    scale = {BASE: 1.0, HEAD: 1.0}
    scale[HEAD if side == BASE else BASE] = (1.0 / c.ratio) if side == BASE else c.ratio
    in_low: list[bool] = []
    rounds: list[int] = []
    for name, forks in ((BASE, k.base), (HEAD, k.head)):
        for r, means in forks.items():
            for m in means:
                in_low.append(m * scale[name] < mid)
                rounds.append(r)
    if not groups_are_rounds(in_low, rounds):
        return None
    low = sorted({r for r, lo in zip(rounds, in_low, strict=True) if lo})
    high = sorted({r for r, lo in zip(rounds, in_low, strict=True) if not lo})
    return sorted([low, high])  # the earlier rounds first, whichever group is faster


def round_cell(ratio: RoundRatio | None) -> str:
    """A round's ratio as the table writes it: ×1.43."""
    return "" if ratio is None else ratio_text(ratio.ratio)


CODE_SHAPES = "; the mean mixes two code shapes"
"""Where a note on two groups of fork means names them code shapes (``compare.notes``)."""


def bimodal_note(note: str, c: Comparison, k: KeyRounds | None) -> str:
    """A note on two groups of one side's fork means, said as what the rounds show: groups
    that are the rounds are the machine drifting, not two code shapes; and a key that stopped
    is not told to run more forks."""
    if CODE_SHAPES not in note or not note.startswith("bimodal "):
        return note
    head, _, _ = note.partition(CODE_SHAPES)
    side = head.split()[1]
    split = groups_follow_rounds(c, k, side) if k is not None and side in (BASE, HEAD) else None
    if split is not None:
        return (
            f"{head}; the groups are the rounds ({_rounds(split[0])} against "
            f"{_rounds(split[1])}, both sides alike): the machine drifted between rounds "
            "(see Rounds), not two code shapes"
        )
    look = c.diagnostics.sequential
    stopped = look is not None and (look.decided or look.futile or look.look == look.max_looks)
    advice = "" if stopped else "; run more forks to weigh them"
    return head + CODE_SHAPES + advice


ROUNDS_NOTE = (
    "Each cell is one round's ratio feature / baseline of one key: the geometric means of the "
    "fork means that round measured, both sides within minutes of each other in the order "
    "under Methodology; a key's row ends where it left the plan."
)


def rounds_rows(view: RoundsView, order: Sequence[BenchKey]) -> list[list[str]]:
    """The per-round table's body: key, one ratio per round, and which side every round
    favoured (empty when the rounds disagree)."""
    body = []
    for key in order:
        k = view.keys.get(key)
        if k is None:
            continue
        by_round = {r.round: r for r in k.ratios}
        label = _short(key)
        lean = {1: "feature", -1: "baseline"}.get(k.lean, "") if len(by_round) > 1 else ""
        body.append([label, *(round_cell(by_round.get(r)) for r in view.rounds), lean])
    return body


def _short(key: BenchKey) -> str:
    parts = key.benchmark.split(".")
    name = ".".join(parts[-2:]) if len(parts) >= 2 else key.benchmark
    params = ", ".join(f"{n}={v}" for n, v in key.params)
    return f"{name} ({params})" if params else name


def no_drift_sentence(view: RoundsView, threshold: float) -> str:
    """What the drift test said when it found nothing (or could not be run)."""
    d = view.drift
    if d is None:
        return "Too few keys ran two rounds to test the machine for drift between rounds."
    return (
        f"No drift of the machine between rounds beyond ±{threshold * 100:g}% was found across "
        f"{d.keys} keys (within-key permutation test of each key's level by round, "
        f"p = {d.p_value:.2g})."
    )


def rounds_header(view: RoundsView) -> list[str]:
    """The per-round table's header: the key, one column per round, the side every round
    favoured."""
    return ["Key", *(f"round {r}" for r in view.rounds), "every round favoured"]
