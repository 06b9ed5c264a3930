"""The plan of an A/B run: which side runs in which step, and the JMH options of every step.

The plan is stored in the manifest and read back on ``--resume``, so a resumed run executes
exactly the steps (and the exact JMH options) that the original run planned, even if
perfproof's defaults change in between. A fixed plan lays out all its rounds at once; a
sequential plan starts with its first round and gets each later round appended when the round
before it has been looked at (only the keys still undecided, see ``measure.rounds``).
"""

from __future__ import annotations

import random
import re
import shlex
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum

from perfproof import defaults
from perfproof.errors import InputError
from perfproof.model import SIDES
from perfproof.model.budget import Budget
from perfproof.model.documents.run_plan import (
    FIXED,
    PAIR,
    SEQUENTIAL,
    JmhSettings,
    PlanBlock,
    PlannedStep,
    Stopping,
    parse_settings,
    step_id,
)
from perfproof.model.documents.suite import Selection


class Order(StrEnum):
    """The order of the sides within rounds: alternating pairs, the same pair, or a coin."""

    ABBA = "abba"
    ABAB = "abab"
    RANDOM = "random"


ORDERS = tuple(o.value for o in Order)
STOPPING = (FIXED, SEQUENTIAL)

OWNED_OPTIONS = frozenset({"-rf", "-rff"})
"""JMH options perfproof sets itself: the result format and file must be its own."""

SINGLE_VALUED = frozenset(
    {"-f", "-wi", "-w", "-i", "-r", "-bm", "-tu", "-t", "-to", "-bs", "-wbs", "-opi", "-foe"}
)
"""Options JMH accepts once; a user's value replaces perfproof's default of the same name."""


Step = PlannedStep
"""One JMH process of the plan: the manifest's own type (:class:`PlannedStep`)."""


def plan_step(
    index: int,
    round_no: int,
    side: str,
    part: int = 1,
    selection: Selection | None = None,
    forks: int | None = None,
    warmup: int | None = None,
) -> Step:
    """A step of the plan, named by its round, side and part (:func:`step_id`)."""
    return Step(index=index, id=step_id(round_no, side, part), round=round_no, side=side,
                part=part, selection=selection, forks=forks, warmup_iterations=warmup)  # fmt: skip


Plan = PlanBlock
"""The plan of a run: the manifest's own type (:class:`PlanBlock`), laid out by
:func:`make_plan` and grown round by round by :func:`round_steps`."""


def side_order(rounds: int, order: str, seed: int | None = None) -> list[tuple[str, str]]:
    """The two sides of every round in the order they run.

    ABBA alternates which side goes first, so a linear drift of the machine adds the same amount
    to both sides; ABAB is the naive order (kept for comparison with older runs); random flips a
    seeded coin per round, so the order is balanced in expectation and still reproducible.
    """
    if rounds < 1:
        raise InputError(f"--rounds must be at least 1, got {rounds}")
    if order == Order.ABBA:
        return [SIDES if r % 2 == 0 else SIDES[::-1] for r in range(rounds)]
    if order == Order.ABAB:
        return [SIDES for _ in range(rounds)]
    if order == Order.RANDOM:
        rng = random.Random(seed)
        return [SIDES if rng.random() < 0.5 else SIDES[::-1] for _ in range(rounds)]
    raise InputError(f"--order must be one of {', '.join(ORDERS)}, got {order!r}")


