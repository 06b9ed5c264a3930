"""Changed methods from a commit range: line ranges of both sides against method spans."""

from __future__ import annotations

from pathlib import Path

from tests.prove.conftest import commit

from perfproof.code.changes import (
    ADDED,
    MODIFIED,
    REMOVED,
    LineRange,
    changed_methods,
    parse_diff,
)

CODEC = """package p;

public class Codec {
    private final int size;

    public Codec(int size) {
        this.size = size;
    }

    public int encode(int x) {
        return x * 2;
    }

    public int decode(int x) {
        return x / 2;
    }

    public int gone() {
        return 0;
    }
}
"""


def test_parse_diff_ranges_and_points() -> None:
    text = (
        "diff --git a/A.java b/A.java\n--- a/A.java\n+++ b/A.java\n"
        "@@ -3,2 +3,0 @@\n-x\n-y\n@@ -10 +8,3 @@\n-z\n+a\n+b\n+c\n"
        "diff --git a/B.java b/B.java\nnew file mode 100644\n--- /dev/null\n+++ b/B.java\n"
        "@@ -0,0 +1,2 @@\n+q\n+r\n"
    )
    files = parse_diff(text)
    assert [f.path for f in files] == ["A.java", "B.java"]
    a = files[0]
    assert a.old_ranges == [LineRange(3, 4), LineRange(10, 10)]
    # "+3,0": lines were deleted after line 3 of the new side
    assert a.new_ranges[0] == LineRange(4, 3)
    assert a.new_ranges[0].touches(2, 5) and not a.new_ranges[0].touches(4, 9)
    assert files[1].old_path is None and files[1].new_ranges == [LineRange(1, 2)]


TWICE = "    public int twice(int x) {\n        return x;\n    }\n\n"


def test_modified_added_removed_and_signature(tmp_path: Path) -> None:
    repo = tmp_path / "r"
    base = commit(repo, {"src/main/java/p/Codec.java": CODEC})
    feature = (
        CODEC.replace("return x * 2;", "return x << 1;")
        .replace("    public int gone() {\n        return 0;\n    }\n", "")
        .replace("public Codec(int size) {", "public Codec(long size) {")
        .replace("this.size = size;", "this.size = (int) size;")
        .replace(
            "    public int decode",
            "    public int twice(int x) {\n        return x;\n    }\n\n    public int decode",
        )
    )
    head = commit(repo, {"src/main/java/p/Codec.java": feature})
    changes = changed_methods(repo, base, head)
    got = {(m.name, m.kind) for m in changes.methods}
    assert got == {
        ("encode", MODIFIED),
        ("gone", REMOVED),
        ("<init>", MODIFIED),
        ("twice", ADDED),
    }
    ctor = next(m for m in changes.methods if m.name == "<init>")
    assert ctor.signature_changed and ctor.params == ("long",)
    assert ctor.label == "new Codec(long)"
    encode = next(m for m in changes.methods if m.name == "encode")
    assert encode.file == "src/main/java/p/Codec.java"
    lines = feature.splitlines()
    assert "public int encode" in lines[encode.lines[0] - 1]
    assert changes.changed_classes == ["p.Codec"]


def test_tests_and_benchmarks_are_listed_by_file_only(tmp_path: Path) -> None:
    repo = tmp_path / "r"
    test_src = (
        "package p;\nimport org.junit.jupiter.api.Test;\n"
        "class CodecTest {\n  @Test void t() {}\n}\n"
    )
    bench = (
        "package p;\nimport org.openjdk.jmh.annotations.Benchmark;\n"
        "class B {\n  @Benchmark public void b() {}\n}\n"
    )
    base = commit(repo, {"src/main/java/p/Codec.java": CODEC})
    head = commit(
        repo,
        {
            "src/test/java/p/CodecTest.java": test_src,
            "src/jmh/java/p/B.java": bench,
        },
    )
    changes = changed_methods(repo, base, head)
    assert changes.methods == []
    assert changes.in_scope("test") == ["src/test/java/p/CodecTest.java"]
    assert changes.in_scope("benchmark") == ["src/jmh/java/p/B.java"]


NOTE = "    // note\n    public int decode"


def test_unchanged_methods_are_not_reported(tmp_path: Path) -> None:
    repo = tmp_path / "r"
    base = commit(repo, {"src/main/java/p/Codec.java": CODEC, "README.md": "a"})
    head = commit(repo, {"README.md": "b"})
    assert changed_methods(repo, base, head).methods == []
    # a comment between methods touches none of them
    head2 = commit(
        repo,
        {
            "src/main/java/p/Codec.java": CODEC.replace(
                "    public int decode", "    // note\n    public int decode"
            )
        },
    )
    assert changed_methods(repo, head, head2).methods == []


def test_each_changed_method_counts_the_baselines_methods_of_its_name(tmp_path: Path) -> None:
    """A recording names frames without parameters, so a share found by ``Codec.encode`` is
    every baseline ``encode``'s: the count says how many there are."""
    repo = tmp_path / "r"
    two = CODEC.replace(
        "    public int decode", "    public int encode(long x) {\n        return 1;\n    }\n\n"
        "    public int decode"
    )  # fmt: skip
    base = commit(repo, {"src/main/java/p/Codec.java": two})
    feature = two.replace("return x * 2;", "return x << 1;").replace(
        "    public int gone", "    public int encode(int x, int y) {\n        return y;\n    }\n\n"
        "    public int decode2(int x) {\n        return x;\n    }\n\n    public int gone"
    )  # fmt: skip
    head = commit(repo, {"src/main/java/p/Codec.java": feature})
    counts = {(m.name, m.params, m.kind): m.base_overloads for m in changed_methods(
        repo, base, head).methods}  # fmt: skip
    assert counts == {
        ("encode", ("int",), MODIFIED): 2,  # encode(int) and encode(long)
        ("encode", ("int", "int"), ADDED): 2,  # not in the baseline: both are others
        ("decode2", ("int",), ADDED): 0,
    }
