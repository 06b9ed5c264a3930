"""Affected benchmarks: the bounded walk from a changed method up to @Benchmark methods."""

from __future__ import annotations

from pathlib import Path

from tests.code.conftest import write_sources

from perfproof.code.query import open_project
from perfproof.code.reach import affected_benchmarks, benchmark_methods

FILES = {
    "src/main/java/p/Codec.java": """package p;
public class Codec {
    public int encode(int x) { return Table.lookup(x) * 2; }
    public int unused(int x) { return x; }
}
""",
    "src/main/java/p/Table.java": """package p;
final class Table {
    static int lookup(int x) { return x + 1; }
}
""",
    "src/main/java/p/Sink.java": """package p;
public interface Sink {
    void accept(int x);
}
""",
    "src/main/java/p/FastSink.java": """package p;
public final class FastSink implements Sink {
    @Override public void accept(int x) { }
}
""",
    "src/main/java/p/Pipeline.java": """package p;
public final class Pipeline {
    private final Codec codec = new Codec();
    public void push(Sink sink, int x) { sink.accept(codec.encode(x)); }
}
""",
    "src/jmh/java/p/bench/CodecBench.java": """package p.bench;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import p.Codec;
import p.FastSink;
import p.Pipeline;
public class CodecBench {
    Codec codec = new Codec();
    Pipeline pipeline = new Pipeline();
    @Benchmark
    public int encode() { return codec.encode(3); }
    @Benchmark
    @BenchmarkMode(org.openjdk.jmh.annotations.Mode.AverageTime)
    public void pipeline() { pipeline.push(new FastSink(), 3); }
    public int notABenchmark() { return codec.encode(1); }
}
""",
    "src/test/java/p/CodecTest.java": """package p;
import org.junit.jupiter.api.Test;
class CodecTest {
    @Test void encodes() { new Codec().encode(1); }
}
""",
}


def write(root: Path) -> Path:
    return write_sources(root, FILES)


def test_benchmark_methods_are_the_annotated_ones(tmp_path: Path) -> None:
    root = write(tmp_path)
    project = open_project(root)
    names = sorted(benchmark_methods(project, root).values())
    assert names == ["p.bench.CodecBench.encode", "p.bench.CodecBench.pipeline"]


def test_reach_through_helpers_with_one_shortest_path(tmp_path: Path) -> None:
    root = write(tmp_path)
    project = open_project(root)
    found = affected_benchmarks(project, root, [("p.Table", "lookup", ("int",))])
    by_name = {r.benchmark: r for r in found}
    assert set(by_name) == {"p.bench.CodecBench.encode", "p.bench.CodecBench.pipeline"}
    direct = by_name["p.bench.CodecBench.encode"]
    assert direct.path == ("CodecBench.encode()", "Codec.encode(int)", "Table.lookup(int)")
    assert len(direct.path) - 1 == 2
    assert len(by_name["p.bench.CodecBench.pipeline"].path) - 1 == 3
    assert direct.regex == r"^p\.bench\.CodecBench\.encode$"


def test_reach_through_an_interface_the_changed_class_implements(tmp_path: Path) -> None:
    root = write(tmp_path)
    project = open_project(root)
    found = affected_benchmarks(project, root, [("p.FastSink", "accept", ("int",))])
    assert [r.benchmark for r in found] == ["p.bench.CodecBench.pipeline"]


def test_depth_bound_and_unreached_changes(tmp_path: Path) -> None:
    root = write(tmp_path)
    project = open_project(root)
    assert affected_benchmarks(project, root, [("p.Codec", "unused", ("int",))]) == []
    shallow = affected_benchmarks(project, root, [("p.Table", "lookup", ("int",))], max_depth=2)
    assert [r.benchmark for r in shallow] == ["p.bench.CodecBench.encode"]


def test_a_group_benchmark_is_named_after_its_group(tmp_path: Path) -> None:
    """JMH runs ``@Group("rw")`` methods together as one benchmark ``Class.rw`` (JCTools'
    CountersBenchmark): the reach of either method is the group's."""
    files = {
        **FILES,
        "src/jmh/java/p/bench/GroupBench.java": """package p.bench;
import org.openjdk.jmh.annotations.*;
import p.Codec;
public class GroupBench {
    Codec codec = new Codec();
    @Benchmark
    @Group("rw")
    public int write() { return codec.encode(2); }
    @Benchmark @Group(value = "rw") @GroupThreads(2)
    public int read() { return 1; }
}
""",
    }
    root = write_sources(tmp_path, files)
    project = open_project(root)
    names = set(benchmark_methods(project, root).values())
    assert "p.bench.GroupBench.rw" in names
    assert not {"p.bench.GroupBench.write", "p.bench.GroupBench.read"} & names
    found = affected_benchmarks(project, root, [("p.Table", "lookup", ("int",))])
    assert "p.bench.GroupBench.rw" in {r.benchmark for r in found}


def test_a_nested_class_benchmark_is_named_as_jmh_names_it(tmp_path: Path) -> None:
    """JMH names a benchmark of a nested class ``Outer.Inner.method`` (dots, not ``$``)."""
    files = {
        **FILES,
        "src/jmh/java/p/bench/Outer.java": """package p.bench;
import org.openjdk.jmh.annotations.*;
import p.Codec;
public class Outer {
    @State(Scope.Benchmark)
    public static class Inner {
        Codec codec = new Codec();
        @Benchmark
        public int enc() { return codec.encode(2); }
    }
}
""",
    }
    root = write_sources(tmp_path, files)
    project = open_project(root)
    assert "p.bench.Outer.Inner.enc" in set(benchmark_methods(project, root).values())
    found = affected_benchmarks(project, root, [("p.Table", "lookup", ("int",))])
    assert "p.bench.Outer.Inner.enc" in {r.benchmark for r in found}
