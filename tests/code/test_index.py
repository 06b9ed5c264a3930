"""The per-file index: declarations, receivers' declared types, enclosing methods."""

from __future__ import annotations

from perfproof.code.index import index_file, parse_unit

SOURCE = b"""
package a.b;

import static a.b.Errors.forCode;
import static java.util.Objects.*;
import java.util.*;
import a.c.Codec;

/** Errors.forCode(1) in a doc comment */
@Deprecated
public class Handler<T> extends Base<T> implements Runnable, Comparable<Handler<T>> {
    private final Map<Short, List<String>> byCode = new HashMap<>();
    static int counter = 1, other;
    private Codec codec;

    public Handler(int size) { super(size); }

    static { forCode((short) 0); }

    <R> R handle(final int code, Codec param, String... rest) {
        var made = new Codec();
        Codec local = param;
        String s = "codec.encode(x)";
        for (Codec each : list()) { each.encode(null); }
        list().forEach(x -> x.encode(null));
        list().forEach((Codec typed) -> typed.encode(null));
        local.encode(null);
        made.encode(null);
        codec.encode(null);
        this.codec.encode(null);
        inherited.encode(null);
        ((Codec) param).encode(null);
        a.c.Codec.encode(null);
        new Runnable() { public void run() { forCode((short) 1); } };
        java.util.function.Function<Short, Errors> f = Errors::forCode;
        if (param instanceof Codec matched) { matched.encode(null); }
        return null;
    }

    public void run() {}

    record Point(int x, int y) { Point { } }
    enum Kind { A { void f() {} }, B; void g() {} }
    interface Nested { default void h() {} }
}
"""


def _index():
    return index_file("src/main/java/a/b/Handler.java", SOURCE)


def test_package_imports_and_types():
    idx = _index()
    assert idx.package == "a.b"
    assert [(i.name, i.static, i.wildcard) for i in idx.imports] == [
        ("a.b.Errors.forCode", True, False),
        ("java.util.Objects", True, True),
        ("java.util", False, True),
        ("a.c.Codec", False, False),
    ]
    types = {t.fqn: t for t in idx.types}
    assert set(types) == {
        "a.b.Handler",
        "a.b.Handler.Point",
        "a.b.Handler.Kind",
        "a.b.Handler.Nested",
        "a.b.Handler$1",  # new Runnable() { ... }: named as javac names it
        "a.b.Handler.Kind$1",  # the body of the enum constant A
    }
    anonymous = types["a.b.Handler$1"]
    assert (anonymous.kind, anonymous.outer, anonymous.superclass) == (
        "anonymous",
        "a.b.Handler",
        "Runnable",
    )
    assert types["a.b.Handler.Kind$1"].superclass == "Kind"
    handler = types["a.b.Handler"]
    assert handler.superclass == "Base"
    assert handler.interfaces == ("Runnable", "Comparable")
    assert types["a.b.Handler.Point"].kind == "record"
    assert types["a.b.Handler.Nested"].outer == "a.b.Handler"


def test_methods_fields_and_initialisers():
    idx = _index()
    methods = [(m.owner.rsplit(".", 1)[-1], m.name, m.params, m.kind) for m in idx.methods]
    assert ("Handler", "handle", ("int", "Codec", "String[]"), "method") in methods
    assert ("Handler", "<init>", ("int",), "constructor") in methods
    assert ("Handler", "<clinit>", (), "clinit") in methods  # static block and static field
    assert ("Point", "<init>", (), "constructor") in methods  # compact constructor
    assert ("Kind", "g", (), "method") in methods
    # an anonymous class's methods are its own, not the enclosing class's
    assert ("Handler$1", "run", (), "method") in methods
    assert ("Kind$1", "f", (), "method") in methods
    assert not [m for m in methods if m[1] == "f" and m[0] == "Kind"]
    handle = next(m for m in idx.methods if m.name == "handle")
    assert handle.varargs and handle.accepts(2) and handle.accepts(5) and not handle.accepts(1)
    fields = {(f.name, f.type, f.static) for f in idx.fields}
    assert ("byCode", "Map", False) in fields
    assert ("counter", "int", True) in fields and ("other", "int", True) in fields
    assert ("x", "int", False) in fields  # record component


