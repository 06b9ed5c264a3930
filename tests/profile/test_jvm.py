"""Real recordings of a program with known hot spots, through `perfproof record` and `profile`."""

from __future__ import annotations

import json
import re
import shutil
import struct
from pathlib import Path

import pytest

from perfproof.env.java import find_java
from perfproof.measure.jfr_args import jmh_jfr_args, name_fork_recordings
from perfproof.process import Command, Watch, run
from perfproof.profile import jdk

pytestmark = [pytest.mark.jvm, pytest.mark.slow]

FOCUS = ("--focus", "demo.app")


def test_census_ranks_the_known_hot_spots_first(run_cli, hot_recordings):
    r = run_cli("profile", str(hot_recordings.with_hot[0]), *FOCUS, "--format", "json")
    assert r.code == 0, r.err
    doc = json.loads(r.out)
    assert doc["schema"] == "perfproof.profile/1"
    assert doc["totals"]["alloc_source"] == "jdk.ObjectAllocationSample"
    top_alloc = doc["alloc"][0]
    assert top_alloc["frame"] == "java.util.Arrays.copyOf"
    assert top_alloc["class"] == "long[]"
    assert top_alloc["focus_frame"] == "demo.app.Hot.grow"
    assert top_alloc["share"] > 0.5
    # The program's two hot spots lead the CPU census: the main thread's spin and the copy
    # the growing thread makes. Which of them comes first is the machine's: two threads share
    # two cores with whatever else runs there, and under load the copy can take more.
    top_two = {row["frame"]: row for row in doc["cpu"][:2]}
    assert set(top_two) == {"demo.app.Hot.spin", "java.util.Arrays.copyOf"}
    spin = top_two["demo.app.Hot.spin"]
    assert spin["focus_frame"] == "demo.app.Hot.spin"
    assert spin["self"] >= 20 and spin["total"] >= spin["self"]
    assert top_two["java.util.Arrays.copyOf"]["focus_frame"] == "demo.app.Hot.grow"
    focus_alloc = [f for f in doc["focus_frames"] if f["kind"] == "alloc"]
    assert focus_alloc[0]["frame"] == "demo.app.Hot.grow"
    # allocation stacks are whole: the thread's root frame is there, not cut at 5 frames
    out = run_cli("profile", str(hot_recordings.with_hot[0]), "--kind", "alloc", "--collapsed",
                  str(hot_recordings.with_hot[0].with_suffix(".collapsed")))  # fmt: skip
    assert out.code == 0
    text = hot_recordings.with_hot[0].with_suffix(".collapsed").read_text()
    line = next(x for x in text.splitlines() if "demo.app.Hot.grow" in x)
    assert line.startswith("java.lang.Thread.run;")
    assert ";demo.app.Hot.grow;java.util.Arrays.copyOf;long[]_[a] " in line


def test_diff_shows_the_hot_spot_vanish(run_cli, hot_recordings):
    r = run_cli(
        "profile", "diff",
        "--before", *map(str, hot_recordings.with_hot),
        "--after", *map(str, hot_recordings.without_hot),
        *FOCUS, "--format", "json", "--top", "0",
    )  # fmt: skip
    assert r.code == 0, r.err
    doc = json.loads(r.out)
    assert doc["schema"] == "perfproof.profile-diff/1"
    grow = [x for x in doc["rows"] if x["focus_frame"] == "demo.app.Hot.grow"]
    alloc = [x for x in grow if x["kind"] == "alloc" and x["class"] == "long[]"]
    assert alloc and alloc[0]["status"] == "vanished"
    assert alloc[0]["before_mean"] > 0 and alloc[0]["after_mean"] == 0
    assert alloc[0]["ci"] is not None and alloc[0]["ci"][0] <= alloc[0]["change"]
    # the biggest allocation change is that vanished site
    first_alloc = next(x for x in doc["rows"] if x["kind"] == "alloc")
    assert first_alloc["focus_frame"] == "demo.app.Hot.grow"
    spin = [x for x in doc["rows"] if x["kind"] == "cpu" and x["frame"] == "demo.app.Hot.spin"]
    assert spin and spin[0]["status"] not in ("vanished", "appeared")


