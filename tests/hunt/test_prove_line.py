"""The ready ``prove`` line of a hypothesis selects the benchmarks that showed its cost, by the
names JMH's include regex matches (a key's @Param values and mode are not part of them)."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

from tests.hunt.test_rank import fork

from perfproof.code.query import open_project
from perfproof.demo.project import write_demo_repo
from perfproof.model import BenchKey, benchmark_of_label
from perfproof.pipeline.hunt.analysis import ProveContext, analyse
from perfproof.pipeline.hunt.rank import ForkOps, RecordedGroup
from perfproof.pipeline.hunt.source import SourceMap

BENCH = "perfdemo.bench.ErrorReporterBench.report"


def test_a_keys_label_gives_back_its_benchmark() -> None:
    for params in ((), (("size", "16"),), (("type", "java.util.HashSet"), ("n", "1 2"))):
        key = BenchKey(BENCH, "avgt", params)
        assert benchmark_of_label(key.label()) == BENCH
        assert benchmark_of_label(key.with_metric("gc.alloc.rate.norm").label()) == BENCH
    assert benchmark_of_label(BENCH) == BENCH


def test_the_prove_line_of_a_parameterised_key_selects_its_benchmark(tmp_path: Path) -> None:
    root = write_demo_repo(tmp_path / "project").path
    sources = SourceMap(open_project(root))
    label = BenchKey(BENCH, "avgt", (("size", "16"),)).label()
    forks = [fork({"perfdemo.ErrorReporter.report": (600, 8000)}) for _ in range(3)]
    ops = [ForkOps(ns_per_op=100.0, bytes_per_op=48.0) for _ in range(3)]
    analysis = analyse([RecordedGroup(label, forks, ops)], sources, root, ProveContext("r", "b"))
    (h,) = [h for h in analysis.hypotheses if h.method == "ErrorReporter.report"]
    assert h.profiled_benchmarks == (BENCH,)
    assert h.prove is not None
    argv = shlex.split(h.prove)
    regex = argv[argv.index("--bench") + 1]
    assert re.search(regex, BENCH), regex  # what JMH matches its include regex against


def test_the_prove_line_builds_as_the_hunt_built() -> None:
    """The build flags a hunt hands its prove lines are ab's own spelling of the same build:
    every flag a build needs, none of the defaults."""
    from perfproof.measure.plan import parse_jmh_args
    from perfproof.pipeline.hunt.start import HuntRequest
    from perfproof.workspace.spec import BuildKind, BuildSpec

    build = BuildSpec(kind=BuildKind.MAVEN, module="bench", build_args=("-Pfast", "-q"),
                      java="/jdk", maven="mvn", keep_checks=True)  # fmt: skip
    req = HuntRequest(build=build, jmh_args=parse_jmh_args("-f 1"))
    assert req.prove_flags() == (
        "--module", "bench", "--jmh-args", "-f 1", "--java", "/jdk",
        "--build", "maven", "--build-arg=-Pfast", "--build-arg=-q", "--maven", "mvn",
        "--keep-checks",
    )  # fmt: skip
    assert HuntRequest().prove_flags() == ()
