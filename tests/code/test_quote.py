"""Quoted source stays bounded: output linear in sites, not sites × line length."""

from __future__ import annotations

import json
from pathlib import Path

from perfproof.code.quote import MAX_QUOTE, quote


def test_short_lines_are_quoted_whole_and_stripped() -> None:
    assert quote("    int x = f(1);  ", 10) == "int x = f(1);"


def test_long_line_keeps_a_window_around_the_column() -> None:
    line = "  " + "".join(f"h.go({i});" for i in range(2000))
    at = line.index("h.go(1500)")
    q = quote(line, at)
    assert len(q) <= MAX_QUOTE + 2
    assert "h.go(1500)" in q and q.startswith("…") and q.endswith("…")
    assert quote(line, 2).startswith("h.go(0)")  # at the start: no leading cut
    assert quote(line, len(line)).endswith("h.go(1999);")  # at the end: no trailing cut


def test_callers_of_twenty_thousand_calls_on_one_line(tmp_path: Path, run_cli) -> None:
    calls = "".join(f"h.go({i});" for i in range(20_000))
    java = tmp_path / "src" / "main" / "java" / "a"
    java.mkdir(parents=True)
    (java / "G.java").write_text(
        "package a;\nclass H { void go(int i) {} }\nclass G { void run(H h) { " + calls + " } }\n"
    )
    r = run_cli("callers", "a.H.go", "--repo", tmp_path, "--format", "json")
    assert r.code == 0, r.err
    doc = json.loads(r.out)
    assert doc["production"] == 20_000 and len(doc["sites"]) == 20_000
    assert all(len(s["source"]) <= MAX_QUOTE + 2 for s in doc["sites"])
    assert len(r.out) < 1_000 * 20_000  # ~400 bytes a site; the whole line each time was 4.5 GB
