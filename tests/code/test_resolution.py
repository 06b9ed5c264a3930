"""Name resolution corner cases on small repositories written in the test."""

from __future__ import annotations

import json


def _sites(run_cli, repo, spec, *args):
    result = run_cli("callers", spec, "--repo", repo, "--format", "json", *args)
    assert result.code == 0, result.err
    doc = json.loads(result.out)
    return {(s["file"], s["line"], s["confidence"]) for s in doc["sites"]}


def test_nested_target_wildcard_static_import_and_shadowing(run_cli, write_java):
    repo = write_java(
        {
            "src/main/java/p/Outer.java": """package p;
public class Outer {
    public static class Inner {
        public static int size(int x) { return x; }
    }
    int viaNested() { return Inner.size(1); }
}
""",
            "src/main/java/q/User.java": """package q;
import static p.Outer.Inner.*;
import p.Outer;
class User {
    int a() { return size(2); }
    int b() { return Outer.Inner.size(3); }
    int c() { return p.Outer.Inner.size(4); }
}
""",
            "src/main/java/q/Shadow.java": """package q;
import static p.Outer.Inner.*;
class Shadow {
    int size(int x) { return 0; }
    int a() { return size(2); }
}
""",
        }
    )
    got = _sites(run_cli, repo, "Outer.Inner.size")
    assert got == {
        ("src/main/java/p/Outer.java", 6, "exact"),
        ("src/main/java/q/User.java", 5, "exact"),
        ("src/main/java/q/User.java", 6, "exact"),
        ("src/main/java/q/User.java", 7, "exact"),
    }
    assert got == _sites(run_cli, repo, "p.Outer.Inner.size")


def test_interface_target_and_implementing_receivers(run_cli, write_java):
    repo = write_java(
        {
            "src/main/java/p/Sink.java": "package p;\npublic interface Sink { void put(int v); }\n",
            "src/main/java/p/FileSink.java": (
                "package p;\npublic class FileSink implements Sink { public void put(int v) {} }\n"
            ),
            "src/main/java/r/Use.java": """package r;
import p.FileSink;
import p.Sink;
class Use {
    void a(Sink s) { s.put(1); }
    void b(FileSink f) { f.put(2); }
    void c(java.util.Map<String, Integer> m) { m.put("k", 3); }
}
""",
        }
    )
    assert _sites(run_cli, repo, "Sink.put") == {
        ("src/main/java/r/Use.java", 5, "exact"),
        ("src/main/java/r/Use.java", 6, "exact"),
    }


def test_likely_needs_import_or_package_and_matching_arity(run_cli, write_java):
    repo = write_java(
        {
            "src/main/java/p/Codec.java": (
                "package p;\npublic class Codec {\n"
                "  public byte[] encode(Object o) { return null; }\n}\n"
            ),
            "src/main/java/p/Same.java": """package p;
class Same {
    void a(java.util.List<Codec> cs) { cs.forEach(c -> c.encode(1)); }
    void b(java.util.List<Codec> cs) { cs.forEach(c -> c.encode(1, 2)); }
}
""",
            "src/main/java/q/Wild.java": """package q;
import p.*;
class Wild {
    void a(java.util.List<Codec> cs) { cs.forEach(c -> c.encode(1)); }
}
""",
            "src/main/java/z/Blind.java": """package z;
class Blind {
    void a(java.util.List<Object> cs) { cs.forEach(c -> c.encode(1)); }
}
""",
        }
    )
    assert _sites(run_cli, repo, "Codec.encode") == {
        ("src/main/java/p/Same.java", 3, "likely"),
        ("src/main/java/q/Wild.java", 4, "likely"),
    }


def test_generic_and_array_receivers_are_not_the_class(run_cli, write_java):
    repo = write_java(
        {
            "src/main/java/p/Box.java": (
                "package p;\npublic class Box { public int size() { return 0; } }\n"
            ),
            "src/main/java/p/Use.java": """package p;
class Use {
    int a(java.util.List<Box> boxes) { return boxes.size(); }
    int b(Box[] boxes) { return boxes.length + boxes[0].size(); }
    int c(Box box) { return box.size(); }
    int d(Crate[] crates) { final Crate[] local = crates; return local[1].size(); }
}
""",
            "src/main/java/p/Crate.java": (
                "package p;\npublic class Crate { public int size() { return 1; } }\n"
            ),
        }
    )
    # an array element has the array's element type: Box[] holds Boxes, Crate[] does not
    assert _sites(run_cli, repo, "Box.size") == {
        ("src/main/java/p/Use.java", 4, "exact"),
        ("src/main/java/p/Use.java", 5, "exact"),
    }
    assert _sites(run_cli, repo, "Crate.size") == {("src/main/java/p/Use.java", 6, "exact")}


def test_call_chains_are_typed_by_declared_return_types(run_cli, write_java):
    repo = write_java(
        {
            "src/main/java/p/Codec.java": """package p;
public class Codec {
    public byte[] encode(Object o) { return null; }
    public Codec self() { return this; }
}
""",
            "src/main/java/p/Registry.java": """package p;
public class Registry {
    public static Registry get() { return new Registry(); }
    public Codec codec() { return new Codec(); }
    public String name() { return ""; }
    public <T> T any() { return null; }
}
""",
            "src/main/java/p/Use.java": """package p;
class Use {
    void a() { Registry.get().codec().encode(1); }
    void b(Registry r) { r.codec().self().encode(1); }
    void c(Registry r) { r.name().encode(1); }
    void d(Registry r) { r.any().encode(1); }
    void e(java.util.List<Codec> cs) { cs.stream().filter(x -> true).encode(1); }
}
""",
            "src/main/java/q/Use2.java": """package q;
import static p.Registry.get;
class Use2 {
    void e() { get().codec().encode(1); }
}
""",
        }
    )
    result = run_cli("callers", "Codec.encode", "--repo", repo, "--format", "json")
    sites = {
        (s["file"].split("/")[-1], s["line"]): (s["confidence"], s["via"])
        for s in json.loads(result.out)["sites"]
    }
    assert sites == {
        ("Use.java", 3): ("exact", "return-type"),
        ("Use.java", 4): ("exact", "return-type"),
        ("Use.java", 6): ("likely", "same-package"),  # T any(): a type variable
        ("Use2.java", 4): ("exact", "return-type"),  # head call from a static import
    }
