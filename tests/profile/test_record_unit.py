import struct
from pathlib import Path

import pytest

from perfproof.errors import InputError
from perfproof.measure.jfr_args import (
    jfr_option,
    jmh_jfr_args,
    name_fork_recordings,
    side_recordings,
)
from perfproof.profile.record import with_jfr


def test_option_goes_right_after_java_and_nothing_else_changes():
    argv = ["/usr/lib/jvm/bin/java", "-Xmx1g", "-jar", "app.jar", "--flag", "-- x"]
    out = with_jfr(argv, ["-XX:StartFlightRecording=filename=/r.jfr"])
    assert out == ["/usr/lib/jvm/bin/java", "-XX:StartFlightRecording=filename=/r.jfr", *argv[1:]]


def test_command_must_start_with_java():
    with pytest.raises(InputError, match="java executable"):
        with_jfr(["mvn", "exec:java"], ["-X"])
    with pytest.raises(InputError, match="needs a command"):
        with_jfr([], ["-X"])


def test_jfr_option_forms():
    (opt,) = jfr_option("/tmp/r.jfr", "default", duration_s=2.5)
    assert opt == (
        "-XX:StartFlightRecording=filename=/tmp/r.jfr,settings=default,dumponexit=true,"
        "duration=2500ms"
    )
    depth, start = jfr_option("/tmp/r.jfr", stack_depth=256)
    assert depth == "-XX:FlightRecorderOptions=stackdepth=256"
    assert "settings=profile" in start
    with pytest.raises(InputError, match="--settings"):
        jfr_option("/tmp/r.jfr", "fast")
    with pytest.raises(InputError, match="--duration"):
        jfr_option("/tmp/r.jfr", duration_s=0)


def test_jmh_args_write_one_file_per_fork_into_a_step_folder(tmp_path):
    args = jmh_jfr_args(tmp_path / "jfr", 3, "base")
    assert args[0] == "-jvmArgsAppend"
    folder = tmp_path / "jfr" / "r3-base"
    assert folder.is_dir()
    assert args[1] == (
        f"-XX:StartFlightRecording=filename={folder}/,settings=profile,dumponexit=true"
    )


def test_jmh_args_refuse_paths_jmh_would_split(tmp_path):
    with pytest.raises(InputError, match="spaces"):
        jmh_jfr_args(tmp_path / "my runs", 1, "A")
    with pytest.raises(InputError, match="side"):
        jmh_jfr_args(tmp_path, 1, "a b")


def _fake_jfr(path: Path, start_ns: int) -> None:
    header = b"FLR\0" + struct.pack(">hhqqqq", 2, 1, 0, 0, 0, start_ns)
    path.write_bytes(header + b"\0" * 16)


def test_forks_are_named_by_start_time(tmp_path):
    folder = tmp_path / "r1-A"
    folder.mkdir()
    _fake_jfr(folder / "hotspot-pid-900-id-1-2025_01_01_00_00_01.jfr", 3_000)
    _fake_jfr(folder / "hotspot-pid-100-id-1-2025_01_01_00_00_01.jfr", 2_000)
    _fake_jfr(folder / "hotspot-pid-500-id-1-2025_01_01_00_00_00.jfr", 1_000)
    named = name_fork_recordings(tmp_path, 1, "A")
    assert [p.name for p in named] == ["fork-1.jfr", "fork-2.jfr", "fork-3.jfr"]
    starts = [struct.unpack(">q", p.read_bytes()[32:40])[0] for p in named]
    assert starts == [1_000, 2_000, 3_000]
    # a later call keeps the numbering and adds new forks after it
    _fake_jfr(folder / "hotspot-pid-7-id-1-x.jfr", 500)
    assert [p.name for p in name_fork_recordings(tmp_path, 1, "A")][-1] == "fork-4.jfr"
    assert name_fork_recordings(tmp_path, 2, "A") == []


def test_a_sides_recordings_include_the_part_folders_in_run_order(tmp_path):
    for folder in ("r1-base", "r1-base-p2", "r2-base", "r10-base", "r1-head", "r2-head-p2"):
        (tmp_path / folder).mkdir()
        for n in (1, 2):
            (tmp_path / folder / f"fork-{n}.jfr").write_bytes(b"")
    (tmp_path / "r1-base-p2" / "notes.txt").write_text("not a recording")
    (tmp_path / "r3-baseline").mkdir()  # another name that starts like the side
    (tmp_path / "r3-baseline" / "fork-1.jfr").write_bytes(b"")

    base = [f"{p.parent.name}/{p.name}" for p in side_recordings(tmp_path, "base")]
    assert base == [
        "r1-base/fork-1.jfr", "r1-base/fork-2.jfr",
        "r1-base-p2/fork-1.jfr", "r1-base-p2/fork-2.jfr",
        "r2-base/fork-1.jfr", "r2-base/fork-2.jfr",
        "r10-base/fork-1.jfr", "r10-base/fork-2.jfr",
    ]  # fmt: skip
    head = {p.parent.name for p in side_recordings(tmp_path, "head")}
    assert head == {"r1-head", "r2-head-p2"}
    assert side_recordings(tmp_path / "missing", "base") == []
