"""The plan: side order per round (ABBA, ABAB, seeded random) and the JMH command lines."""

from __future__ import annotations

import pytest

from perfproof.errors import InputError
from perfproof.measure.argv import append_jvm_args, list_argv, step_argv, with_forks
from perfproof.measure.plan import (
    SEQUENTIAL,
    Plan,
    jmh_options,
    make_plan,
    parse_budget,
    restrict_first_round,
    round_steps,
    side_order,
    split_jmh_args,
)
from perfproof.model.documents.run_plan import parse_settings
from perfproof.model.documents.suite import Selection


def sequence(plan: Plan) -> list[str]:
    return [s.id for s in plan.steps]


def test_abba_alternates_which_side_goes_first() -> None:
    plan = make_plan(4, "abba", None, (), ())
    assert sequence(plan) == [
        "01-base", "01-head", "02-head", "02-base",
        "03-base", "03-head", "04-head", "04-base",
    ]  # fmt: skip
    assert [s.index for s in plan.steps] == list(range(8))


def test_abab_always_runs_base_first() -> None:
    assert sequence(make_plan(3, "abab", None, (), ())) == [
        "01-base", "01-head", "02-base", "02-head", "03-base", "03-head",
    ]  # fmt: skip


def test_random_order_is_reproducible_from_its_seed_and_balanced_per_round() -> None:
    a = side_order(40, "random", 7)
    assert a == side_order(40, "random", 7)
    assert a != side_order(40, "random", 8)
    assert all(sorted(pair) == ["base", "head"] for pair in a)
    firsts = [pair[0] for pair in a]
    assert 8 < firsts.count("base") < 32  # a fair coin, not a fixed order


def test_random_without_seed_records_the_seed_it_drew() -> None:
    plan = make_plan(6, "random", None, (), ())
    assert isinstance(plan.seed, int)
    again = make_plan(6, "random", plan.seed, (), ())
    assert sequence(again) == sequence(plan)


def test_plan_round_trips_through_json() -> None:
    plan = make_plan(3, "random", 11, ("Foo", "Bar.baz"), ("-f", "1"))
    assert Plan.model_validate(plan.dump()) == plan


@pytest.mark.parametrize(("rounds", "order"), [(0, "abba"), (2, "abcd")])
def test_bad_rounds_or_order_is_input_error(rounds: int, order: str) -> None:
    with pytest.raises(InputError):
        side_order(rounds, order)


def test_defaults_include_gc_profiler_and_fail_on_error() -> None:
    opts = jmh_options([])
    assert opts == (
        "-f", "1", "-wi", "3", "-w", "500ms", "-i", "4", "-r", "500ms", "-foe", "true",
        "-prof", "gc",
    )  # fmt: skip


def test_user_options_replace_defaults_of_the_same_name_and_pass_the_rest() -> None:
    opts = list(
        jmh_options(split_jmh_args("-f 2 -i 10 -p 'n=16,128' -jvmArgsAppend '-Xmx1g -Dx=a b'"))
    )
    assert opts.count("-f") == 1 and opts[opts.index("-f") + 1] == "2"
    assert opts.count("-i") == 1 and opts[opts.index("-i") + 1] == "10"
    assert opts[opts.index("-wi") + 1] == "3"  # default kept
    assert opts[opts.index("-p") + 1] == "n=16,128"
    assert opts[opts.index("-jvmArgsAppend") + 1] == "-Xmx1g -Dx=a b"  # one argv element
    assert opts[-2:] == ["-prof", "gc"]


def test_gc_profiler_not_added_twice_and_other_profilers_kept() -> None:
    opts = list(jmh_options(["-prof", "gc", "-prof", "stack"]))
    assert opts.count("gc") == 1
    assert "stack" in opts


def test_result_file_options_belong_to_perfproof() -> None:
    with pytest.raises(InputError, match="-rff"):
        jmh_options(["-rff", "x.json"])


def test_unbalanced_quotes_in_jmh_args_are_input_error() -> None:
    with pytest.raises(InputError, match="--jmh-args"):
        split_jmh_args("-jvmArgs '-Xmx1g")


def test_step_argv_puts_regexes_before_options_and_owns_the_result_file() -> None:
    argv = step_argv(["java", "-jar", "b.jar"], ("Foo.*", "Bar"), ("-f", "1"), "/r/1-a.json")
    assert argv == [
        "java", "-jar", "b.jar", "Foo.*", "Bar", "-f", "1", "-rf", "json", "-rff", "/r/1-a.json",
    ]  # fmt: skip
    assert list_argv(["java", "-jar", "b.jar"], ("Foo",)) == ["java", "-jar", "b.jar", "Foo", "-lp"]


def test_jvm_args_join_a_single_user_jvm_args_append_instead_of_repeating_it() -> None:
    # JMH splits -jvmArgsAppend at spaces only when given once
    assert append_jvm_args(("-f", "1"), "-XX:X=1") == ("-f", "1", "-jvmArgsAppend", "-XX:X=1")
    one = append_jvm_args(("-jvmArgsAppend", "-Xmx1g -Da=1", "-f", "2"), "-XX:X=1")
    assert one == ("-jvmArgsAppend", "-Xmx1g -Da=1 -XX:X=1", "-f", "2")
    two = append_jvm_args(("-jvmArgsAppend", "-Xmx1g", "-jvmArgsAppend", "-Da=1"), "-XX:X=1 -Db")
    assert two[4:] == ("-jvmArgsAppend", "-XX:X=1", "-jvmArgsAppend", "-Db")


