"""Suite keys from JMH's listing, and selections that run exactly a subset of them."""

from __future__ import annotations

import itertools
import json
import re
from pathlib import Path

import pytest

from perfproof.errors import InputError
from perfproof.jmh.listing import parse_listing
from perfproof.measure.keys import (
    check_bench_regexes,
    group_keys,
    include_regex,
    java_escape,
    param_args,
    suite_key_of,
    suite_keys,
)
from perfproof.model import ALLOC_NORM, BenchKey
from perfproof.model.documents.suite import Selection, SuiteKey

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"

# JMH 1.37 `-lp` output of a suite with two params on one class (recorded from a real jar,
# one benchmark of a nested class added by hand: `$` in its name)
LISTING = (
    "Benchmarks: \n"
    + """\
fx.Codes.loopEmpty
  param "n" = {16, 128}
fx.Codes.sum
  param "kind" = {list, set}
  param "n" = {16, 128, 1024}
fx.Outer$Inner.run
fx.Thr.concat
"""
)


def key(bench: str, **params: str) -> SuiteKey:
    return SuiteKey(benchmark=bench, params=tuple(sorted(params.items())))


def test_listing_parses_benchmarks_and_their_params_in_jmh_order() -> None:
    listing = parse_listing(LISTING)
    assert list(listing) == ["fx.Codes.loopEmpty", "fx.Codes.sum", "fx.Outer$Inner.run",
                             "fx.Thr.concat"]  # fmt: skip
    assert listing["fx.Codes.sum"] == {"kind": ("list", "set"), "n": ("16", "128", "1024")}
    assert listing["fx.Thr.concat"] == {}
    assert parse_listing("Benchmarks: \nfx.A.b\nfx.A.c\n") == {"fx.A.b": {}, "fx.A.c": {}}


def test_keys_are_the_cross_product_sorted_and_stable() -> None:
    keys = suite_keys(LISTING)
    assert len(keys) == 2 + 2 * 3 + 1 + 1
    assert keys == sorted(keys) and len(set(keys)) == len(keys)
    assert keys == suite_keys(LISTING)  # deterministic: shards split by position
    assert key("fx.Codes.sum", kind="set", n="1024") in keys
    assert key("fx.Codes.sum", n="16", kind="list").label() == "fx.Codes.sum(kind=list, n=16)"
    assert key("fx.Thr.concat").label() == "fx.Thr.concat"


def test_suite_key_folds_modes_and_metrics_and_round_trips() -> None:
    k = key("fx.Codes.sum", n="16", kind="list")
    measured = BenchKey("fx.Codes.sum", "avgt", (("kind", "list"), ("n", "16")), ALLOC_NORM)
    assert suite_key_of(measured) == k and k.holds(measured)
    assert not k.holds(BenchKey("fx.Codes.sum", "avgt", (("kind", "set"), ("n", "16"))))
    assert k.dump() == {"benchmark": "fx.Codes.sum", "params": {"kind": "list", "n": "16"}}
    assert SuiteKey.read(k.dump(), "key") == k
    hash(k)  # frozen: usable in sets and as dict keys


def test_real_keys_read_from_a_run_and_write_back_as_they_were() -> None:
    """The keys of a real run (kryo's, @Param values of every kind) as a document holds
    them: read as suite keys, written back entry for entry, sorted as the run sorted them."""
    manifest = FIXTURES / "runs" / "kryo-24-keys-defaults" / "manifest.json"
    stopped = json.loads(manifest.read_text())["stopping"]["keys"]
    blocks = [{"benchmark": k["benchmark"], "params": k["params"]} for k in stopped]
    keys = [SuiteKey.read(b, "manifest.json") for b in blocks]
    assert [k.dump() for k in keys] == blocks
    assert [json.dumps(k.dump()) for k in keys] == [json.dumps(b) for b in blocks]
    assert [k.label() for k in keys] == [k["key"] for k in stopped]
    assert sorted(keys) == sorted(keys, key=lambda k: (k.benchmark, k.params))


def test_java_escape_makes_names_literal() -> None:
    for name in ["fx.Outer$Inner.run", "a.b+c", "x(1)[2]{3}", "p|q^r", "we.ird-name"]:
        pattern = re.compile("^" + java_escape(name) + "$")
        assert pattern.match(name)
        assert not pattern.match(name + "x") and not pattern.match("x" + name)
    assert java_escape("fx.A$B") == r"fx\.A\$B"


def test_include_regex_is_anchored_and_selects_only_its_benchmarks() -> None:
    sel = Selection(benchmarks=("fx.Codes.sum", "fx.Codes.loopEmpty"), params=(("n", ("16",)),))
    regex = re.compile(include_regex(sel))
    names = [*parse_listing(LISTING), "fx.Codes.sumAll", "org.fx.Codes.sum"]
    # JMH uses find(): an unanchored "fx.Codes.sum" would also select sumAll and org.fx...
    assert [n for n in names if regex.search(n)] == ["fx.Codes.loopEmpty", "fx.Codes.sum"]
    assert param_args(sel) == ("-p", "n=16")
    assert sel.dump() == {
        "benchmarks": ["fx.Codes.sum", "fx.Codes.loopEmpty"],
        "params": {"n": ["16"]},
    }
    assert Selection.read(sel.dump(), "selection") == sel


@pytest.mark.parametrize("run", ["kryo-24-keys-defaults", "demo-aa-control", "kryo-shard-1"])
def test_real_selections_read_from_a_run_and_write_back_as_they_were(run: str) -> None:
    """The selections of a real run's plan and steps (kryo's numeric @Param values in their
    numeric order) read as selections and write back entry for entry, in the same order."""
    doc = json.loads((FIXTURES / "runs" / run / "manifest.json").read_text())
    blocks = [s["selection"] for s in doc["plan"]["steps"] + doc["steps"] if "selection" in s]
    assert blocks
    for block in blocks:
        sel = Selection.read(block, "manifest.json")
        assert json.dumps(sel.dump()) == json.dumps(block)
        assert sel.members() and all(k.benchmark in sel.benchmarks for k in sel.members())


