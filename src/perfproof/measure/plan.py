"""The plan of an A/B run: which side runs in which step, and the JMH options of every step.

The plan is computed once, stored in the manifest and read back on ``--resume``, so a resumed
run executes exactly the steps (and the exact JMH options) that the original run planned, even
if perfproof's defaults change in between.
"""

from __future__ import annotations

import random
import shlex
from dataclasses import dataclass, field
from typing import Any

from perfproof.errors import InputError

SIDES = ("base", "head")
ORDERS = ("abba", "abab", "random")

DEFAULT_ROUNDS = 3
DEFAULT_JMH_ARGS = ("-f", "1", "-wi", "3", "-w", "1s", "-i", "5", "-r", "1s")
"""Per step: one fork, 3 × 1 s warm-up, 5 × 1 s measurement.

The fork is the unit of replication, so forks are spread over rounds instead of being run
back to back: with the default three ABBA rounds each side gets one fork per round, three in
all, the fewest with which the comparison has a fork-level interval without a "too few forks"
warning; about 9 s per benchmark per step, so under a minute per benchmark for the whole run
on a 2-core laptop. A longer run is ``--rounds N`` rather than more forks per step, which keeps
slow drift of the machine (thermal state, other load) balanced between the sides.
"""

OWNED_OPTIONS = frozenset({"-rf", "-rff"})
"""JMH options perfproof sets itself: the result format and file must be its own."""

SINGLE_VALUED = frozenset(
    {"-f", "-wi", "-w", "-i", "-r", "-bm", "-tu", "-t", "-to", "-bs", "-wbs", "-opi", "-foe"}
)
"""Options JMH accepts once; a user's value replaces perfproof's default of the same name."""


@dataclass(frozen=True)
class Step:
    """One JMH process: one side in one round."""

    index: int
    round: int
    side: str

    @property
    def id(self) -> str:
        """``01-base``: sorts by round, names the result file ``jmh/<round>-<side>.json``."""
        return f"{self.round:02d}-{self.side}"

    def to_json(self) -> dict[str, Any]:
        return {"index": self.index, "id": self.id, "round": self.round, "side": self.side}


@dataclass(frozen=True)
class Plan:
    """Rounds × sides in a fixed order plus the JMH options every step uses."""

    rounds: int
    order: str
    seed: int | None
    steps: tuple[Step, ...]
    benchmarks: tuple[str, ...] = ()
    jmh_options: tuple[str, ...] = field(default_factory=tuple)

    def to_json(self) -> dict[str, Any]:
        return {
            "rounds": self.rounds,
            "order": self.order,
            "seed": self.seed,
            "benchmarks": list(self.benchmarks),
            "jmh_options": list(self.jmh_options),
            "steps": [s.to_json() for s in self.steps],
        }

    @classmethod
    def from_json(cls, doc: dict[str, Any]) -> Plan:
        steps = tuple(Step(int(s["index"]), int(s["round"]), str(s["side"])) for s in doc["steps"])
        return cls(
            rounds=int(doc["rounds"]),
            order=str(doc["order"]),
            seed=doc.get("seed"),
            steps=steps,
            benchmarks=tuple(doc.get("benchmarks", ())),
            jmh_options=tuple(doc.get("jmh_options", ())),
        )


def side_order(rounds: int, order: str, seed: int | None = None) -> list[tuple[str, str]]:
    """The two sides of every round in the order they run.

    ABBA alternates which side goes first, so a linear drift of the machine adds the same amount
    to both sides; ABAB is the naive order (kept for comparison with older runs); random flips a
    seeded coin per round, so the order is balanced in expectation and still reproducible.
    """
    if rounds < 1:
        raise InputError(f"--rounds must be at least 1, got {rounds}")
    if order == "abba":
        return [SIDES if r % 2 == 0 else SIDES[::-1] for r in range(rounds)]
    if order == "abab":
        return [SIDES for _ in range(rounds)]
    if order == "random":
        rng = random.Random(seed)
        return [SIDES if rng.random() < 0.5 else SIDES[::-1] for _ in range(rounds)]
    raise InputError(f"--order must be one of {', '.join(ORDERS)}, got {order!r}")


def make_plan(
    rounds: int,
    order: str,
    seed: int | None,
    benchmarks: tuple[str, ...],
    jmh_options: tuple[str, ...],
) -> Plan:
    """Lay out the steps: round by round, each round holding both sides once."""
    if order == "random" and seed is None:
        seed = random.SystemRandom().randrange(2**31)
    steps: list[Step] = []
    for r, pair in enumerate(side_order(rounds, order, seed), start=1):
        for side in pair:
            steps.append(Step(len(steps), r, side))
    return Plan(rounds, order, seed, tuple(steps), benchmarks, jmh_options)


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
    defaults = [*DEFAULT_JMH_ARGS, "-foe", "true"]
    for name, value in zip(defaults[::2], defaults[1::2], strict=True):
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


def step_argv(
    launcher: list[str],
    benchmarks: tuple[str, ...],
    options: tuple[str, ...],
    result_file: str,
) -> list[str]:
    """The full JMH command line of one step: launcher, regexes, options, result file."""
    return [*launcher, *benchmarks, *options, "-rf", "json", "-rff", result_file]


def append_jvm_args(options: tuple[str, ...], value: str) -> tuple[str, ...]:
    """``options`` with ``value`` (JVM options, space-separated) added to the forks' command line.

    JMH splits ``-jvmArgsAppend`` at spaces only when the option is given once; given twice,
    each value is passed as one argument, so ``"-Xmx1g -Dx=1"`` would reach the JVM as a single
    bad option. A user's single ``-jvmArgsAppend`` is therefore extended rather than repeated.
    """
    flag = "-jvmArgsAppend"
    at = [i for i, token in enumerate(options[:-1]) if token == flag]
    if len(at) == 1:
        i = at[0] + 1
        return (*options[:i], f"{options[i]} {value}", *options[i + 1 :])
    if not at:
        return (*options, flag, value)
    return (*options, *(t for v in value.split() for t in (flag, v)))


def list_argv(launcher: list[str], benchmarks: tuple[str, ...]) -> list[str]:
    """``-lp``: the benchmarks the regexes select, with their declared @Param values."""
    return [*launcher, *benchmarks, "-lp"]