def test_collapsed_round_trip_from_a_recording(run_cli, hot_recordings, tmp_path):
    rec = str(hot_recordings.with_hot[1])
    out = tmp_path / "r.collapsed"
    assert run_cli("profile", rec, "--collapsed", str(out)).code == 0
    for kind in ("cpu", "alloc"):
        from_jfr = json.loads(run_cli("profile", rec, *FOCUS, "--kind", kind,
                                      "--format", "json", "--top", "0").out)  # fmt: skip
        back = run_cli("profile", str(tmp_path / f"r.{kind}.collapsed"), *FOCUS, "--kind", kind,
                       "--format", "json", "--top", "0")  # fmt: skip
        assert back.code == 0, back.err
        assert json.loads(back.out)[kind] == from_jfr[kind]


def test_flamegraph_from_a_recording_is_self_contained(run_cli, hot_recordings, tmp_path):
    html = tmp_path / "fg.html"
    diff_html = tmp_path / "diff.html"
    rec = str(hot_recordings.with_hot[0])
    assert run_cli("profile", rec, *FOCUS, "--flamegraph", str(html)).code == 0
    r = run_cli("profile", "diff", "--before", rec, "--after", str(hot_recordings.without_hot[0]),
                "--flamegraph", str(diff_html))  # fmt: skip
    assert r.code == 0, r.err
    for page in (html.read_text(), diff_html.read_text()):
        assert not re.search(r"""(src|href)\s*=\s*["']?\s*https?:""", page, re.I)
        assert "http://" not in page and "https://" not in page
        assert "demo.app.Hot.spin" in page


