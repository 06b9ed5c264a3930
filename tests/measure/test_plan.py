"""The plan: side order per round (ABBA, ABAB, seeded random) and the JMH command lines."""

from __future__ import annotations

import pytest

from perfproof.errors import InputError
from perfproof.measure.plan import (
    Plan,
    append_jvm_args,
    jmh_options,
    list_argv,
    make_plan,
    side_order,
    split_jmh_args,
    step_argv,
)


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
    assert Plan.from_json(plan.to_json()) == plan


@pytest.mark.parametrize(("rounds", "order"), [(0, "abba"), (2, "abcd")])
def test_bad_rounds_or_order_is_input_error(rounds: int, order: str) -> None:
    with pytest.raises(InputError):
        side_order(rounds, order)


def test_defaults_include_gc_profiler_and_fail_on_error() -> None:
    opts = jmh_options([])
    assert opts == (
        "-f", "1", "-wi", "3", "-w", "1s", "-i", "5", "-r", "1s", "-foe", "true", "-prof", "gc",
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