def test_a_sequential_plan_starts_with_its_first_round_only() -> None:
    plan = make_plan(10, "abba", None, ("Foo",), ("-f", "1"), stopping=SEQUENTIAL)
    assert sequence(plan) == ["01-base", "01-head"] and plan.rounds == 10
    assert Plan.model_validate(plan.dump()) == plan


def test_later_rounds_keep_abba_and_number_their_parts() -> None:
    plan = make_plan(10, "abba", None, ("Foo",), ("-f", "1"), stopping=SEQUENTIAL)
    a = Selection(benchmarks=("fx.A.x",), params=(("n", ("1", "2")),))
    b = Selection(benchmarks=("fx.B.y",), params=())
    r2 = round_steps(plan, 2, [a, b])
    assert [s.id for s in r2] == ["02-head", "02-base", "02-head-2", "02-base-2"]
    assert [s.index for s in r2] == [2, 3, 4, 5] and r2[0].selection == a
    plan = plan.with_steps(r2)
    r3 = round_steps(plan, 3, [a], [("head", 2, b)])
    assert [(s.id, s.forks) for s in r3] == [("03-base", None), ("03-head", None),
                                              ("03-head-2", 2)]  # fmt: skip
    assert Plan.model_validate(plan.with_steps(r3).dump()) == plan.with_steps(r3)
    assert [s.id for s in round_steps(plan, 3, [a])] == ["03-base", "03-head"]


def test_a_selection_step_replaces_the_regexes_and_the_user_params() -> None:
    sel = Selection(benchmarks=("fx.Outer$In.run",), params=(("n", ("16",)), ("s", ("a", "b"))))
    argv = step_argv(["jmh"], ("Outer",), ("-f", "1", "-p", "n=16,128", "-prof", "gc"), "/r.json",
                     sel)  # fmt: skip
    assert argv == ["jmh", r"^fx\.Outer\$In\.run$", "-f", "1", "-prof", "gc", "-p", "n=16",
                    "-p", "s=a,b", "-rf", "json", "-rff", "/r.json"]  # fmt: skip
    assert with_forks(("-f", "1", "-i", "2"), 3) == ("-f", "3", "-i", "2")
    assert with_forks(("-i", "2"), None) == ("-i", "2")


def test_listing_passes_the_user_params_so_keys_match_the_run() -> None:
    argv = list_argv(["jmh"], ("Foo",), ("-f", "1", "-p", "n=16", "-prof", "gc"))
    assert argv == ["jmh", "Foo", "-p", "n=16", "-lp"]


@pytest.mark.parametrize(
    ("text", "seconds"),
    [("90s", 90), ("15m", 900), ("1h", 3600), ("1h30m", 5400), ("45", 45), ("2.5m", 150)],
)
def test_budget_durations(text: str, seconds: float) -> None:
    budget = parse_budget(text)
    assert budget.seconds == seconds and budget.text == str(budget) == text


@pytest.mark.parametrize("text", ["", "15 minutes", "0s", "-5m", "15ms", "m"])
def test_bad_budgets_are_refused_naming_the_flag(text: str) -> None:
    with pytest.raises(InputError, match=r"^--budget"):
        parse_budget(text)


def test_the_budget_is_the_one_ledger_of_what_fits() -> None:
    budget = parse_budget("1m30s")
    assert budget.fits(60.0, 30.0) and not budget.fits(60.0, 30.5)  # spent + need <= budget
    assert budget.left(100.0) == 0.0 and budget.left(20.0) == 70.0
    plan = make_plan(4, "abba", None, (), (), stopping=SEQUENTIAL, budget_s=budget.seconds)
    assert plan.budget is not None and plan.budget.seconds == 90.0
    assert make_plan(4, "abba", None, (), ()).budget is None


def test_a_seed_with_a_fixed_order_is_refused_at_the_door() -> None:
    from perfproof.measure.plan import Order
    from perfproof.pipeline.ab.options import AbOptions, check_options

    with pytest.raises(InputError, match="--seed only applies to --order random"):
        check_options(AbOptions("a", "b", order=Order.ABBA, seed=7))


def test_a_first_round_can_be_restricted_to_a_part_of_the_suite() -> None:
    plan = make_plan(10, "abba", None, ("Foo",), ("-f", "1"), stopping=SEQUENTIAL)
    part = [
        Selection(benchmarks=("fx.A.x",), params=(("n", ("1",)),)),
        Selection(benchmarks=("fx.B.y",), params=()),
    ]
    shard = restrict_first_round(plan, part)
    assert [s.id for s in shard.steps] == ["01-base", "01-head", "01-base-2", "01-head-2"]
    assert [s.index for s in shard.steps] == [0, 1, 2, 3]
    assert [s.selection for s in shard.steps] == [part[0], part[0], part[1], part[1]]
    nxt = round_steps(shard, 2, part[:1])
    assert [(s.id, s.index) for s in nxt] == [("02-head", 4), ("02-base", 5)]


def test_a_plan_written_before_plans_kept_their_settings_reads_them_from_its_options() -> None:
    plan = make_plan(2, "abba", None, (), ("-f", "2", "-wi", "1", "-w", "100ms"))
    assert plan.jmh_settings == parse_settings(plan.jmh_options)
    doc = plan.dump()
    del doc["jmh_settings"]
    old = Plan.model_validate(doc)
    assert old.jmh_settings is None and old.settings == plan.jmh_settings
    assert plan.settings is plan.jmh_settings
