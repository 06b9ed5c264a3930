"""The partition of a suite's keys into shards: complete, disjoint, balanced, order-free."""

from __future__ import annotations

import random
from dataclasses import dataclass

import pytest

from perfproof.errors import InputError
from perfproof.measure.shard import (
    Shard,
    check_resume_shard,
    parse_shard,
    partition,
    partition_digest,
    shard_manifest,
)
from perfproof.model.documents.run import RunManifest
from perfproof.model.documents.run_plan import Machine, ShardBlock


@dataclass(frozen=True)
class Key:
    benchmark: str
    n: str = ""

    def label(self) -> str:
        return f"{self.benchmark} [n={self.n}]" if self.n else self.benchmark


def suite(benchmarks: int, params: int) -> list[Key]:
    return [Key(f"org.acme.B{b}.run", str(p)) for b in range(benchmarks) for p in range(params)]


@pytest.mark.parametrize("text,spec", [("1/2", Shard(1, 2)), (" 4 / 4 ", Shard(4, 4))])
def test_parse_shard_accepts_i_of_n(text: str, spec: Shard) -> None:
    assert parse_shard(text) == spec
    assert str(spec) == text.replace(" ", "")


@pytest.mark.parametrize("text", ["3/2", "0/2", "1/0", "a/b", "1", "-1/2", ""])
def test_parse_shard_refuses_bad_values(text: str) -> None:
    with pytest.raises(InputError, match="--shard"):
        parse_shard(text)


@pytest.mark.parametrize("count", [1, 2, 3, 5, 8])
def test_every_key_in_exactly_one_shard_whatever_the_input_order(count: int) -> None:
    keys = suite(7, 3)
    shards = partition(keys, count)
    assert len(shards) == count
    flat = [k for s in shards for k in s]
    assert sorted(flat, key=Key.label) == sorted(keys, key=Key.label)
    assert len(set(flat)) == len(flat)
    rng = random.Random(count)
    for _ in range(5):
        shuffled = keys[:]
        rng.shuffle(shuffled)
        assert partition(shuffled, count) == shards


def test_equal_keys_split_into_sizes_that_differ_by_at_most_one() -> None:
    for n in range(1, 40):
        for count in range(1, 9):
            sizes = [len(s) for s in partition(suite(n, 1), count)]
            if n >= count:
                assert max(sizes) - min(sizes) <= 1, (n, count, sizes)
                assert min(sizes) >= 1


def test_weighted_shards_are_within_one_key_of_an_equal_share() -> None:
    rng = random.Random(7)
    for trial in range(50):
        keys = suite(rng.randint(10, 40), rng.randint(1, 4))
        weight = {k: rng.uniform(1, 30) for k in keys}
        count = rng.randint(2, 6)
        shards = partition(keys, count, weight.__getitem__)
        share = sum(weight.values()) / count
        heaviest = max(weight.values())
        for s in shards:
            assert sum(weight[k] for k in s) <= share + heaviest, trial


def test_neighbouring_params_of_one_benchmark_stay_together() -> None:
    # 4 benchmarks × 3 params into 4 shards: contiguous cuts give each shard one benchmark
    shards = partition(suite(4, 3), 4)
    assert [len({k.benchmark for k in s}) for s in shards] == [1, 1, 1, 1]


def test_more_shards_than_keys_leaves_the_last_shards_empty() -> None:
    shards = partition(suite(2, 1), 4)
    assert [len(s) for s in shards] == [1, 1, 0, 0]


def test_a_key_listed_twice_is_refused() -> None:
    with pytest.raises(InputError, match="twice"):
        partition([Key("A"), Key("A")], 2)


def test_digest_tells_partitions_apart() -> None:
    keys = suite(5, 2)
    assert partition_digest(partition(keys, 2)) == partition_digest(partition(keys[::-1], 2))
    assert partition_digest(partition(keys, 2)) != partition_digest(partition(keys, 3))
    assert partition_digest(partition(keys, 2)) != partition_digest(partition(keys[1:], 2))