def exact_cover(keys: list[SuiteKey], selections: list[Selection]) -> list[SuiteKey]:
    covered = [k for s in selections for k in s.members()]
    assert len(covered) == len(set(covered)), "a key would run twice in one round"
    return sorted(covered)


def test_a_cross_product_is_one_invocation() -> None:
    keys = [k for k in suite_keys(LISTING) if k.benchmark == "fx.Codes.sum"]
    assert group_keys(keys) == [
        Selection(
            benchmarks=("fx.Codes.sum",),
            params=(("kind", ("list", "set")), ("n", ("16", "128", "1024"))),
        )
    ]


def test_benchmarks_with_equal_params_share_an_invocation() -> None:
    keys = [key("fx.A.x", n="1"), key("fx.A.y", n="1"), key("fx.B.z"), key("fx.B.w")]
    sels = group_keys(keys)
    assert sels == [Selection(benchmarks=("fx.A.x", "fx.A.y"), params=(("n", ("1",)),)),
                    Selection(benchmarks=("fx.B.w", "fx.B.z"), params=())]  # fmt: skip


def test_a_set_that_is_not_a_cross_product_is_split_exactly() -> None:
    # an L shape: (list,16) (list,128) (set,16) — no single -p can select it
    keys = [key("fx.Codes.sum", kind="list", n="16"), key("fx.Codes.sum", kind="list", n="128"),
            key("fx.Codes.sum", kind="set", n="16")]  # fmt: skip
    sels = group_keys(keys)
    assert len(sels) == 2
    assert exact_cover(keys, sels) == sorted(keys)


@pytest.mark.parametrize("seed", range(20))
def test_any_subset_is_covered_exactly_and_deterministically(seed: int) -> None:
    import random

    rng = random.Random(seed)
    universe = [key("b.X.m", a=a, b=b, c=c) for a, b, c in itertools.product("12", "xyz", "pq")]
    universe += [key("b.Y.m", a=a) for a in "123"]
    subset = [k for k in universe if rng.random() < 0.6] or universe[:1]
    sels = group_keys(subset)
    assert exact_cover(subset, sels) == sorted(subset)
    assert group_keys(list(reversed(subset))) == sels
    # never worse than one invocation per key
    assert len(sels) <= len(subset)


def test_param_values_are_ordered_as_numbers() -> None:
    keys = [key("b.X.m", n=n) for n in ("1024", "16", "128")]
    assert param_args(group_keys(keys)[0]) == ("-p", "n=16,128,1024")


def test_bench_regex_is_checked_at_the_door() -> None:
    check_bench_regexes(["ErrorReporterBench", r"fx\.Codes\.(sum|loop.*)", r"\p{Lu}\w+Bench"])
    for bad in ["[", "(unclosed", "*x"]:
        with pytest.raises(InputError, match=r"^--bench"):
            check_bench_regexes([bad])
    with pytest.raises(InputError, match="--bench"):
        check_bench_regexes([""])


def _grid(bench: str = "fx.B.run") -> list[SuiteKey]:
    return [
        SuiteKey(benchmark=bench, params=(("a", a), ("b", b)))
        for a in ("1", "2")
        for b in ("x", "y")
    ]


def test_one_invocation_when_the_decided_keys_it_adds_cost_less_than_a_jvm_start() -> None:
    from perfproof.measure.keys import cover_keys

    suite = _grid()
    undecided = [suite[0], suite[3]]  # (1, x) and (2, y): no cross product of their own
    cheap = cover_keys(undecided, suite, key_s=0.4, start_s=1.0)
    (one,) = cheap.selections
    assert one.params == (("a", ("1", "2")), ("b", ("x", "y"))) and cheap.why == []
    # a key's forks cost more than a JVM start: two invocations, and the log says why
    dear = cover_keys(undecided, suite, key_s=4.3, start_s=1.0)
    assert [s.members() for s in dear.selections] == [[suite[0]], [suite[3]]]
    (why,) = dear.why
    assert why == (
        "fx.B.run: 2 JMH invocations a side; one would also run 2 decided key(s) "
        "(about 9s of forks a side) against about 1s for the further JVM start(s)"
    )


def test_combinations_the_suite_lacks_are_never_run_to_save_a_start() -> None:
    from perfproof.measure.keys import cover_keys

    suite = _grid()[:3]  # (2, y) was never listed (the user's -p left it out)
    undecided = [suite[1], suite[2]]  # (1, y) and (2, x)
    cover = cover_keys(undecided, suite, key_s=0.01, start_s=1.0)
    assert len(cover.selections) == 2
    assert cover.why == [
        "fx.B.run: 2 JMH invocations a side; the values its keys need do not "
        "make one cross product of the suite's keys"
    ]


def test_a_join_that_adds_one_cheap_key_is_taken_before_a_dearer_one() -> None:
    from perfproof.measure.keys import cover_keys

    suite = [SuiteKey(benchmark="fx.C.run", params=(("n", n),)) for n in ("1", "2", "3")]
    line = cover_keys(suite, suite, key_s=100.0, start_s=1.0)
    assert len(line.selections) == 1  # one parameter: always one cross product, nothing added
    grid = _grid("fx.C.run")
    three = [grid[0], grid[1], grid[2]]  # every key but (2, y)
    cover = cover_keys(three, grid, key_s=0.5, start_s=1.0)
    assert len(cover.selections) == 1 and cover.why == []