def make_plan(
    rounds: int,
    order: str,
    seed: int | None,
    benchmarks: tuple[str, ...],
    jmh_options: tuple[str, ...],
    *,
    stopping: Stopping = FIXED,
    budget_s: float | None = None,
    settings: JmhSettings | None = None,
    paired: bool = False,
) -> Plan:
    """Lay out the steps: round by round, each round holding both sides once.

    A sequential plan starts with its first round only (the whole suite); the rounds after it
    depend on what the looks decide. ``settings`` are what ``jmh_options`` ask of JMH, as the
    door parsed them (:class:`JmhArgs`); read from the options only when not given.
    ``paired``: two variants of one commit, one JMH process a round running both (side
    ``pair``), so the order of the sides is JMH's own. The door checked the rest once: a
    ``--seed`` only with ``--order random`` (``check_options``), a budget of more than 0
    seconds (:func:`parse_budget`).
    """
    if stopping not in STOPPING:
        raise InputError(f"stopping rule must be one of {', '.join(STOPPING)}, got {stopping!r}")
    if order == Order.RANDOM and seed is None:
        seed = random.SystemRandom().randrange(2**31)
    steps: list[Step] = []
    for r, pair in enumerate(side_order(rounds, order, seed), start=1):
        if stopping == SEQUENTIAL and r > 1:
            break
        for side in (PAIR,) if paired else pair:
            steps.append(plan_step(len(steps), r, side))
    timing = settings if settings is not None else parse_settings(jmh_options)
    return Plan(
        rounds=rounds, order=order, seed=seed, stopping=stopping, budget_s=budget_s,
        benchmarks=list(benchmarks), jmh_options=list(jmh_options), jmh_settings=timing,
        steps=steps, paired=paired,
    )  # fmt: skip


def round_steps(
    plan: Plan,
    round_no: int,
    selections: list[Selection],
    catch_up: Sequence[tuple[str, int, Selection]] = (),
    warmups: Mapping[str, int] | None = None,
) -> list[Step]:
    """The steps of a later round of a sequential plan: only the selected keys.

    Each selection is one JMH process per side; within the round both sides run each part
    back to back, in the round's side order (ABBA alternates it round by round), so the two
    forks of every key stay close in time whatever the number of parts. ``catch_up`` adds, per
    (side, forks, selection), a step on one side that runs again forks a look left out.
    ``warmups`` gives benchmarks their own ``-wi``: a selection whose benchmarks differ in it
    becomes one step per warm-up.
    """
    if not 1 <= round_no <= plan.rounds:
        raise ValueError(f"round {round_no} is outside 1..{plan.rounds}")
    pair = (PAIR,) if plan.paired else side_order(round_no, plan.order, plan.seed)[-1]
    steps: list[Step] = []
    start = len([s for s in plan.steps if s.round < round_no])
    parts = [p for sel in selections for p in _by_warmup(sel, warmups or {})]
    extra = [(side, forks, p) for side, forks, sel in catch_up
             for p in _by_warmup(sel, warmups or {})]  # fmt: skip
    many = len(parts) + len(extra) > 1
    for part, (selection, wi) in enumerate(parts, start=1):
        for side in pair:
            number = part if many else 1
            steps.append(
                plan_step(start + len(steps), round_no, side, number, selection, warmup=wi)
            )
    for part, (side, forks, (selection, wi)) in enumerate(extra, start=len(parts) + 1):
        steps.append(plan_step(start + len(steps), round_no, side, part, selection, forks, wi))
    return steps


def _by_warmup(
    selection: Selection, warmups: Mapping[str, int]
) -> list[tuple[Selection, int | None]]:
    """The selection split so that every part's benchmarks share one warm-up."""
    groups: dict[int | None, list[str]] = {}
    for bench in selection.benchmarks:
        groups.setdefault(warmups.get(bench), []).append(bench)
    return [
        (Selection(benchmarks=tuple(b), params=selection.params), wi)
        for wi, b in sorted(groups.items(), key=lambda g: -1 if g[0] is None else g[0])
    ]


def restrict_first_round(plan: Plan, selections: list[Selection]) -> Plan:
    """``plan`` with its first round running only ``selections`` (a part of the suite, e.g.
    one shard's keys) instead of everything the ``--bench`` regexes select."""
    later = [s for s in plan.steps if s.round > 1]
    first = round_steps(plan, 1, selections)
    shifted = [s.model_copy(update={"index": len(first) + i}) for i, s in enumerate(later)]
    return plan.model_copy(update={"steps": [*first, *shifted]})


