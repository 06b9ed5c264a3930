"""The round loop of a sequential run: measure, look, keep only the undecided keys, repeat.

After every round the sequential design looks at all forks measured so far (raw files on disk,
never rewritten); a key whose verdicts are all in leaves the plan, and the next round is planned
for the undecided keys only, as JMH include regexes and ``-p`` values (several JMH processes per
side when they are not one cross product). The loop ends when every key is decided, at the most
rounds, or when the next round would not fit in the time budget, which counts the time JMH ran
(:func:`measuring_seconds`), never the time spent waiting for another JMH's lock.

The state is never stored as such: it is recomputed from the forks on disk by taking the looks
again, round by round, so a resumed run continues with the looks it already took and a run
folder can be audited by replaying it. The statistics of a look are not here: they come in
through a :data:`Looker`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from perfproof.jmh.reader import read_results
from perfproof.measure.keys import Cover, cover_keys, group_keys, suite_key_of
from perfproof.measure.pair import PairKeys, pair_forks
from perfproof.measure.plan import FIXED, Plan, plan_step, round_steps
from perfproof.measure.progress import HOST_OVERHEAD_S, Reporter
from perfproof.measure.store import RunStore
from perfproof.measure.warmup_choice import chosen_warmups
from perfproof.measure.warmup_choice import describe as describe_warmups
from perfproof.model import BenchKey, Samples, SideSamples
from perfproof.model.documents.run import StepEntry
from perfproof.model.documents.run_plan import PAIR, StoppedKey, StoppingBlock
from perfproof.model.documents.suite import Selection, SuiteKey
from perfproof.units import eta as format_duration

ALL_DECIDED = "all keys decided"
MAX_ROUNDS = "most rounds reached"
UNDECIDED_AFTER_LAST = "undecided after the last look"
BUDGET = "time budget reached"
FIXED_DESIGN = "fixed design: every round runs every key"


Looker = Callable[[dict[BenchKey, Samples], dict[BenchKey, Samples], int, dict[Any, Any]],
                  dict[BenchKey, Any]]  # fmt: skip
"""``(base, head, round, previous decisions) -> decisions by key``, called after every round.

The decisions are the sequential design's ``KeyDecision`` values (``decided``, ``look``,
``note``, ``rerun``); a round before the design's first look returns none."""


def settled(decision: Any) -> bool:
    """A decision with a verdict or a futility stop (not merely out of looks)."""
    return bool(getattr(decision, "settled", getattr(decision, "decided", False)))


def undecided_after_last(count: int) -> str:
    """How a run ends whose last look left keys without a verdict or a futility stop."""
    return f"{count} key{'s' if count != 1 else ''} {UNDECIDED_AFTER_LAST}"


def needs_rerun(decision: Any) -> bool:
    """A look may leave out a fork that never warmed up: its key must run again."""
    return bool(getattr(decision, "rerun", False))


def rerun_forks(decision: Any) -> dict[str, int]:
    """Extra forks per side a look asks for (forks it left out), beyond the round's own."""
    rerun = getattr(decision, "rerun", None)
    return {str(k): int(v) for k, v in rerun.items() if v} if isinstance(rerun, dict) else {}


@dataclass
class SequentialState:
    """What the looks so far decided, recomputed from the forks on disk."""

    looks: int = 0
    """Rounds looked at so far (a round before the design's first look counts, deciding nothing)."""
    looks_taken: int = 0
    """The design's looks among them."""
    decisions: dict[BenchKey, Any] = field(default_factory=dict)
    stopped: dict[SuiteKey, int] = field(default_factory=dict)
    """Suite key → the round after which it left the plan."""
    rerun: set[SuiteKey] = field(default_factory=set)
    catch_up: dict[SuiteKey, dict[str, int]] = field(default_factory=dict)
    """Extra forks per side the next round runs for a key, replacing forks left out."""

    def undecided(self, keys: Sequence[SuiteKey]) -> list[SuiteKey]:
        """Keys the next round must run: not stopped, or holding a fork to run again."""
        return [k for k in keys if k not in self.stopped or k in self.rerun]

    def to_block(
        self, keys: Sequence[SuiteKey], ended: str | None, plan: Plan | None = None
    ) -> StoppingBlock:
        """The manifest's and results' record: at which round each key stopped, and why.

        Not one type with the block, and the one conversion between them: the state is never
        stored (it is taken again from the forks on disk, see the module's docstring) and holds
        what only the looks need (each measured key's decision, the forks still to run again),
        while the block is its account for a reader, per suite key and with the plan's most
        rounds; nothing reads a state back from it.

        ``stopped_round`` is the round after which the key left the plan (None: it never
        did, e.g. the budget ran out); ``decided`` that it left with a verdict or a futility
        stop (a key still ``inconclusive`` after the last look left the plan undecided);
        ``early`` that it stopped before the plan's most rounds.
        """
        most = plan.rounds if plan is not None else None
        entries = []
        for key in keys:
            decisions = [d for k, d in self.decisions.items() if key.holds(k)]
            notes = sorted({str(getattr(d, "note", "") or "") for d in decisions} - {""})
            entries.append(
                StoppedKey(
                    key=key.label(),
                    benchmark=key.benchmark,
                    params=dict(key.params),
                    stopped_round=self.stopped.get(key),
                    decided=key in self.stopped and all(settled(d) for d in decisions),
                    early=most is not None and key in self.stopped and self.stopped[key] < most,
                    notes=notes,
                )
            )
        return StoppingBlock(
            design=plan.stopping if plan is not None else None,
            max_rounds=most,
            rounds_run=plan.planned_rounds if plan is not None else self.looks,
            looks=self.looks_taken,
            ended=ended,
            keys=entries,
        )


