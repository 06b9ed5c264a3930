"""Calls through a supertype whose receiver's class the source fixes: a field every assignment
gives a ``new C(...)`` or an effectively final local initialised so runs only ``C``'s method
(own or inherited), so the walk must not report a path from such a call to another override."""

from __future__ import annotations

from pathlib import Path

from tests.code.conftest import write_sources

from perfproof.code.binding import Target
from perfproof.code.callers import find_callers
from perfproof.code.graph import runs
from perfproof.code.index import index_file
from perfproof.code.query import open_project
from perfproof.code.reach import affected_benchmarks

BENCH = "src/jmh/java/p/bench/"
FILES = {
    "src/main/java/p/Codec.java": """package p;
public interface Codec {
    int read(int x);
}
""",
    "src/main/java/p/FastCodec.java": """package p;
public class FastCodec implements Codec {
    @Override public int read(int x) { return x + 1; }
}
""",
    "src/main/java/p/SlowCodec.java": """package p;
public class SlowCodec implements Codec {
    @Override public int read(int x) { return x - 1; }
}
""",
    "src/main/java/p/TunedCodec.java": """package p;
public class TunedCodec extends FastCodec {
    public int tune() { return 0; }
}
""",
    "src/main/java/p/SpecialCodec.java": """package p;
public class SpecialCodec extends FastCodec {
    @Override public int read(int x) { return x * 2; }
}
""",
    "src/main/java/p/Codecs.java": """package p;
public final class Codecs {
    public static final Codec DEFAULT = new FastCodec();
}
""",
    BENCH + "FinalFieldBench.java": """package p.bench;
import org.openjdk.jmh.annotations.Benchmark;
import p.Codec;
import p.FastCodec;
public class FinalFieldBench {
    private final Codec codec = new FastCodec();
    @Benchmark public int run() { return codec.read(1); }
}
""",
    BENCH + "StateBench.java": """package p.bench;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import p.Codec;
import p.FastCodec;
public class StateBench {
    @State(Scope.Thread)
    public static class MyState {
        final Codec codec = new FastCodec();
    }
    @Benchmark public int run(MyState state) { return state.codec.read(1); }
}
""",
    BENCH + "LocalBench.java": """package p.bench;
import org.openjdk.jmh.annotations.Benchmark;
import p.Codec;
import p.Codecs;
import p.FastCodec;
public class LocalBench {
    @Benchmark public int local() { Codec c = new FastCodec(); return c.read(1); }
    @Benchmark public int created() { return new FastCodec().read(1); }
    @Benchmark public int constant() { return Codecs.DEFAULT.read(1); }
}
""",
    BENCH + "InheritBench.java": """package p.bench;
import org.openjdk.jmh.annotations.Benchmark;
import p.Codec;
import p.SpecialCodec;
import p.TunedCodec;
public class InheritBench {
    final Codec tuned = new TunedCodec();
    final Codec special = new SpecialCodec();
    @Benchmark public int inherited() { return tuned.read(1); }
    @Benchmark public int overridden() { return special.read(1); }
}
""",
    BENCH + "UnknownBench.java": """package p.bench;
import org.openjdk.jmh.annotations.Benchmark;
import p.Codec;
import p.FastCodec;
import p.SlowCodec;
public class UnknownBench {
    Codec open = new FastCodec();
    Codec quiet = new FastCodec();
    static int use(Codec c) { return c.read(1); }
    @Benchmark public int parameter() { return use(new FastCodec()); }
    @Benchmark public int nonFinal() { return open.read(1); }
    @Benchmark public int effectivelyFinal() { return quiet.read(1); }
    @Benchmark public int reassigned(boolean slow) {
        Codec c = new FastCodec();
        if (slow) { c = new SlowCodec(); }
        return c.read(1);
    }
}
""",
    BENCH + "Reconfigure.java": """package p.bench;
import p.SlowCodec;
final class Reconfigure {
    static void slow(UnknownBench bench) { bench.open = new SlowCodec(); }
}
""",
}
UNKNOWN = {
    "p.bench.UnknownBench.parameter",
    "p.bench.UnknownBench.nonFinal",
    "p.bench.UnknownBench.reassigned",
}


