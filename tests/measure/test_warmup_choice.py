"""Each benchmark's warm-up for later rounds, from the first round's traces."""

from __future__ import annotations

import numpy as np

from perfproof.measure.argv import step_argv, with_warmup
from perfproof.measure.plan import (
    SEQUENTIAL,
    Step,
    make_plan,
    plan_step,
    round_steps,
)
from perfproof.measure.scheduler import Scheduler
from perfproof.measure.warmup_choice import chosen_warmups, describe
from perfproof.model import BenchKey, Direction, Samples
from perfproof.model.documents.run_plan import JmhSettings
from perfproof.model.documents.suite import Selection

DEFAULTS = JmhSettings(forks=1, warmup_iterations=3, warmup_s=0.5, iterations=4,
                       measurement_s=0.5)  # fmt: skip


def side(bench: str, forks: list[list[float]], direction: Direction = Direction.HIGHER):
    key = BenchKey(bench, "thrpt", (("n", "16"),), "primary")
    unit = "ops/s" if direction is Direction.HIGHER else "ns/op"
    return {key: Samples(key, unit, direction, [np.asarray(f, dtype=float) for f in forks])}


def test_a_benchmark_whose_forks_started_slow_gets_that_much_more_warm_up() -> None:
    # kryo-like: throughput 0.7x the steady level for the first one or two iterations
    write_base = side("k.B.write", [[70.0, 100.0, 101.0, 99.0], [100.0, 100.5, 99.5, 100.2]])
    write_head = side("k.B.write", [[69.0, 71.0, 100.0, 100.4]])
    read = side("k.B.read", [[100.0, 101.0, 99.0, 100.0]])
    chosen = chosen_warmups({**write_base, **read}, {**write_head, **read}, DEFAULTS)
    # up to 2 unsettled iterations of 0.5 s on either side: 2 more 0.5 s warm-up iterations
    assert chosen == {"k.B.write": 5}
    # the same slow start on a time metric is above the rest, not below
    slow = side("k.B.time", [[140.0, 100.0, 101.0, 99.0]], Direction.LOWER)
    assert chosen_warmups(slow, {}, DEFAULTS) == {"k.B.time": 4}
    assert "k.B.write" not in chosen_warmups(read, read, DEFAULTS)
    assert "(-wi 3 → write 5)" in describe(chosen, DEFAULTS)


def test_later_rounds_run_each_warm_up_as_its_own_step_with_its_own_wi() -> None:
    plan = make_plan(10, "abba", None, ("B",), ("-f", "1", "-wi", "3"), stopping=SEQUENTIAL)
    both = Selection(benchmarks=("k.B.read", "k.B.write"), params=(("n", ("16",)),))
    steps = round_steps(plan, 2, [both], (), {"k.B.write": 5})
    base = [s for s in steps if s.side == "base"]
    assert [(s.selection.benchmarks, s.warmup_iterations) for s in base if s.selection] == [
        (("k.B.read",), None),
        (("k.B.write",), 5),
    ]
    again = [Step.model_validate_json(s.model_dump_json()) for s in steps]
    assert again == steps  # a resumed run runs the same warm-up
    argv = step_argv(["jmh"], plan.benchmarks, with_warmup(plan.jmh_options, 5), "OUT",
                     steps[-1].selection)  # fmt: skip
    assert argv[argv.index("-wi") + 1] == "5" and argv.count("-wi") == 1
    assert with_warmup(("-f", "1"), 4) == ("-f", "1", "-wi", "4")


def test_the_estimate_counts_the_added_warm_up() -> None:
    sched = Scheduler.__new__(Scheduler)
    sched.settings = DEFAULTS
    one = Selection(benchmarks=("k.B.write",), params=(("n", ("16",)),))
    plain = sched.estimate(plan_step(0, 2, "base", 1, one))
    longer = sched.estimate(plan_step(0, 2, "base", 1, one, warmup=5))
    assert round(longer - plain, 6) == 1.0  # two more 0.5 s iterations