def test_truncated_corrupt_and_fake_recordings(run_cli, hot_recordings, tmp_path):
    data = hot_recordings.with_hot[0].read_bytes()
    cases = {}
    cases["truncated.jfr"] = data[: len(data) // 2]
    # JFR has no checksums: damage inside an event's payload can read as other valid values,
    # so the corruption that must be caught is damage to the framing (a record size) and to
    # the chunk header, placed where the recording's own layout says they are
    cases["corrupt.jfr"] = _zero_record_size(data, len(data) // 3)
    header = bytearray(data)
    header[16:24] = struct.pack(">q", struct.unpack(">q", data[8:16])[0] + 1)
    cases["corrupt-header.jfr"] = bytes(header)
    cases["fake.jfr"] = b"FLR\0" + b"not really a recording" * 20
    for name, content in cases.items():
        (tmp_path / name).write_bytes(content)
        r = run_cli("profile", str(tmp_path / name))
        assert r.code == 2, (name, r.err)
        assert len(r.err.strip().splitlines()) == 1
        assert name in r.err
        assert re.search(r"truncated|corrupt", r.err)
    r = run_cli("profile", str(tmp_path / "truncated.jfr"))
    assert "truncated" in r.err and "record it again" in r.err


def _zero_record_size(data: bytes, after: int) -> bytes:
    """The recording with the size of its first record past byte ``after`` set to zero."""
    chunk_end = struct.unpack(">q", data[8:16])[0]
    p = 68  # the chunk header's length
    while p < chunk_end:
        q, size, shift = p, 0, 0
        while True:
            b = data[q]
            q += 1
            size |= (b & 0x7F) << shift
            shift += 7
            if b < 0x80 or q - p == 9:
                break
        if p >= after:
            width = q - p
            zero = bytes([0x80] * (width - 1) + [0x00])
            return data[:p] + zero + data[q:]
        p += size
    raise AssertionError("no record past the given offset")


def test_failed_command_keeps_its_recording_and_exits_3(run_cli, hot_recordings, tmp_path):
    out = tmp_path / "fail.jfr"
    java = shutil.which("java")
    r = run_cli("record", "--out", str(out), "--duration", "5", "--", java, "-cp",
                str(hot_recordings.classes), "demo.app.NoSuchMain")  # fmt: skip
    assert r.code == 3
    assert "exited with code 1" in r.err
    # the JVM dumps on exit even when main fails: the recording is kept under --out
    assert f"recording kept at {out}" in r.err and out.stat().st_size > 0
    assert not list(tmp_path.glob(".*partial*"))


def test_helper_is_compiled_once_into_the_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    java = find_java()
    first = jdk.helper_command(java)
    classes = list((tmp_path / "perfproof" / "jfr-helper").glob("*/JfrCensus.class"))
    assert len(classes) == 1
    assert first[-3:] == ["-cp", str(classes[0].parent), "JfrCensus"]
    assert jdk.helper_command(java) == first


@pytest.fixture(scope="session")
def jmh_jar(tmp_path_factory: pytest.TempPathFactory) -> str:
    """A tiny JMH project (tests/profile/jmh_project), built once; Maven downloads JMH."""
    source = Path(__file__).parent / "jmh_project"
    if shutil.which("mvn") is None:
        pytest.skip("needs Maven")
    root = tmp_path_factory.mktemp("jmh")
    shutil.copy(source / "pom.xml", root / "pom.xml")
    pkg = root / "src" / "main" / "java" / "fx"
    pkg.mkdir(parents=True)
    for java in source.glob("*.java"):
        shutil.copy(java, pkg / java.name)
    package = Command(["mvn", "-q", "-B", "-DskipTests", "package"], cwd=root)
    run(package, Watch(check=True, what="mvn package", log=root / "build.log", timeout=900))
    return str(root / "target" / "benchmarks.jar")


def test_jmh_jfr_args_give_every_fork_its_own_recording(run_cli, jmh_jar, tmp_path):
    args = jmh_jfr_args(tmp_path / "jfr", 2, "head")
    jmh = Command(["java", "-Djmh.ignoreLock=true", "-jar", jmh_jar, "fx.Codes.sum", "-p", "n=16",
                   "-f", "2", "-wi", "0", "-i", "1", "-r", "300ms", *args])  # fmt: skip
    run(jmh, Watch(check=True, what="JMH", timeout=300))
    forks = name_fork_recordings(tmp_path / "jfr", 2, "head")
    assert [p.name for p in forks] == ["fork-1.jfr", "fork-2.jfr"]
    assert all(p.parent.name == "r2-head" for p in forks)
    starts = [struct.unpack(">q", p.read_bytes()[32:40])[0] for p in forks]
    assert starts[0] < starts[1]
    # the run's folder stands for all its recordings
    r = run_cli("profile", str(tmp_path / "jfr"), "--kind", "cpu", "--format", "json")
    assert r.code == 0, r.err
    doc = json.loads(r.out)
    assert doc["recordings"] == [str(p) for p in forks]
    assert doc["totals"]["cpu_samples"] > 0


def test_tlab_only_recording_is_weighted_by_tlab_sizes(run_cli, tlab_recording):
    r = run_cli("profile", str(tlab_recording), *FOCUS, "--kind", "alloc", "--format", "json")
    assert r.code == 0, r.err
    doc = json.loads(r.out)
    assert "jdk.ObjectAllocationInNewTLAB" in doc["totals"]["alloc_source"]
    top = doc["alloc"][0]
    assert (top["frame"], top["class"], top["focus_frame"]) == (
        "java.util.Arrays.copyOf",
        "long[]",
        "demo.app.Hot.grow",
    )
    # each copy is 8192 longs (64 KiB + header): the bytes dwarf one object per event
    assert top["bytes"] > 100 * 65536


def test_stacks_cut_by_the_recording_depth_are_reported(run_cli, hot_recordings, tmp_path):
    java = shutil.which("java")
    out = tmp_path / "shallow.jfr"
    r = run_cli("record", "--out", str(out), "--stack-depth", "2", "--", java, "-cp",
                str(hot_recordings.classes), "demo.app.Hot", "800")  # fmt: skip
    assert r.code == 0, r.err
    r = run_cli("profile", str(out), "--format", "json")
    doc = json.loads(r.out)
    assert any("stack depth (2 frames)" in w for w in doc["warnings"])
