"""Scan ranked by a real JFR recording of a real JVM running the scanned code."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from perfproof.process import Command, Watch, run

HOT = """package demo;

import java.util.List;

public class Hot {
    static String key(int i) {
        return String.format("key-%d", i);
    }

    static List<String> cold(List<String> xs) {
        return xs.stream().toList();
    }

    public static void main(String[] args) {
        long n = 0;
        long end = System.nanoTime() + 1_500_000_000L;
        while (System.nanoTime() < end) {
            n += key((int) n).length();
        }
        System.out.println(n + cold(List.of()).size());
    }
}
"""


@pytest.mark.jvm
@pytest.mark.slow
def test_jfr_profile_puts_the_hot_method_first(run_cli, tmp_path: Path):
    if shutil.which("javac") is None or shutil.which("java") is None:
        pytest.skip("needs a JDK (java and javac on PATH)")
    repo = tmp_path / "repo"
    source = repo / "src/main/java/demo/Hot.java"
    source.parent.mkdir(parents=True)
    source.write_text(HOT)
    classes = tmp_path / "classes"
    run(Command(["javac", "-d", classes, source]), Watch(check=True, what="javac", timeout=120))
    recording = tmp_path / "rec.jfr"
    run(
        Command(
            [
                "java",
                f"-XX:StartFlightRecording=filename={recording},settings=profile",
                "-cp",
                classes,
                "demo.Hot",
            ]
        ),
        Watch(check=True, what="java", timeout=120),
    )
    result = run_cli("scan", "--repo", repo, "--profile", recording, "--format", "json")
    assert result.code == 0, result.err
    findings = json.loads(result.out)["findings"]
    assert [(f["rule"], f["method"]) for f in findings] == [
        ("format-in-hot-path", "Hot.key"),
        ("stream-on-empty", "Hot.cold"),
    ]
    assert findings[0]["share"] > 0.3
    assert findings[1]["share"] < 0.05