def write(root: Path) -> Path:
    return write_sources(root, FILES)


def reached(root: Path, owner: str) -> set[str]:
    project = open_project(root)
    return {r.benchmark for r in affected_benchmarks(project, root, [(owner, "read", ("int",))])}


def test_another_implementation_is_reached_only_through_unknown_receivers(tmp_path: Path) -> None:
    root = write(tmp_path)
    assert reached(root, "p.SlowCodec") == UNKNOWN


def test_the_created_class_and_what_it_inherits_stay_reached(tmp_path: Path) -> None:
    root = write(tmp_path)
    fast = reached(root, "p.FastCodec")
    assert fast == UNKNOWN | {
        "p.bench.FinalFieldBench.run",
        "p.bench.StateBench.run",
        "p.bench.LocalBench.local",
        "p.bench.LocalBench.created",
        "p.bench.LocalBench.constant",
        "p.bench.InheritBench.inherited",
        "p.bench.UnknownBench.effectivelyFinal",
    }
    # SpecialCodec overrides read: its final field runs SpecialCodec.read, not FastCodec's
    assert reached(root, "p.SpecialCodec") == UNKNOWN | {"p.bench.InheritBench.overridden"}


def test_the_path_kept_goes_through_the_exact_class(tmp_path: Path) -> None:
    root = write(tmp_path)
    project = open_project(root)
    found = affected_benchmarks(project, root, [("p.FastCodec", "read", ("int",))])
    paths = {r.benchmark: r.path for r in found}
    assert paths["p.bench.StateBench.run"] == ("StateBench.run(MyState)", "FastCodec.read(int)")


def test_runs_follows_the_superclass_chain(tmp_path: Path) -> None:
    project = open_project(write(tmp_path))
    read = ("read", ("int",))
    assert runs(project, "p.TunedCodec", ("p.FastCodec", *read))
    assert not runs(project, "p.SpecialCodec", ("p.FastCodec", *read))
    assert runs(project, "p.SpecialCodec", ("p.SpecialCodec", *read))
    assert not runs(project, "p.FastCodec", ("p.SlowCodec", *read))
    # the interface's declaration is never what runs on a class that implements it
    assert not runs(project, "p.TunedCodec", ("p.Codec", *read))


def test_callers_still_count_the_site_for_the_supertype(tmp_path: Path) -> None:
    """``perfproof callers Codec.read`` binds calls through Codec as before; the exact class
    is extra information, not a filter."""
    root = write(tmp_path)
    project = open_project(root)
    result = find_callers(project, Target("p.Codec", "read", 1), read_source=False)
    by_caller = {s.caller: s.receiver for s in result.sites}
    assert by_caller["FinalFieldBench.run"] == "p.FastCodec"
    assert by_caller["StateBench.run"] == "p.FastCodec"
    assert by_caller["LocalBench.constant"] == "p.FastCodec"
    assert by_caller["InheritBench.inherited"] == "p.TunedCodec"
    assert by_caller["UnknownBench.use"] is None
    assert by_caller["UnknownBench.nonFinal"] is None  # another file assigns it
    assert by_caller["UnknownBench.effectivelyFinal"] == "p.FastCodec"  # nothing else does
    assert by_caller["UnknownBench.reassigned"] is None


