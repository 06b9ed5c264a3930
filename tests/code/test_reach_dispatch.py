"""Benchmarks reached only through dynamic dispatch: marked, with the dispatching call, and
listed after the directly reached ones in what ``prove`` measures."""

from __future__ import annotations

import json
from pathlib import Path

from tests.code.conftest import write_sources

from perfproof.code.query import open_project
from perfproof.code.reach import affected_benchmarks
from perfproof.model.changes import ChangedMethod
from perfproof.model.documents.prove_stages import BenchmarksResult, ChangesResult
from perfproof.pipeline.prove.code import benchmarks_stage

FILES = {
    "src/main/java/p/Listener.java": """package p;
public interface Listener {
    void onEvent(int x);
}
""",
    "src/main/java/p/Audit.java": """package p;
public final class Audit implements Listener {
    int seen;
    @Override public void onEvent(int x) { seen += Format.pad(x); }
}
""",
    "src/main/java/p/Format.java": """package p;
public final class Format {
    public static int pad(int x) { return x * 3; }
}
""",
    "src/main/java/p/Bus.java": """package p;
import java.util.ArrayList;
import java.util.List;
public final class Bus {
    private final List<Listener> listeners = new ArrayList<>();
    public void add(Listener l) { listeners.add(l); }
    public void publish(int x) { for (Listener l : listeners) { l.onEvent(x); } }
}
""",
    "src/jmh/java/p/bench/BusBench.java": """package p.bench;
import org.openjdk.jmh.annotations.Benchmark;
import p.Audit;
import p.Bus;
import p.Format;
public class BusBench {
    Bus bus = new Bus();
    @Benchmark
    public void publish() { bus.publish(3); }
    @Benchmark
    public int direct() { return new Audit().seen + Format.pad(2); }
    @Benchmark
    public void record() { new Audit().onEvent(4); }
}
""",
}


def _project(tmp_path: Path):
    root = write_sources(tmp_path, FILES)
    return open_project(root), root


def test_only_the_benchmark_behind_an_interface_call_is_marked(tmp_path: Path) -> None:
    project, root = _project(tmp_path)
    changed = [("p.Audit", "onEvent", ("int",))]
    found = {r.benchmark: r for r in affected_benchmarks(project, root, changed)}
    assert set(found) == {"p.bench.BusBench.publish", "p.bench.BusBench.record"}
    publish, record = found["p.bench.BusBench.publish"], found["p.bench.BusBench.record"]
    assert publish.via_dispatch and not record.via_dispatch
    assert publish.dispatch == "Bus.publish(int) → Listener.onEvent(int)"
    assert record.dispatch == ""


def test_a_benchmark_with_a_direct_path_too_is_not_marked(tmp_path: Path) -> None:
    project, root = _project(tmp_path)
    changed = [("p.Format", "pad", ("int",))]
    found = {r.benchmark: r for r in affected_benchmarks(project, root, changed)}
    # publish reaches pad through Listener.onEvent; direct calls pad itself
    assert found["p.bench.BusBench.publish"].via_dispatch
    assert not found["p.bench.BusBench.direct"].via_dispatch
    assert not found["p.bench.BusBench.record"].via_dispatch


def test_prove_lists_dispatch_only_benchmarks_last_and_keeps_the_mark(tmp_path: Path) -> None:
    project, root = _project(tmp_path)
    path = "src/main/java/p/Audit.java"
    method = ChangedMethod("p.Audit", "onEvent", ("int",), "modified", path, (4, 4))
    changes = ChangesResult(methods=(method,), classes=("p.Audit",), files={"production": (path,)})
    result = benchmarks_stage(project, root, changes, ())
    # by name publish comes before record: the order is the mark's
    assert [r.benchmark for r in result.reached] == [
        "p.bench.BusBench.record",
        "p.bench.BusBench.publish",
    ]
    assert result.regexes[-1] == r"^p\.bench\.BusBench\.publish$"
    back = BenchmarksResult.model_validate(json.loads(json.dumps(result.model_dump(mode="json"))))
    assert back == result
    assert [r.via_dispatch for r in back.reached] == [False, True]
    assert back.reached[1].dispatch == "Bus.publish(int) → Listener.onEvent(int)"
