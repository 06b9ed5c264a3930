"""Each reached benchmark's own share in the changed code, and the ceiling it sets."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from perfproof.model.documents.prove import ProveSettings
from perfproof.model.documents.prove_stages import ReachedBenchmark
from perfproof.pipeline.prove.profile import _harness
from perfproof.pipeline.reach.share import (
    key_share,
    negligible,
    recordings_by_benchmark,
    upper_share,
)
from perfproof.profile.diff import DiffRow
from perfproof.profile.stacks import Profile

BENCH = ("org.openjdk.jmh.Runner.run", "acme.bench.CodecBench.encode")
CHANGED = frozenset({"acme.Codec.encode"})
LOADING = ("java.lang.ClassLoader.loadClass", "acme.Codec.encode")


def _profile(inside: int, rest: int, jvm: int = 0) -> Profile:
    cpu = {(*BENCH, "acme.Codec.encode"): inside, (*BENCH, "acme.Buffer.put"): rest}
    if jvm:
        cpu[LOADING] = jvm  # class loading under the changed frame: the JVM's, not its
    alloc = {((*BENCH, "acme.Codec.encode"), "byte[]"): 300, ((*BENCH,), "long[]"): 100}
    return Profile("p", cpu=cpu, alloc=alloc)


def test_the_share_leaves_the_jvms_own_work_out_and_bounds_the_ceiling():
    share = key_share("acme.bench.CodecBench.encode", [_profile(20, 80, 500)] * 2, CHANGED, 0.1)
    assert share.cpu_share == pytest.approx(0.2) and share.samples == 200
    assert share.alloc_share == pytest.approx(0.75)
    bound = upper_share(40, 200)
    assert 0.2 < bound < 0.3
    assert share.ceiling == pytest.approx(1 / (1 - bound) - 1)
    assert not share.beyond  # 10 % faster is within a ceiling of about 35 %


def test_an_improvement_far_beyond_the_ceiling_is_flagged_but_a_full_share_bounds_nothing():
    small = key_share("b", [_profile(5, 95)] * 2, CHANGED, 3.0)  # 4× as fast on a 5 % share
    assert small.ceiling is not None and small.beyond
    full = key_share("b", [_profile(100, 0)] * 2, CHANGED, 1000.0)
    assert full.ceiling is None and not full.beyond  # every sample inside: no upper bound
    demo = key_share("b", [_profile(577, 22)], CHANGED, 268.0)  # the demo's early return
    assert demo.ceiling is not None and 2 * demo.ceiling < 268.0 and not demo.beyond
    few = key_share("b", [_profile(15, 1)], CHANGED, 1e5)  # the demo's 15 of 16 samples
    assert few.ceiling is not None and 2 * few.ceiling < 1e5 and not few.beyond


def test_recordings_are_split_by_benchmark_in_the_order_jmh_ran_them(tmp_path: Path):
    (tmp_path / "jmh").mkdir()
    results = [{"benchmark": "a.B.x", "forks": 2}, {"benchmark": "a.B.y", "forks": 1}]
    (tmp_path / "jmh" / "01-base.json").write_text(json.dumps(results))
    (tmp_path / "jmh" / "02-head.json").write_text(json.dumps(results[:1]))
    base = [f"jfr/r1-base/fork-{n}.jfr" for n in (1, 2, 3)]
    steps = [
        {"side": "base", "result": "jmh/01-base.json", "recordings": base},
        # a step whose recordings do not match its forks attributes nothing
        {"side": "head", "result": "jmh/02-head.json", "recordings": ["jfr/r1-head/fork-1.jfr"]},
    ]
    (tmp_path / "manifest.json").write_text(json.dumps({"steps": steps}))
    found = recordings_by_benchmark(tmp_path)
    paths = [tmp_path / rel for rel in base]
    assert found == {"a.B.x": {"base": paths[:2]}, "a.B.y": {"base": paths[2:]}}


def test_jfr_every_profiles_as_many_rounds_as_the_timing_run_measured(tmp_path: Path):
    from perfproof.pipeline.prove.profile import timing_rounds
    from perfproof.pipeline.prove.profile_keys import PROFILE_FORKS
    from perfproof.pipeline.prove.run import ProveOptions

    steps = [
        {"round": r, "side": side, "status": "done" if r < 5 else "pending"}
        for r in (1, 2, 3, 4, 5)
        for side in ("base", "head")
    ]
    (tmp_path / "manifest.json").write_text(json.dumps({"steps": steps}))
    assert timing_rounds(str(tmp_path)) == 4  # the fifth round never ran
    assert timing_rounds(str(tmp_path / "missing")) == PROFILE_FORKS
    stored = {"ab": {"base": "a", "head": "b"}, "jfr": "every", "reach": "profile"}
    opts = ProveOptions.of(ProveSettings.model_validate(stored))
    assert opts.jfr == "every" and opts.reproduce_argv()[-2:] == ["--jfr", "every"]
    assert ProveOptions.of(opts.to_document()).jfr == "every"


def _row(frame: str) -> DiffRow:
    return DiffRow("cpu", frame, None, None, (1.0,), (0.0,), 1.0, 0.0, -1.0, None, None)


def test_the_benchmarks_own_frames_are_left_out_of_the_diff_nested_ones_too() -> None:
    """JFR names a nested benchmark class ``Outer$Inner``, JMH ``Outer.Inner``: both are the
    benchmark, whose share only mirrors what the change did below it."""
    reached = [
        ReachedBenchmark(
            benchmark="p.bench.Outer.Inner.enc", path=("a", "b"), changed="Codec.encode(int)"
        )
    ]
    assert _harness(_row("p.bench.Outer$Inner.enc"), reached)
    assert _harness(_row("p.bench.jmh_generated.Outer_Inner_enc_jmhTest.enc_avgt"), reached)
    assert not _harness(_row("p.Codec.encode"), reached)
    assert not _harness(_row("p.bench.Outer.helper"), reached)


def test_a_changed_method_of_a_nested_class_is_found_in_jfrs_spelling():
    """The index names ``Outer.Inner.m``, JFR ``Outer$Inner.m``: the share is the same method's
    (before, a nested serializer's change had a share of 0 and ``--reach profile`` left its
    benchmark out as never running it)."""
    nested = Profile("p", cpu={(*BENCH, "acme.Codecs$Big.read"): 30, (*BENCH, "acme.X.y"): 70})
    share = key_share("b", [nested], frozenset({"acme.Codecs.Big.read"}), None)
    assert share.cpu_share == pytest.approx(0.3) and share.samples == 100


def _rare(inside: int, rest: int) -> Profile:
    """A benchmark that runs the changed code in ``inside`` of its samples and allocates
    nowhere in it."""
    cpu = {(*BENCH, "acme.Codec.encode"): inside, (*BENCH, "acme.Buffer.put"): rest}
    return Profile("p", cpu=cpu, alloc={((*BENCH,), "long[]"): 100})


def test_a_share_bounded_below_the_threshold_is_negligible_and_says_how_far():
    # kryo's FieldSerializerBenchmark.tagged on two runs: 0 and 4 of about 2,250 samples
    share = key_share("b", [_rare(4, 2234)], CHANGED, None, 0.99)
    bounded = negligible(share, 0.01, 0.99)
    assert bounded is not None and bounded.inside == 4
    assert bounded.ceiling == share.ceiling and 0.0018 < bounded.ceiling < 0.01
    s = upper_share(4, 2238, 0.99)
    assert bounded.slower == pytest.approx(1 + 0.01 / s)  # 1 + s·(k − 1) = 1.01 at the bound
    words = bounded.words(2238)
    assert "4 of 2238 baseline samples" in words and "under the 1% threshold" in words
    assert f"{bounded.ceiling * 100:.2g}% faster (99% bound)" in words
    # the same share with fewer samples cannot be bounded below 1 %: it is measured
    assert negligible(key_share("b", [_rare(1, 250)], CHANGED, None), 0.01, 0.99) is None
    # nor below a threshold the bound does not clear, nor a lower confidence's own bound
    assert negligible(share, 0.003, 0.99) is None
    looser = key_share("b", [_rare(4, 2234)], CHANGED, None, 0.9)
    assert looser.ceiling is not None and looser.ceiling < share.ceiling  # type: ignore[operator]


def test_no_sample_an_allocation_or_a_large_share_is_never_negligible():
    assert negligible(key_share("b", [_rare(0, 2000)], CHANGED, None), 0.01, 0.99) is None
    allocating = key_share("b", [_profile(2, 2000)], CHANGED, None)  # bytes in the change
    assert allocating.alloc_share and negligible(allocating, 0.01, 0.99) is None
    assert negligible(key_share("b", [_rare(50, 2000)], CHANGED, None), 0.01, 0.99) is None
