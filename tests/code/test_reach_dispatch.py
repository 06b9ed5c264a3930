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


def test_a_changed_helper_off_the_kept_path_is_named_where_sure_calls_reach_it(
    tmp_path: Path,
) -> None:
    """The one path kept per benchmark ends at the changed method nearest it: ``record`` runs
    the changed ``Format.pad`` through the changed ``Audit.onEvent``, so its Amdahl row found
    no key (kryo's ``Input.readLong(int)``, called by the changed ``BigDecimalSerializer.read``,
    "no key reaches it" beside 9 improved keys). Only sure calls count: ``publish`` may run
    ``Audit.onEvent`` through the interface, which the call graph cannot decide."""
    from tests.prove.conftest import wire_row

    from perfproof.stats.amdahl_gains import method_gains

    project, root = _project(tmp_path)
    audit, fmt = "src/main/java/p/Audit.java", "src/main/java/p/Format.java"
    on_event = ChangedMethod("p.Audit", "onEvent", ("int",), "modified", audit, (4, 4))
    pad = ChangedMethod("p.Format", "pad", ("int",), "modified", fmt, (3, 3))
    changes = ChangesResult(methods=(on_event, pad), classes=("p.Audit", "p.Format"),
                            files={"production": (audit, fmt)})  # fmt: skip
    result = benchmarks_stage(project, root, changes, ())
    found = {r.benchmark.rsplit(".", 1)[-1]: r for r in result.reached}
    assert (found["record"].changed, found["record"].also) == (
        "Audit.onEvent(int)",
        ("Format.pad(int)",),
    )
    assert (found["direct"].changed, found["direct"].also) == ("Format.pad(int)", ())
    assert found["publish"].via_dispatch and found["publish"].also == ()
    back = BenchmarksResult.model_validate(json.loads(json.dumps(result.model_dump(mode="json"))))
    assert back == result
    # the Amdahl row of the helper takes the verdict of the key that runs it
    rows = [wire_row(benchmark=found["record"].benchmark, verdict="improved", ratio=0.5)]
    gains, _ = method_gains("Format.pad(int)", result.reached, rows)
    assert [round(1 + g.gain, 2) for g in gains] == [2.0]
    listed = "\n".join(_listed(tmp_path, result))
    also = " — by sure calls it also runs the changed `Format.pad(int)`"
    assert "`BusBench.record()` → `Audit.onEvent(int)`" + also in listed
    assert listed.count(also) == 1


def _listed(tmp_path: Path, result: BenchmarksResult) -> list[str]:
    """The PR body's list of the benchmarks the change reaches."""
    from perfproof.model.documents.prove import ProveResults, ProveSettings
    from perfproof.model.documents.run import SideRef
    from perfproof.pipeline.prove.bundle import Bundle
    from perfproof.render.prove import _benchmarks_md

    sides = {"base": SideRef(ref="a"), "head": SideRef(ref="b")}
    bundle = Bundle.create(tmp_path / "bundle", ProveSettings(), sides)
    bundle.finish("benchmarks", result, 0)
    return _benchmarks_md(ProveResults.of(bundle))
