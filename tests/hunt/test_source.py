"""Profile frames to declared methods: nested classes, enum constant bodies, overloads."""

from __future__ import annotations

from pathlib import Path

from perfproof.code.query import open_project
from perfproof.pipeline.hunt.source import SourceMap, call_lines

SOURCE = """package p;

import java.util.HashMap;
import java.util.Map;

public enum Scale {
    LINEAR {
        @Override
        public double max(double q) {
            return q;
        }
    };

    public abstract double max(double q);

    static final class Table {
        private final Map<Short, Integer> counts = new HashMap<>();

        int bump(short code) {
            counts.merge(code, 1, Integer::sum);
            return counts.get(code);
        }
    }
}
"""


def test_frames_resolve_to_their_declarations(tmp_path: Path) -> None:
    (tmp_path / "src/main/java/p").mkdir(parents=True)
    (tmp_path / "src/main/java/p/Scale.java").write_text(SOURCE)
    sources = SourceMap(open_project(tmp_path, use_cache=False))
    nested = sources.resolve("p.Scale$Table.bump")
    assert nested is not None and nested.label == "Scale.Table.bump"
    assert (nested.file, nested.line, nested.end_line) == ("src/main/java/p/Scale.java", 19, 22)
    # an enum constant's body is an anonymous class, indexed under the name javac gives it
    body = sources.resolve("p.Scale$1.max")
    assert body is not None and body.label == "Scale$1.max"
    assert (body.line, body.end_line) == (8, 11)
    # one the index does not know is charged to the method it implements
    unknown = sources.resolve("p.Scale$7.max")
    assert unknown is not None and unknown.label == "Scale.max"
    assert sources.resolve("p.Other.max") is None
    assert sources.resolve("java.util.HashMap.merge") is None
    d = sources.by_frame["p.Scale$Table.bump"]
    assert call_lines(d, ["java.util.HashMap.merge", "java.util.HashMap.get"]) == [
        (20, "merge"),
        (21, "get"),
    ]