def test_shard_manifest_records_partition_keys_and_machine() -> None:
    keys = suite(3, 2)
    mine, block = shard_manifest(Shard(2, 2), keys, identity=Machine(host="m2"))
    assert mine == partition(keys, 2)[1]
    assert block.keys == [k.label() for k in mine]
    assert block.all_keys == sorted(k.label() for k in keys)
    assert block.machine == Machine(host="m2")
    assert (block.index, block.count) == (2, 2)
    assert block.digest == partition_digest(partition(keys, 2))


def test_resume_with_another_shard_is_refused() -> None:
    check_resume_shard(ShardBlock(index=1, count=2), Shard(1, 2), "run")
    check_resume_shard(ShardBlock(index=1, count=2), None, "run")
    with pytest.raises(InputError, match="holds shard 1/2"):
        check_resume_shard(ShardBlock(index=1, count=2), Shard(2, 2), "run")
    with pytest.raises(InputError, match="not a shard run"):
        check_resume_shard(None, Shard(2, 2), "run")


def test_restricted_plan_runs_only_the_shards_keys_in_every_planned_round() -> None:
    from perfproof.measure.keys import group_keys
    from perfproof.measure.plan import FIXED, make_plan
    from perfproof.measure.shard import restrict_plan
    from perfproof.model.documents.suite import SuiteKey

    keys = [SuiteKey(benchmark=f"a.B.m{b}", params=(("n", n),)) for b in (1, 2) for n in ("1", "2")]
    keys.append(SuiteKey(benchmark="a.C.x"))
    mine = partition(keys, 2)[0]
    plan = make_plan(3, "abba", None, ("a\\..*",), ("-f", "1"), stopping=FIXED)
    restricted = restrict_plan(plan, group_keys(mine))
    assert (restricted.rounds, restricted.order, restricted.jmh_options) == (3, "abba", ["-f", "1"])
    by_round: dict[int, list] = {}
    for step in restricted.steps:
        by_round.setdefault(step.round, []).append(step)
    assert sorted(by_round) == [1, 2, 3]
    for round_no, steps in by_round.items():
        original = [s.side for s in plan.steps if s.round == round_no]
        parts = [s.selection for s in steps if s.side == "base"]
        selected = sorted(k for sel in parts for k in sel.members())
        assert selected == sorted(mine)  # exactly the shard's keys, each once per side
        assert [s.side for s in steps][:2] == original  # the round keeps its side order
    assert [s.index for s in restricted.steps] == list(range(len(restricted.steps)))
    assert len({s.id for s in restricted.steps}) == len(restricted.steps)
    assert restrict_plan(plan, []).steps == []


def test_apply_shard_narrows_the_plan_once_and_resume_keeps_the_keys(tmp_path) -> None:
    from perfproof.measure.plan import FIXED, make_plan
    from perfproof.measure.shard import apply_shard
    from perfproof.measure.store import RunStore
    from perfproof.model.documents.suite import SuiteKey

    keys = [SuiteKey(benchmark=f"a.B.m{i}") for i in range(5)]
    store = RunStore.create(tmp_path / "run", RunManifest())
    store.init_steps(make_plan(2, "abba", None, (), ("-f", "1"), stopping=FIXED))
    mine = apply_shard(store, Shard(2, 2), keys)
    assert mine == partition(keys, 2)[1]
    assert store.manifest.shard is not None
    assert store.manifest.shard.keys == [k.label() for k in mine]

    planned = [s.selection for s in store.plan.steps]
    assert planned and all(sel is not None for sel in planned)
    assert {k for sel in planned for k in sel.members()} == set(mine)
    assert [e.id for e in store.manifest.steps] == [s.id for s in store.plan.steps]
    # resume: same keys from the manifest, the plan untouched
    again = RunStore.open(store.path)
    steps_before = again.manifest.steps
    assert apply_shard(again, Shard(2, 2), list(reversed(keys))) == mine
    assert again.manifest.steps == steps_before
    with pytest.raises(InputError, match="not the one shard 2/2 started with"):
        apply_shard(again, Shard(2, 2), keys[:-1])