def parse_budget(text: str) -> Budget:
    """``--budget``: ``90s``, ``15m``, ``1h``, ``1h30m`` or plain seconds."""
    match = re.fullmatch(r"\s*(?:(\d+(?:\.\d+)?)h)?\s*(?:(\d+(?:\.\d+)?)m)?\s*"
                         r"(?:(\d+(?:\.\d+)?)s?)?\s*", text or "")  # fmt: skip
    if not match or not any(match.groups()):
        raise InputError(f"--budget {text!r}: give a duration such as 90s, 15m or 1h")
    hours, minutes, seconds = (float(g) if g else 0.0 for g in match.groups())
    total = hours * 3600 + minutes * 60 + seconds
    if total <= 0:
        raise InputError(f"--budget {text!r}: must be more than 0 seconds")
    return Budget(total, text)


@dataclass(frozen=True)
class JmhArgs:
    """``--jmh-args`` read once, at the door: the text as typed (the manifest and the command
    that repeats the run keep it), the options every step runs (perfproof's defaults merged
    with the user's) and what they ask of JMH (forks, iterations and their times)."""

    text: str | None
    user: tuple[str, ...]
    """The text split like a shell would."""
    options: tuple[str, ...]
    settings: JmhSettings

    def __str__(self) -> str:
        return self.text or ""

    def with_forks(self, forks: int) -> JmhArgs:
        """The same options with ``forks`` forks a step (JMH refuses an option given twice):
        the one-fork round of a recording, a hunt's ``--forks``."""
        kept: list[str] = []
        skip = False
        for token in self.user:
            if skip:
                skip = False
            elif token == "-f":
                skip = True
            else:
                kept.append(token)
        user = (*kept, "-f", str(forks))
        return JmhArgs(
            shlex.join(user),
            user,
            jmh_options(list(user)),
            self.settings.model_copy(update={"forks": forks}),
        )


def parse_jmh_args(text: str | None) -> JmhArgs:
    """``--jmh-args`` split like a shell would, merged with perfproof's defaults, read."""
    user = split_jmh_args(text)
    options = jmh_options(user)
    return JmhArgs(text, tuple(user), options, parse_settings(options))


def split_jmh_args(text: str | None) -> list[str]:
    """Split ``--jmh-args`` like a POSIX shell would, without ever running one."""
    if not text:
        return []
    try:
        return shlex.split(text)
    except ValueError as exc:
        raise InputError(f"--jmh-args: cannot split {text!r}: {exc}") from exc


def jmh_options(user_args: list[str], *, gc_profiler: bool = True) -> tuple[str, ...]:
    """perfproof's defaults merged with the user's JMH options (the user's win).

    A single-valued option the user gives replaces the default of that name (JMH rejects an
    option given twice); ``-prof gc`` is added unless already there; ``-foe true`` makes JMH
    stop at a benchmark that throws instead of silently leaving it out of the results;
    ``-rf``/``-rff`` are refused because perfproof writes the result file itself.
    """
    for token in user_args:
        if token in OWNED_OPTIONS:
            raise InputError(f"--jmh-args: {token} is set by perfproof (it writes the JSON itself)")
    _check_counts(user_args)
    given = {t for t in user_args if t in SINGLE_VALUED}
    merged: list[str] = []
    ours = [*defaults.JMH_ARGS, "-foe", "true"]
    for name, value in zip(ours[::2], ours[1::2], strict=True):
        if name not in given:
            merged += [name, value]
    merged += user_args
    if gc_profiler and not _has_profiler(user_args, "gc"):
        merged += ["-prof", "gc"]
    return tuple(merged)


_COUNTS = {"-f": 1, "-i": 1, "-wi": 0}
"""Count options and their least value: forks are the unit (``-f 0`` runs none), and a step
without measurement iterations has nothing to compare."""


def _check_counts(args: list[str]) -> None:
    """Refuse a bad count before any build, instead of JMH refusing it after the builds."""
    for i, token in enumerate(args):
        least = _COUNTS.get(token)
        if least is None:
            continue
        if i + 1 == len(args):
            raise InputError(f"--jmh-args: {token} needs a value")
        value = args[i + 1]
        if not value.isdigit() or int(value) < least:
            raise InputError(f"--jmh-args: {token} {value}: must be a whole number >= {least}")


def _has_profiler(args: list[str], name: str) -> bool:
    return any(
        a == "-prof" and i + 1 < len(args) and args[i + 1].split(":")[0] == name
        for i, a in enumerate(args)
    )
