"""Two variants of one run as the sides: ``--pair``, ``--pair-suffix`` and ``--sides-by-param``,
on the real JMH 1.37 output (``fx.Codes``: ``streamEmpty`` and ``loopEmpty`` do the same work by
a stream and by a loop, each at ``@Param n`` = 16 and 128)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from perfproof.errors import InputError
from perfproof.jmh.reader import load_side
from perfproof.model.documents.variants import Variants
from perfproof.model.variants import parse_pair, parse_sides_by_param, split

RESULTS = Path(__file__).parents[1] / "fixtures" / "jmh" / "jmh-1.37-allmodes-gc.json"


def _keys(doc: dict) -> set[tuple[str, tuple[tuple[str, str], ...]]]:
    return {
        (c["benchmark"], tuple(sorted(c["params"].items())))
        for c in doc["comparisons"]
        if c["metric"] == "primary"
    }


def test_a_pair_of_benchmarks_is_compared_like_two_commits(run_cli) -> None:
    res = run_cli("compare", str(RESULTS), "--pair", "streamEmpty=loopEmpty", "--format", "json")
    assert res.code == 0, res.err
    doc = json.loads(res.out)
    assert _keys(doc) == {("fx.Codes.streamEmpty", (("n", "16"),)),
                          ("fx.Codes.streamEmpty", (("n", "128"),))}  # fmt: skip
    assert doc["notes"][0] == "sides by pair: base streamEmpty, head loopEmpty"
    side = load_side(str(RESULTS))
    for c in doc["comparisons"]:
        if c["metric"] != "primary":
            continue
        params = tuple(sorted(c["params"].items()))
        stream = next(s for k, s in side.items() if k.benchmark.endswith("streamEmpty")
                      and k.params == params and k.metric == "primary")  # fmt: skip
        loop = next(s for k, s in side.items() if k.benchmark.endswith("loopEmpty")
                    and k.params == params and k.metric == "primary")  # fmt: skip
        # the sides are exactly the two benchmarks' forks, nothing pooled or dropped
        assert c["base"]["estimate"] == pytest.approx(float(stream.fork_means().mean()))
        assert c["head"]["estimate"] == pytest.approx(float(loop.fork_means().mean()))
    # the two sides are its forks: ``fx.Codes.sum`` and the other modes are left out
    assert all("sum" not in c["benchmark"] for c in doc["comparisons"])


def test_two_values_of_a_param_are_the_sides(run_cli) -> None:
    res = run_cli("compare", str(RESULTS), "--sides-by-param", "n=16,128", "--format", "json")
    assert res.code == 0, res.err
    doc = json.loads(res.out)
    assert _keys(doc) == {("fx.Codes.streamEmpty", ()), ("fx.Codes.loopEmpty", ()),
                          ("fx.Codes.sum", ())}  # fmt: skip
    sums = [c for c in doc["comparisons"] if c["benchmark"] == "fx.Codes.sum"
            and c["metric"] == "primary"]  # fmt: skip
    # summing 128 ints takes longer than summing 16: the head side is the n=128 one
    assert sums[0]["ratio"] > 1.5


def test_a_suffix_rule_pairs_every_benchmark_with_its_variant() -> None:
    side = load_side(str(RESULTS))
    renamed = {
        k.with_metric(k.metric).__class__(k.benchmark.replace("loopEmpty", "streamEmptyOpt"),
                                          k.mode, k.params, k.metric): s
        for k, s in side.items()
    }  # fmt: skip
    base, head = split(renamed, Variants(suffix="Opt"))
    assert {k.benchmark for k in base} == {k.benchmark for k in head} == {"fx.Codes.streamEmpty"}


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--pair", "a"], "expected BASE=HEAD"),
        (["--pair", "a=a"], "name the same benchmark"),
        (["--sides-by-param", "n=16"], "expected NAME=BASE,HEAD"),
        (["--pair", "a=b", "--sides-by-param", "n=1,2"], "--pair and --sides-by-param both"),
        (["--pair", "nothere=alsonot"], "no entry is the base of sides by pair"),
    ],
)
def test_bad_variant_rules_are_one_line_errors(run_cli, args: list[str], message: str) -> None:
    res = run_cli("compare", str(RESULTS), *args)
    assert res.code == 2
    assert message in res.err and len(res.err.strip().splitlines()) == 1


def test_one_result_set_only(run_cli) -> None:
    res = run_cli("compare", str(RESULTS), str(RESULTS), "--pair", "streamEmpty=loopEmpty")
    assert res.code == 2 and "give BASE only" in res.err
    res = run_cli("compare", str(RESULTS))
    assert res.code == 2 and "missing HEAD" in res.err


def test_parsers() -> None:
    assert parse_pair(" decode = decodeOpt ") == ("decode", "decodeOpt")
    assert parse_sides_by_param("optimized=false,true") == ("optimized", "false", "true")
    with pytest.raises(InputError):
        parse_sides_by_param("optimized=true,true")
