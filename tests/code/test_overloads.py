"""Overloads of one arity told apart by the argument types the source writes: literals
(boolean, int, long, char, String, null), locals, parameters, fields, boxed values, varargs
and generic parameters. The shape of kryo's BigDecimalSerializer: ``output.writeInt(0,
false)`` runs ``writeInt(int, boolean)``, and the path to the changed ``writeLong(long, int)``
goes through ``writeUnscaledLong``."""

from __future__ import annotations

from pathlib import Path

from tests.code.conftest import write_sources

from perfproof.code.binding import Target
from perfproof.code.callers import find_callers
from perfproof.code.query import open_project
from perfproof.code.reach import affected_benchmarks

BENCH = "src/jmh/java/p/bench/"
FILES = {
    "src/main/java/p/Output.java": """package p;
public class Output {
    public void writeInt(int bytes, int count) { }
    public int writeInt(int value, boolean optimizePositive) { return 1; }
    public void writeLong(long bytes, int count) { }
    public int writeLong(long value, boolean optimizePositive) { return 1; }
    public void writeByte(int value) { }
    public void put(long value) { }
    public void put(Integer value) { }
    public void put(String value) { }
    public void put(char value) { }
    public void log(String format) { }
    public void log(String format, Object... args) { }
    public <T> void keep(T value) { }
    public void keep(int value) { }
}
""",
    "src/main/java/p/Serializer.java": """package p;
public class Serializer {
    private final boolean positive = false;
    public void write(Output output, long unscaled, int scale) {
        if (unscaled != Long.MIN_VALUE) {
            writeUnscaledLong(output, unscaled);
        }
        output.writeInt(0, false);
        output.writeInt(scale, positive);
    }
    private static void writeUnscaledLong(Output output, long unscaledLong) {
        int length = 8;
        output.writeByte(length + 1);
        output.writeLong(unscaledLong, length);
    }
}
""",
    "src/main/java/p/Callers.java": """package p;
public class Callers {
    private int count;
    public void literals(Output out) { out.put(7L); out.put("s"); out.put('c'); out.put(null); }
    public void boxed(Output out, Integer boxed, int i) { out.put(boxed); out.put(i); }
    public void field(Output out) { out.writeInt(1, count); }
    public void unknown(Output out) { out.writeInt(size(), flag()); }
    public void varargs(Output out) {
        out.log("x");
        out.log("x", 1);
        out.log("x", "a", "b");
    }
    public <V> void generic(Output out, V value, int i) {
        out.keep(value);
        out.keep(i);
    }
    private int size() { return 1; }
    private boolean flag() { return true; }
}
""",
    BENCH + "BigDecimalBench.java": """package p.bench;
import org.openjdk.jmh.annotations.Benchmark;
import p.Output;
import p.Serializer;
public class BigDecimalBench {
    final Output output = new Output();
    final Serializer serializer = new Serializer();
    @Benchmark public void write() { serializer.write(output, 42L, 2); }
}
""",
}


def _callers(root: Path, name: str, params: tuple[str, ...]) -> set[str]:
    project = open_project(root)
    target = Target("p.Output", name, len(params), params)
    return {f"{s.caller}:{s.line}" for s in find_callers(project, target, read_source=False).sites}


def _lines(root: Path, name: str, params: tuple[str, ...]) -> set[tuple[str, int]]:
    return {(c.split(":")[0], int(c.split(":")[1])) for c in _callers(root, name, params)}


def test_a_boolean_literal_or_field_binds_the_boolean_overload_only(tmp_path: Path) -> None:
    root = write_sources(tmp_path, FILES)
    boolean = _lines(root, "writeInt", ("int", "boolean"))
    ints = _lines(root, "writeInt", ("int", "int"))
    assert ("Serializer.write", 8) in boolean and ("Serializer.write", 9) in boolean
    assert not any(c == "Serializer.write" for c, _ in ints)
    assert ("Callers.field", 6) in ints and ("Callers.field", 6) not in boolean
    # arguments whose types the source does not write keep both overloads
    assert ("Callers.unknown", 7) in ints and ("Callers.unknown", 7) in boolean
    # a local int and a long parameter pick writeLong(long, int)
    assert ("Serializer.writeUnscaledLong", 14) in _lines(root, "writeLong", ("long", "int"))
    assert not _lines(root, "writeLong", ("long", "boolean"))


def test_literals_boxing_varargs_and_generics_pick_what_java_picks(tmp_path: Path) -> None:
    root = write_sources(tmp_path, FILES)
    put_long, put_boxed = _lines(root, "put", ("long",)), _lines(root, "put", ("Integer",))
    put_string, put_char = _lines(root, "put", ("String",)), _lines(root, "put", ("char",))
    assert {c for c, _ in put_long} == {"Callers.literals", "Callers.boxed"}  # 7L; int widens
    assert {c for c, _ in put_boxed} == {"Callers.literals", "Callers.boxed"}  # null; Integer
    assert {c for c, _ in put_char} == {"Callers.literals"}
    assert {c for c, _ in put_string} == {"Callers.literals"}  # "s" and null (ambiguous in
    # Java: both String and Integer accept null, and neither is more specific — kept by both)
    plain, spread = _lines(root, "log", ("String",)), _lines(root, "log", ("String", "Object[]"))
    assert plain == {("Callers.varargs", 9)}
    assert spread == {("Callers.varargs", 10), ("Callers.varargs", 11)}
    assert _lines(root, "keep", ("T",)) == {("Callers.generic", 14)}
    assert _lines(root, "keep", ("int",)) == {("Callers.generic", 15)}


def test_the_call_path_goes_through_the_overload_the_source_calls(tmp_path: Path) -> None:
    root = write_sources(tmp_path, FILES)
    project = open_project(root)
    changed = [("p.Output", "writeInt", ("int", "int")), ("p.Output", "writeLong", ("long", "int"))]
    paths = {r.benchmark: r.path for r in affected_benchmarks(project, root, changed)}
    assert paths["p.bench.BigDecimalBench.write"] == (
        "BigDecimalBench.write()",
        "Serializer.write(Output, long, int)",
        "Serializer.writeUnscaledLong(Output, long)",
        "Output.writeLong(long, int)",
    )
    only_int = [("p.Output", "writeInt", ("int", "int"))]
    assert not affected_benchmarks(project, root, only_int)
