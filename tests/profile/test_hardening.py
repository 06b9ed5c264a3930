"""``profile`` on hostile input: one line, exit 2, strict JSON, inputs never overwritten."""

from __future__ import annotations

import hashlib
import json
import os
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

CPU = "main;app.A.run;app.A.hot 30\nmain;app.A.run;app.A.cold 10\n"
ALLOC = "main;app.A.run;app.A.grow;long[]_[a] 4096\n"


def _strict(text: str) -> Any:
    def refuse(name: str) -> None:
        raise AssertionError(f"non-standard JSON constant {name}")

    return json.loads(text, parse_constant=refuse)


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_huge_weight_is_refused_naming_the_line(
    tmp_path: Path, run_cli: Callable[..., Any]
) -> None:
    f = tmp_path / "huge.collapsed"
    f.write_text("main;a 3\nmain;b 1e400\n")
    res = run_cli("profile", f, "--format", "json")
    assert res.code == 2 and res.out == ""
    assert f"{f}: line 2: weight 1e400 is too large" in res.err


def test_census_json_is_strict_for_large_finite_weights(
    tmp_path: Path, run_cli: Callable[..., Any]
) -> None:
    f = tmp_path / "big.collapsed"
    f.write_text("".join(f"main;f{i} 1e15\n" for i in range(50)))
    res = run_cli("profile", f, "--format", "json")
    assert res.code == 0, res.err
    doc = _strict(res.out)
    assert "inf" not in res.out.lower() and "nan" not in res.out.lower()
    assert doc["schema"].startswith("perfproof.profile")


def test_diff_of_one_kind_missing_on_one_side_exits_2(
    tmp_path: Path, run_cli: Callable[..., Any]
) -> None:
    before = tmp_path / "before.collapsed"
    before.write_text(CPU + ALLOC)
    after = tmp_path / "after.collapsed"
    after.write_text(CPU)  # CPU only: nothing can "appear" or vanish among allocations
    res = run_cli("profile", "diff", "--before", before, "--after", after, "--kind", "alloc")
    assert res.code == 2
    assert str(after) in res.err and "no allocation events" in res.err
    both = run_cli("profile", "diff", "--before", before, "--after", after, "--format", "json")
    assert both.code == 0, both.err
    doc = _strict(both.out)
    assert {r["kind"] for r in doc["rows"]} == {"cpu"}
    assert any("allocations not compared" in w for w in doc["warnings"])


def test_java_that_is_not_a_jvm_is_named(
    tmp_path: Path, run_cli: Callable[..., Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    rec = tmp_path / "fake.jfr"
    rec.write_bytes(b"FLR\0" + b"\0" * 64)
    for fake in ("/bin/true", "/bin/false"):  # exits 0 saying nothing; exits 1
        res = run_cli("profile", "--java", fake, rec)
        assert res.code == 2
        assert res.err.startswith(f"perfproof: error: --java {fake}: not a JVM")
        assert len(res.err.strip().splitlines()) == 1


@pytest.mark.parametrize("flag", ["--collapsed", "--flamegraph"])
def test_output_that_is_an_input_is_refused(
    tmp_path: Path, run_cli: Callable[..., Any], flag: str
) -> None:
    f = tmp_path / "in.collapsed"
    f.write_text(CPU)
    before = _digest(f)
    res = run_cli("profile", f, "--kind", "cpu", flag, f)
    assert res.code == 2 and "refusing to overwrite" in res.err and flag in res.err
    assert _digest(f) == before
    # the same file reached through another spelling is still the input
    other = tmp_path / "sub" / ".." / "in.collapsed"
    (tmp_path / "sub").mkdir()
    assert run_cli("profile", f, "--kind", "cpu", flag, other).code == 2
    assert _digest(f) == before


def test_collapsed_output_suffixed_per_kind_is_checked_too(
    tmp_path: Path, run_cli: Callable[..., Any]
) -> None:
    f = tmp_path / "out.cpu.collapsed"
    f.write_text(CPU + ALLOC)
    before = _digest(f)
    res = run_cli("profile", f, "--collapsed", tmp_path / "out.collapsed")
    assert res.code == 2 and "refusing to overwrite" in res.err
    assert _digest(f) == before


def test_diff_flamegraph_over_an_input_is_refused(
    tmp_path: Path, run_cli: Callable[..., Any]
) -> None:
    a, b = tmp_path / "a.collapsed", tmp_path / "b.collapsed"
    a.write_text(CPU)
    b.write_text(CPU)
    res = run_cli("profile", "diff", "--before", a, "--after", b, "--flamegraph", b)
    assert res.code == 2 and "refusing to overwrite" in res.err
    assert b.read_text() == CPU


def test_dev_null_is_empty_not_missing(run_cli: Callable[..., Any]) -> None:
    res = run_cli("profile", "/dev/null")
    assert res.code == 2 and "empty" in res.err and "no such file" not in res.err


def test_a_pipe_is_read_once(tmp_path: Path, run_cli: Callable[..., Any]) -> None:
    fifo = tmp_path / "stacks.fifo"
    os.mkfifo(fifo)

    def feed() -> None:
        with open(fifo, "w") as fh:
            fh.write(CPU)

    writer = threading.Thread(target=feed, daemon=True)
    writer.start()
    res = run_cli("profile", fifo, "--format", "json")
    writer.join(5)
    assert res.code == 0, res.err
    doc = _strict(res.out)
    assert doc["totals"]["cpu_samples"] == 40 and doc["recordings"] == [str(fifo)]


@pytest.mark.parametrize("duration", ["nan", "inf", "-1", "0"])
def test_record_duration_must_be_a_positive_number(
    tmp_path: Path, run_cli: Callable[..., Any], duration: str
) -> None:
    res = run_cli("record", "--out", tmp_path / "x.jfr", "--duration", duration, "--", "java")
    assert res.code == 2 and res.err.startswith("perfproof: error: --duration")
    assert not (tmp_path / "x.jfr").exists()


def test_record_refuses_to_write_over_a_file_the_command_reads(
    tmp_path: Path, run_cli: Callable[..., Any]
) -> None:
    jar = tmp_path / "app.jar"
    jar.write_bytes(b"PK\x03\x04")
    for argv in (["-jar", str(jar)], ["-cp", f"/nope.jar:{jar}", "Main"]):
        res = run_cli("record", "--out", jar, "--", "java", *argv)
        assert res.code == 2 and "refusing to overwrite" in res.err, res.err
        assert jar.read_bytes() == b"PK\x03\x04"