def completed_rounds(store: RunStore) -> int:
    """The last round whose every step has its raw file in place."""
    plan = store.plan
    done = 0
    for r in range(1, plan.planned_rounds + 1):
        steps = [s for s in plan.steps if s.round == r]
        if not steps or not all(store.is_finished(s) for s in steps):
            break
        done = r
    return done


def side_forks(store: RunStore, side: str, up_to_round: int) -> dict[BenchKey, Samples]:
    """All forks of one side from the finished steps of rounds ``1..up_to_round`` (of a
    variant run: that side's variant in the pair steps)."""
    finished = [s for s in store.plan.steps if s.round <= up_to_round and store.is_finished(s)]
    variants = store.manifest.variants
    if variants is not None:
        pairs = [store.result_path(s) for s in finished if s.side == PAIR]
        base, head = pair_forks(pairs, variants)
        return base if side == "base" else head
    return read_results([store.result_path(s) for s in finished if s.side == side])


def run_sides(store: RunStore) -> tuple[SideSamples, SideSamples]:
    """Every fork measured so far, base and head."""
    last = store.plan.planned_rounds
    return side_forks(store, "base", last), side_forks(store, "head", last)


def replay(
    store: RunStore,
    keys: Sequence[SuiteKey],
    looker: Looker,
    state: SequentialState | None = None,
) -> SequentialState:
    """Take the looks of the completed rounds, in order, from the raw files: all of them
    (a resumed run), or those after ``state`` (the loop, round by round).

    A suite key stops at the first look at which every measured key it holds (each mode and
    metric) is decided; a fork the look left out because it never warmed up keeps its key in
    the next round.
    """
    state = state or SequentialState()
    for look in range(state.looks + 1, completed_rounds(store) + 1):
        base = side_forks(store, "base", look)
        head = side_forks(store, "head", look)
        state.decisions = dict(looker(base, head, look, state.decisions))
        state.looks = look
        state.looks_taken += 1 if state.decisions else 0
        state.rerun = {suite_key_of(k) for k, d in state.decisions.items() if needs_rerun(d)}
        state.catch_up = {}
        for k, d in state.decisions.items():
            for side, n in rerun_forks(d).items():
                extra = state.catch_up.setdefault(suite_key_of(k), {})
                extra[side] = max(extra.get(side, 0), n)
        measured: dict[SuiteKey, list[Any]] = {}
        for k, d in state.decisions.items():
            measured.setdefault(suite_key_of(k), []).append(d)
        for key in keys:
            found = measured.get(key)
            if key in state.stopped or not found:
                continue
            if all(bool(getattr(d, "decided", False)) for d in found) and key not in state.rerun:
                state.stopped[key] = look
    return state


def catch_up_parts(
    state: SequentialState, pairs: PairKeys | None = None
) -> list[tuple[str, int, Selection]]:
    """(side, forks, selection) of the catch-up steps the next round needs; of a variant
    run, pair steps running the JMH keys of the side that needs them."""
    by_need: dict[tuple[str, int], list[SuiteKey]] = {}
    for key, sides in state.catch_up.items():
        for side, n in sides.items():
            by_need.setdefault((side, n), []).append(key)
    if pairs is not None:
        return [
            (PAIR, n, selection)
            for (side, n), keys in sorted(by_need.items())
            for selection in group_keys(pairs.jmh_keys(keys, side))
        ]
    return [
        (side, n, selection)
        for (side, n), keys in sorted(by_need.items())
        for selection in group_keys(keys)
    ]