def test_index_records_exact_classes_only_where_java_fixes_them() -> None:
    src = b"""package q;
class A {
    final S kept = new B();
    S open = new B();
    final S anonymous = new B() { };
    final S made = make();
    S swapped = new B();
    private S set;
    A() { set = new B(); }
    void m(S param) {
        S local = new B();
        local.run();
        S moved = new B();
        moved.run();
        moved = new C();
        final S fixed = (new B());
        fixed.run();
        kept.run();
        this.kept.run();
        open.run();
        anonymous.run();
        param.run();
        new B().run();
        ((S) param).run();
        set.run();
    }
    void other() { S local = param(); local.run(); swapped = new C(); }
}
"""
    f = index_file("q/A.java", src)
    # ``open`` is never assigned in its file, but other files may: the project decides
    assert {fd.name: (fd.new, fd.open) for fd in f.fields} == {
        "kept": ("B", False),
        "open": ("B", True),
        "anonymous": ("", False),
        "made": ("", False),
        "swapped": ("", False),
        "set": ("B", False),
    }
    calls = [(s.line, s.recv_text, s.recv_new) for s in f.sites(("run",))]
    assert calls == [
        (12, "local", "B"),
        (14, "moved", ""),
        (17, "fixed", "B"),
        (18, "kept", "B"),
        (19, "kept", "B"),
        (20, "open", ""),
        (21, "anonymous", ""),
        (22, "param", ""),
        (23, "B", "B"),
        (24, "S", ""),
        (25, "set", "B"),
        (27, "local", ""),
    ]


def test_prove_lists_as_unreached_only_what_no_benchmark_reaches(tmp_path: Path) -> None:
    """Both implementations change: every benchmark's one kept path may end at FastCodec, yet
    SlowCodec.read is still reached (through the unknown receivers) and is not "unreached"."""
    from perfproof.code.changes import ChangedMethod
    from perfproof.model.documents.prove_stages import ChangesResult
    from perfproof.pipeline.prove.code import benchmarks_stage

    root = write(tmp_path)
    project = open_project(root)
    changed = [
        ChangedMethod(owner, name, ("int",), "modified", f"src/main/java/p/{file}.java", (3, 3))
        for owner, name, file in (
            ("p.FastCodec", "read", "FastCodec"),
            ("p.SlowCodec", "read", "SlowCodec"),
            ("p.TunedCodec", "tune", "TunedCodec"),
        )
    ]
    changes = ChangesResult(methods=tuple(changed))
    stage = benchmarks_stage(project, root, changes, ())
    assert stage.unreached == ("TunedCodec.tune(int)",)
    assert {r.benchmark for r in stage.reached} >= UNKNOWN


def test_prove_counts_production_calls_that_dispatch_through_the_interface(tmp_path: Path) -> None:
    """Nothing names FastCodec.read, yet production calls Codec.read on receivers that may be a
    FastCodec; a receiver fixed to SlowCodec does not count."""
    from perfproof.code.changes import ChangedMethod
    from perfproof.model.documents.prove import ProveResults, ProveSettings
    from perfproof.model.documents.prove_stages import ChangesResult
    from perfproof.model.documents.run import SideRef
    from perfproof.pipeline.prove.bundle import Bundle
    from perfproof.pipeline.prove.code import callers_stage
    from perfproof.render.prove import _callers_md

    service = """package p;
public final class Service {
    private final Codec slow = new SlowCodec();
    int any(Codec c) { return c.read(1); }
    int again(Codec c) { return c.read(2) + c.read(3); }
    int fixed() { return slow.read(4); }
}
"""
    root = write_sources(tmp_path, {**FILES, "src/main/java/p/Service.java": service})
    project = open_project(root)
    fast = ChangedMethod("p.FastCodec", "read", ("int",), "modified", "x.java", (3, 3))
    changes = ChangesResult(methods=(fast,))
    stage = callers_stage(project, root, changes)
    entry = stage.methods[0]
    assert entry.callers is not None and entry.callers.production == 0
    assert entry.model_dump(mode="json")["via_supertype"] == {
        "declarations": ["Codec.read(int)"],
        "production": 3,
        "distinct_callers": 2,
    }
    refs = {"base": SideRef(ref="a"), "head": SideRef(ref="b")}
    bundle = Bundle.create(tmp_path / "b", ProveSettings(), refs)
    bundle.finish("callers", stage, 0.0)
    text = "\n".join(_callers_md(ProveResults.of(bundle)))
    assert "also called through `Codec.read(int)`: 3 production call sites in 2 methods" in text
