"""Each scan rule on small snippets: further instances and look-alikes beyond the corpus."""

from __future__ import annotations

import pytest

from perfproof.code.index import index_file
from perfproof.code.rules import RULES


def _found(body: str, imports: str = "") -> set[tuple[str, int]]:
    """Findings of a class body, with line numbers relative to the body's first line."""
    src = f"package p;\n{imports}\nclass T {{\n{body}\n}}\n"
    offset = 3 + imports.count("\n") + 1
    idx = index_file("src/main/java/p/T.java", src.encode())
    return {(f.rule, f.line - offset) for f in idx.findings}


def test_every_rule_is_documented():
    assert len(RULES) == 6
    for rule in RULES.values():
        assert rule.title and len(rule.explanation) > 150 and rule.rewrite


def test_boxed_key_lookup_with_key_read_from_a_buffer():
    body = """static final java.util.Map<Short, String> M = new java.util.HashMap<>();
String a(java.nio.ByteBuffer b) { return M.get(b.getShort()); }
String c(Object o) { return M.get(o.hashCode()); }
String d(java.util.function.Supplier<Short> s) { return M.get(s.get()); }"""
    assert _found(body) == {("boxed-key-lookup", 1), ("boxed-key-lookup", 2)}


def test_boxed_key_lookup_not_for_tables_mutated_later():
    body = """static final java.util.Map<Integer, String> M = new java.util.HashMap<>();
static { M.put(1, "a"); }
static void reset() { M.clear(); }
String a(int k) { return M.get(k); }"""
    assert _found(body) == set()


def test_stream_on_empty_variants():
    body = """java.util.Collection<String> items;
java.util.List<String> a() { return items.stream().map(String::trim).toList(); }
java.util.List<String> b(java.util.Set<String> s) {
    return s.isEmpty() ? java.util.List.of() : s.stream().toList();
}
java.util.List<String> c(String[] arr) { return java.util.Arrays.stream(arr).toList(); }
java.util.List<String> d(java.util.Map<String, ?> m) { return m.keySet().stream().toList(); }"""
    assert _found(body) == {("stream-on-empty", 1)}


def test_direct_buffer_via_static_import_and_instance_initialiser():
    imports = "import static java.nio.ByteBuffer.allocateDirect;"
    body = """java.nio.ByteBuffer f = allocateDirect(8);
{ java.nio.ByteBuffer g = allocateDirect(8); }
java.nio.ByteBuffer a() { return allocateDirect(8); }
java.nio.ByteBuffer b() { java.nio.ByteBuffer x = allocateDirect(8); return x; }"""
    assert _found(body, imports) == {("direct-buffer-per-call", 2), ("direct-buffer-per-call", 3)}


def test_format_guards_and_error_paths():
    body = """static final org.slf4j.Logger LOG = null;
String a(int x) { assert x > 0 : String.format("x=%d", x); return "" + x; }
void b(int x) { if (LOG.isTraceEnabled()) { LOG.trace(String.format("x=%d", x)); } }
void c(int x) { LOG.error(String.format("x=%d", x)); }
void d(int x) { if (x < 0) throw new IllegalStateException(String.format("x=%d", x)); }
String e(int x) { return "x=%d".formatted(x); }
String f(int x) { return java.lang.String.format("x=%d", x); }
void g(int x) { LOG.trace(String.format("x=%d", x)); }
RuntimeException h(int x) { return new MyError(String.format("x=%d", x)); }"""
    assert _found(body) == {("format-in-hot-path", 6), ("format-in-hot-path", 7)}


def test_boxing_in_loop_counters_and_reassignment():
    body = """void a(int n) { for (Integer i = 0; i < n; i++) { } }
Double b(double[] xs) { Double d = 0.0; int k = 0; while (k < xs.length) { d = d + xs[k++]; } }
void c(java.util.Map<Long, Long> m, long[] ks) { for (long k : ks) { m.compute(k, (a, b) -> b); } }
void d(java.util.Map<Long, Long> m, long[] ks) { for (long k : ks) { Long key = k; m.get(key); } }
int e(int[] xs) { int s = 0; for (int x : xs) { s = s + x; } return s; }"""
    assert _found(body) == {("boxing-in-loop", 0), ("boxing-in-loop", 1), ("boxing-in-loop", 2)}


@pytest.mark.parametrize("rule", sorted(RULES))
def test_findings_name_their_enclosing_method(rule):
    idx = index_file(
        "src/main/java/p/T.java",
        b"""package p;
class T {
    static final java.util.Map<Short, String> M = new java.util.HashMap<>();
    java.util.List<String> xs;
    Object hot(short k, long[] vs) {
        Long t = 0L;
        for (long v : vs) { t += v; }
        java.nio.ByteBuffer b = java.nio.ByteBuffer.allocateDirect(8);
        Object e = new java.util.EnumMap<>(java.util.concurrent.TimeUnit.class);
        Object s = String.format("%s", M.get(k));
        return xs.stream().toList();
    }
}
""",
    )
    hits = [f for f in idx.findings if f.rule == rule]
    assert len(hits) == 1
    assert idx.methods[hits[0].method].name == "hot"


def test_format_in_exception_classes_and_multi_use_locals():
    src = b"""package p;
class BadThing extends RuntimeException {
    BadThing(int code) { super(String.format("code %d", code)); }
}
class Hot {
    String a(int id) {
        String s = String.format("id-%d", id);
        if (id < 0) { throw new IllegalStateException(s); }
        return s;
    }
    void b(int id) {
        String s = String.format("id-%d", id);
        if (id < 0) { throw new IllegalStateException(s); }
    }
}
"""
    idx = index_file("src/main/java/p/Hot.java", src)
    assert [(f.rule, f.line) for f in idx.findings] == [("format-in-hot-path", 7)]