def measuring_seconds(steps: Iterable[StepEntry]) -> float:
    """What ``--budget`` is charged: the seconds JMH itself ran in the finished steps (kept
    across resumes), never the time a step waited for another JMH's lock or its turn in the
    queue. Every JMH process recorded as a step counts, whatever it is for (a round's part, a
    catch-up, a recording step); a step written before JMH's own time was recorded counts its
    duration less its lock wait."""
    return sum((e.jmh_ran_s() for e in steps), 0.0)


def lock_wait_seconds(steps: Iterable[StepEntry]) -> float:
    """Seconds the run's steps waited for another JMH's lock (not charged to the budget)."""
    return sum((e.lock_wait_s or 0.0 for e in steps), 0.0)


def lock_holders(steps: Iterable[StepEntry]) -> list[str]:
    """Who held the JMH lock while the run's steps waited, first seen first."""
    out: list[str] = []
    for e in steps:
        for who in e.lock_holders or []:
            if who not in out:
                out.append(who)
    return out


@dataclass
class RoundLoop:
    """Runs the rounds of a plan, planning each sequential round from the looks."""

    store: RunStore
    run_steps: Callable[[list], None]
    """Runs a list of steps (the scheduler's ``run_steps``)."""
    estimate: Callable[[Any], float]
    """Expected seconds of one step (the scheduler's ``estimate``)."""
    keys: Sequence[SuiteKey]
    """The suite's keys measured on both sides (what the run decides about)."""
    looker: Looker
    reporter: Reporter
    last: frozenset[str] = frozenset()
    """Benchmarks measured last: when a round does not fit the budget, their keys are the
    first left undecided (``prove``: those only dynamic dispatch reaches)."""
    """The step total last announced: an upper bound that falls as keys stop."""
    choose_warmup: bool = True
    """Give each benchmark's later rounds the warm-up its round-1 forks showed it needs."""
    pairs: PairKeys | None = None
    """A variant run's keys: ``keys`` are in the names both sides share, and the rounds ask
    JMH for the JMH keys of both variants (one pair step each)."""
    _warmup_said: bool = False

    def run(self) -> tuple[SequentialState, str]:
        """Run until done; returns the final state and why the loop ended."""
        state = SequentialState()
        cut: set[SuiteKey] = set()
        while True:
            pending = self.store.pending_steps()
            if pending:
                self._announce(pending)
                self.run_steps(pending)
            state = replay(self.store, self.keys, self.looker, state)
            plan = self.store.plan
            if plan.stopping == FIXED:
                return state, FIXED_DESIGN
            undecided = [k for k in state.undecided(self.keys) if k not in cut]
            if not undecided:
                return state, BUDGET if cut else self._all_stopped(state)
            next_round = plan.planned_rounds + 1
            if next_round > plan.rounds:
                return state, f"{MAX_ROUNDS}: {undecided_after_last(len(undecided))}"
            cover = self._cover(undecided)
            warmups = self._warmups(plan)
            steps = round_steps(plan, next_round, cover.selections,
                                catch_up_parts(state, self.pairs), warmups)  # fmt: skip
            if not self._fits(plan, steps):
                kept = [k for k in undecided if k.benchmark not in self.last]
                if not kept or len(kept) == len(undecided):
                    return self._budget_ends(state, plan)
                cover = self._cover(kept)
                steps = round_steps(plan, next_round, cover.selections,
                                    catch_up_parts(state, self.pairs), warmups)  # fmt: skip
                if not self._fits(plan, steps):
                    return self._budget_ends(state, plan)
                cut.update(k for k in undecided if k.benchmark in self.last)
                self.reporter.message(
                    f"budget: {len(undecided) - len(kept)} key(s) measured last are left "
                    f"undecided so that the other {len(kept)} fit round {next_round}"
                )
                undecided = kept
            if state.decisions:
                said = f"{len(self.keys) - len(undecided)} of {len(self.keys)} keys decided"
            else:
                said = "too few forks for a first look yet"
            self.reporter.message(
                f"after round {next_round - 1}: {said}; round {next_round} runs the "
                f"{len(undecided)} undecided"
            )
            for why in cover.why:
                self.reporter.message(f"round {next_round}: {why}")
            self.store.add_steps(plan.with_steps(steps), steps)

    def _warmups(self, plan: Plan) -> dict[str, int]:
        """Each benchmark's warm-up for the rounds after the first, from round 1's traces
        (said once: the choice is the same every round, and after a resume)."""
        if not self.choose_warmup:
            return {}
        settings = plan.settings
        warmups = chosen_warmups(
            side_forks(self.store, "base", 1), side_forks(self.store, "head", 1), settings
        )
        if warmups and not self._warmup_said:
            self.reporter.message(describe_warmups(warmups, settings))
        self._warmup_said = True
        if self.pairs is not None:  # chosen per shared benchmark, asked per JMH benchmark
            shared = self.pairs.jmh_benchmarks()
            return {jmh: warmups[name] for jmh, name in shared.items() if name in warmups}
        return warmups

    def _cover(self, keys: list[SuiteKey]) -> Cover:
        """The round's JMH invocations for ``keys``: one per benchmark where running a few
        decided @Param combinations along costs less than another JVM start."""
        suite = list(self.keys)
        if self.pairs is not None:
            keys, suite = self.pairs.jmh_keys(keys), self.pairs.jmh_keys(suite)
        one = keys[0]
        only = Selection(benchmarks=(one.benchmark,),
                         params=tuple((name, (value,)) for name, value in one.params))  # fmt: skip
        probe = plan_step(0, 0, "base", 1, only)
        key_s = max(self.estimate(probe) - HOST_OVERHEAD_S, 0.0)
        return cover_keys(keys, suite, key_s, HOST_OVERHEAD_S)

    def _all_stopped(self, state: SequentialState) -> str:
        """Every key left the plan: all with a verdict or a futility stop, or some still
        undecided when the last look was taken."""
        open_keys = [
            key
            for key in self.keys
            if not all(settled(d) for k, d in state.decisions.items() if key.holds(k))
        ]
        return undecided_after_last(len(open_keys)) if open_keys else ALL_DECIDED

    def _fits(self, plan: Plan, steps: list) -> bool:
        """Whether the next round ends within the budget, by the estimate scaled by how long
        the finished steps took against theirs."""
        budget = plan.budget
        if budget is None:
            return True
        spent = measuring_seconds(self.store.manifest.steps)
        done = [s for s in plan.steps if self.store.is_finished(s)]
        estimated = sum(self.estimate(s) for s in done)
        scale = min(max(spent / estimated, 0.5), 3.0) if estimated > 0 and spent > 0 else 1.0
        need = scale * sum(self.estimate(s) for s in steps)
        return budget.fits(spent, need)

    def _budget_ends(self, state: SequentialState, plan: Plan) -> tuple[SequentialState, str]:
        """End the loop for the budget, saying what it was charged and what it was not."""
        steps = self.store.manifest.steps
        spent, waited = measuring_seconds(steps), lock_wait_seconds(steps)
        budget = format_duration(plan.budget.seconds if plan.budget else 0.0)
        not_counted = ""
        if waited >= 1:
            not_counted = f"; {format_duration(waited)} waiting for the JMH lock not counted"
        self.reporter.message(
            f"budget: {format_duration(spent)} of --budget {budget} measured (the time JMH "
            f"ran{not_counted}); the next round would not fit"
        )
        return state, BUDGET

    def _announce(self, pending: list) -> None:
        """Tell the reporter what is ahead: the pending steps, and at most the rounds left for
        the undecided keys, capped by the budget."""
        plan = self.store.plan
        now = sum(self.estimate(s) for s in pending)
        rounds_left = 0 if plan.stopping == FIXED else plan.rounds - plan.planned_rounds
        per_round = sum(self.estimate(s) for s in pending if s.round == pending[-1].round)
        most = now + rounds_left * per_round
        if plan.budget is not None:
            most = min(
                most, max(plan.budget.left(measuring_seconds(self.store.manifest.steps)), now)
            )
        steps_per_round = len([s for s in pending if s.round == pending[-1].round])
        ahead = len(pending) + rounds_left * steps_per_round
        self.reporter.start_run(most, ahead, rounds=plan.rounds if plan.stopping != FIXED else None)


def sides_present(base_keys: Sequence[SuiteKey], head_keys: Sequence[SuiteKey]) -> list[SuiteKey]:
    """The keys both sides list: only those can be compared, so only those keep running."""
    return sorted(set(base_keys) & set(head_keys))