def test_receivers_carry_declared_types():
    idx = _index()
    encode = [(s.line, s.recv, s.recv_text, s.recv_type) for s in idx.sites() if s.name == "encode"]
    by_text = {(recv, text): typ for _line, recv, text, typ in encode}
    assert by_text[("var", "each")] == "Codec"  # enhanced for
    assert by_text[("var", "x")] is None  # untyped lambda parameter
    assert by_text[("var", "typed")] == "Codec"  # typed lambda parameter
    assert by_text[("var", "local")] == "Codec"
    assert by_text[("var", "made")] == "Codec"  # var inferred from new
    assert by_text[("var", "codec")] == "Codec"  # field, declared after use is fine
    assert by_text[("name", "inherited")] is None  # left for repository-wide lookup
    assert by_text[("type", "Codec")] == "Codec"  # cast
    assert by_text[("dotted", "a.c.Codec")] is None
    assert by_text[("var", "matched")] == "Codec"  # instanceof pattern
    this_field = [s for s in idx.sites() if s.name == "encode" and s.recv == "var" and s.line == 30]
    assert this_field and this_field[0].recv_type == "Codec"


def test_enclosing_methods_and_kinds():
    idx = _index()
    sites = idx.sites()
    owner_method = {
        (s.kind, s.name): idx.methods[s.method].name if s.method >= 0 else None for s in sites
    }
    assert owner_method[("super", "<init>")] == "<init>"
    assert owner_method[("new", "HashMap")] == "<init>"  # instance field initialiser
    refs = [s for s in sites if s.kind == "ref"]
    assert [(r.name, r.recv, r.recv_text) for r in refs] == [("forCode", "name", "Errors")]
    anon = [s for s in sites if s.name == "forCode" and s.recv == "none"]
    assert {(idx.methods[s.method].name, s.owner) for s in anon} == {
        ("<clinit>", "a.b.Handler"),
        ("run", "a.b.Handler$1"),  # inside the anonymous Runnable's run
    }


def test_comments_and_strings_are_not_call_sites():
    idx = _index()
    lines = {s.line for s in idx.sites() if s.name in ("forCode", "encode")}
    assert 9 not in lines  # doc comment
    assert 23 not in lines  # string literal


def test_jmh_and_test_framework_flags():
    bench = index_file(
        "B.java", b"import org.openjdk.jmh.annotations.*; class B { @Benchmark void b() {} }"
    )
    assert bench.jmh and not bench.test_framework
    test = index_file("T.java", b"import org.junit.jupiter.api.Test; class T {}")
    assert test.test_framework and not test.jmh


def test_broken_source_still_indexes_what_parses():
    idx = index_file("X.java", b"package p; class X { void a() { foo(; } void b() { bar(1); } }")
    assert [t.fqn for t in idx.types] == ["p.X"]
    assert "bar" in {s.name for s in idx.sites()}


def test_declaration_lookup_prefers_innermost_scope():
    src = b"""class A {
        String name;
        void m(int name) {
            Runnable r = () -> { long name = 1; use(name); };
            use(name);
        }
        void n() { use(name); }
    }"""
    unit = parse_unit("A.java", src)
    uses = [n for n in unit.invoked("use")]
    found = [unit.declaration("name", u.start_byte + 4) for u in uses]
    assert [(d.type, d.kind) for d in found] == [
        ("long", "local"),
        ("int", "param"),
        ("String", "field"),
    ]


def test_odd_inputs_do_not_break_the_index():
    latin1 = "class L { /* caf\xe9 */ void m() { go(1); } }".encode("latin-1")
    assert [s.name for s in index_file("L.java", latin1).sites()] == ["go"]
    deep = "x" + " + x" * 3000
    src = "import java.util.*; class D { static final Map<Integer, String> M = new HashMap<>();\n"
    src += (
        f"  String m(int x) {{ for (int i = 0; i < 2; i++) {{ M.put({deep}, M.get({deep}) + 1); }}"
    )
    src += " return M.get(" + deep + "); } }"
    idx = index_file("D.java", src.encode())
    assert {f.rule for f in idx.findings} <= {"boxed-key-lookup", "boxing-in-loop"}
    assert index_file("E.java", b"").sites() == []
