"""The typed reach a run knows before its first look: each kind says how strongly it is known,
and only a path, a recording or a change outside the Java sources counts as reaching."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from perfproof.model.documents import dumps
from perfproof.model.documents.prove_reach import bench_reach
from perfproof.model.documents.reach import BenchReach, RunReach
from perfproof.model.documents.run import RunManifest
from perfproof.model.reach import Reach

CODEC = "acme.bench.CodecBench.encode"
QUEUE = "acme.bench.QueueBench.offer"
PATH = ("CodecBench.encode()", "Codec.encode(int)")


def test_each_static_kind_and_what_reaches() -> None:
    path = bench_reach(CODEC, {CODEC: PATH}, ())
    assert path.kind is Reach.STATIC_PATH and path.reaches and path.path == PATH
    via = bench_reach(CODEC, {CODEC: PATH}, (), dispatch={CODEC: "X.run() → Codec.encode(int)"})
    assert via.kind is Reach.STATIC_PATH and "through dynamic dispatch" in via.why
    none = bench_reach(QUEUE, {CODEC: PATH}, (), depth=6)
    assert none.kind is Reach.NO_STATIC_PATH and not none.reaches
    assert "no static call path found within 6 calls" in none.why
    assert "reflection" in none.why and "noise" not in none.why
    build = bench_reach(QUEUE, {}, ("pom.xml",))
    assert build.kind is Reach.OUTSIDE_JAVA and build.reaches
    own = bench_reach(QUEUE, {}, (), bench_files=["src/jmh/java/acme/bench/QueueBench.java"])
    assert own.kind is Reach.STATIC_PATH and "its own source changed" in own.why
    assert Reach.RECORDED.reaches and not Reach.NOT_RECORDED.reaches
    assert Reach.NOT_RECORDED.shown_not_to_run and not Reach.NO_STATIC_PATH.shown_not_to_run
    assert not Reach.NOT_INDEXED.reaches


def test_run_reach_round_trips_through_the_manifest() -> None:
    reach = RunReach(benchmarks={CODEC: bench_reach(CODEC, {CODEC: PATH}, ())})
    recorded = BenchReach(
        benchmark=QUEUE, kind=Reach.RECORDED, why="a recording sampled Codec.encode(int)"
    )
    reach = reach.with_recordings([recorded])
    manifest = RunManifest(reach=reach)
    written = manifest.dump()["reach"]
    assert isinstance(written, dict)
    assert written["benchmarks"][1] == {
        "benchmark": QUEUE,
        "kind": "seen in a recording",
        "reaches": True,
        "why": "a recording sampled Codec.encode(int)",
        "path": [],
    }
    assert written["benchmarks"][0]["path"] == list(PATH)
    block = RunManifest.read(manifest.dump(), "m").reach
    assert block is not None
    back = block
    assert back == reach
    assert back.reaches(QUEUE) and back.reaches(CODEC)
    unknown = back.of("acme.bench.KtBench.run")
    assert unknown.kind is Reach.NOT_INDEXED and not back.reaches("acme.bench.KtBench.run")
    failed = RunReach(error="the change's reach was not computed: boom")
    assert failed.of(CODEC).why == failed.error


def test_prove_hands_its_reach_to_the_looks() -> None:
    from perfproof.model.documents.prove_stages import BenchmarksResult, ReachedBenchmark
    from perfproof.pipeline.prove.measure import run_reach

    found = BenchmarksResult(
        source="call graph",
        depth=6,
        reached=(
            ReachedBenchmark(benchmark=CODEC, path=PATH, changed="Codec.encode(int)"),
            ReachedBenchmark(benchmark=QUEUE, path=("QueueBench.offer()",),
                             changed="Codec.encode(int)", seen_in="h.json"),
        ),
    )  # fmt: skip
    reach = run_reach(found)
    assert reach is not None
    assert reach.of(CODEC).kind is Reach.STATIC_PATH and reach.of(CODEC).path == PATH
    assert reach.of(QUEUE).kind is Reach.RECORDED and "h.json" in reach.of(QUEUE).why
    assert run_reach(None) is None


@pytest.mark.parametrize("run", ["kryo-24-keys-defaults", "wild-43-keys-2-forks-past-999"])
def test_a_recorded_reach_reads_as_the_run_holds_it_and_writes_back_as_it_was(run: str) -> None:
    """A real run's ``reach`` block: read, its benchmarks are held by name with the kinds
    they were recorded with, and written back it is the block the run wrote, byte for byte."""
    path = Path(__file__).resolve().parents[1] / "fixtures" / "runs" / run / "manifest.json"
    block = json.loads(path.read_text())["reach"]
    reach = RunReach.read(block, run)
    assert list(reach.benchmarks) == [b["benchmark"] for b in block["benchmarks"]]
    assert all(reach.reaches(b["benchmark"]) == b["reaches"] for b in block["benchmarks"])
    assert dumps(reach.dump()) == dumps(block)
