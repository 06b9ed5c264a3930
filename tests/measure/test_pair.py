"""The pair step of a variant run without a JVM: keys paired by the rule, rounds that ask JMH for
both variants of the undecided keys, recordings given to the variant whose fork made them."""

from __future__ import annotations

from pathlib import Path

from perfproof.jmh.console import fork_keys
from perfproof.measure.pair import pair_keys, split_recordings
from perfproof.measure.plan import FIXED, SEQUENTIAL, Plan, make_plan, round_steps
from perfproof.model.documents.run_plan import PAIR
from perfproof.model.documents.suite import Selection, SuiteKey
from perfproof.model.documents.variants import Variants

PARAM = Variants(param=("optimized", "false", "true"))


def key(bench: str, **params: str) -> SuiteKey:
    return SuiteKey(benchmark=bench, params=tuple(sorted(params.items())))


def test_keys_are_paired_under_the_shared_name_and_unpaired_ones_left_out() -> None:
    listed = [
        key("p.B.run", optimized="false", n="8"),
        key("p.B.run", optimized="true", n="8"),
        key("p.B.run", optimized="maybe", n="8"),  # a third value: no side
        key("p.B.lone", optimized="true"),  # its base variant is not listed
    ]
    pairs = pair_keys(listed, PARAM)
    assert pairs.keys == [key("p.B.run", n="8")]
    assert pairs.jmh_keys(pairs.keys) == listed[:2]
    assert pairs.jmh_keys(pairs.keys, "head") == [listed[1]]
    suffix = pair_keys([key("p.B.x"), key("p.B.xOpt"), key("p.B.y")], Variants(suffix="Opt"))
    assert suffix.keys == [key("p.B.x")] and suffix.jmh_benchmarks() == {
        "p.B.x": "p.B.x", "p.B.xOpt": "p.B.x"}  # fmt: skip


def test_a_paired_plan_runs_one_step_a_round_and_survives_the_manifest() -> None:
    fixed = make_plan(3, "abba", None, (), ("-f", "1"), stopping=FIXED, paired=True)
    assert [s.id for s in fixed.steps] == ["01-pair", "02-pair", "03-pair"]
    plan = make_plan(5, "abba", None, (), ("-f", "1"), stopping=SEQUENTIAL, paired=True)
    back = Plan.model_validate(plan.dump())
    assert back.paired and [s.id for s in back.steps] == ["01-pair"]
    sel = Selection(benchmarks=("p.B.run",), params=(("optimized", ("false", "true")),))
    later = round_steps(back, 2, [sel], [(PAIR, 2, Selection(benchmarks=("p.B.run",)))])
    assert [(s.id, s.side, s.forks) for s in later] == [
        ("02-pair", PAIR, None), ("02-pair-2", PAIR, 2)]  # fmt: skip


LOG = """# Benchmark: p.B.run
# Parameters: (optimized = false)
# Warmup Fork: 1 of 1
# Fork: 1 of 2
# Fork: 2 of 2
# Benchmark: p.B.run
# Parameters: (optimized = true)
# Fork: 1 of 2
# Fork: 2 of 2
"""


def _recordings(folder: Path, n: int) -> list[Path]:
    folder.mkdir(parents=True)
    paths = [folder / f"fork-{i}.jfr" for i in range(1, n + 1)]
    for i, p in enumerate(paths):
        p.write_bytes(b"FLR\0" + bytes([i]))
    return paths


def test_recordings_go_to_the_variant_whose_fork_made_them(tmp_path: Path) -> None:
    assert fork_keys(LOG.splitlines())[0] == ("p.B.run", (("optimized", "false"),))
    step = make_plan(1, "abba", None, (), (), paired=True).steps[0]
    recordings = _recordings(tmp_path / "r1-pair", 5)
    moved = split_recordings(tmp_path, step, recordings, LOG.splitlines(), PARAM)
    base = sorted(p.name for p in (tmp_path / "r1-base").iterdir())
    head = sorted(p.name for p in (tmp_path / "r1-head").iterdir())
    assert base == ["fork-1.jfr", "fork-2.jfr", "fork-3.jfr"] and head == [
        "fork-1.jfr",
        "fork-2.jfr",
    ]
    assert (tmp_path / "r1-head" / "fork-1.jfr").read_bytes()[-1] == 3  # in the order they ran
    assert len(moved) == 5 and not (tmp_path / "r1-pair").exists()


def test_recordings_the_log_does_not_account_for_stay_together(tmp_path: Path) -> None:
    step = make_plan(1, "abba", None, (), (), paired=True).steps[0]
    recordings = _recordings(tmp_path / "r1-pair", 4)  # one fork more or less than the log says
    assert split_recordings(tmp_path, step, recordings, LOG.splitlines(), PARAM) == recordings
    assert all(p.is_file() for p in recordings) and not (tmp_path / "r1-base").exists()


def test_a_paired_plan_stays_paired_without_steps() -> None:
    """A plan cut down to no steps (before a shard's or a variant run's keys are planned
    again) still plans pair steps: ``paired`` is kept with the plan, not only read from it."""
    plan = make_plan(3, "abba", None, (), ("-f", "1"), stopping=FIXED, paired=True)
    empty = plan.model_copy(update={"steps": []})
    assert empty.paired and "paired" not in empty.dump()
    again = round_steps(empty, 1, [Selection(benchmarks=("p.B.run",))])
    assert [s.id for s in again] == ["01-pair"]
    assert not Plan.model_validate(empty.dump()).paired  # the written plan: its steps tell
