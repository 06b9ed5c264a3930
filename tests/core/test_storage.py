import json
import os
import stat
import threading
from pathlib import Path

import pytest

from perfproof.storage import write_bytes_atomic, write_json_atomic


def test_atomic_write_replaces_whole_file(tmp_path: Path) -> None:
    p = tmp_path / "d" / "f.json"
    write_json_atomic(p, {"a": 1})
    write_json_atomic(p, {"a": 2})
    assert json.loads(p.read_text()) == {"a": 2}
    assert [x.name for x in p.parent.iterdir()] == ["f.json"]


def test_failed_write_leaves_old_content_and_no_temp(tmp_path: Path) -> None:
    p = tmp_path / "f.bin"
    write_bytes_atomic(p, b"old")

    with pytest.raises(TypeError):
        write_bytes_atomic(p, object())  # type: ignore[arg-type]
    assert p.read_bytes() == b"old"
    assert [x.name for x in tmp_path.iterdir()] == ["f.bin"]


# --------------------------------------------------------------- outputs behave like cat > PATH


def test_dev_null_stays_a_device(tmp_path: Path) -> None:
    """As root a rename over /dev/null would replace it for the whole machine."""
    before = os.stat("/dev/null")
    write_bytes_atomic("/dev/null", b"report")
    after = os.stat("/dev/null")
    assert stat.S_ISCHR(after.st_mode) and after.st_ino == before.st_ino
    assert not list(Path("/dev").glob(".null.*.tmp"))


def test_fifo_is_written_directly(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()))
    reader.start()
    write_bytes_atomic(fifo, b"through the pipe")
    reader.join(timeout=10)
    assert got == [b"through the pipe"]
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pipe"]


def test_symlink_target_is_written_and_the_link_kept(tmp_path: Path) -> None:
    target = tmp_path / "real" / "report.md"
    target.parent.mkdir()
    target.write_text("old")
    target.chmod(0o640)
    link = tmp_path / "link.md"
    link.symlink_to(target)
    write_bytes_atomic(link, b"new")
    assert link.is_symlink() and os.readlink(link) == str(target)
    assert target.read_bytes() == b"new"
    assert stat.S_IMODE(target.stat().st_mode) == 0o640


def test_new_file_gets_the_umask_mode_and_existing_keeps_its_own(tmp_path: Path) -> None:
    old = os.umask(0o027)
    try:
        fresh = write_bytes_atomic(tmp_path / "fresh", b"x")
    finally:
        os.umask(old)
    assert stat.S_IMODE(fresh.stat().st_mode) == 0o640
    kept = tmp_path / "kept"
    kept.write_bytes(b"x")
    kept.chmod(0o604)
    write_bytes_atomic(kept, b"y")
    assert stat.S_IMODE(kept.stat().st_mode) == 0o604


def test_dash_is_stdout(capfdbinary: pytest.CaptureFixture[bytes], tmp_path: Path) -> None:
    os.chdir(tmp_path)
    write_bytes_atomic("-", b"to stdout\n")
    assert capfdbinary.readouterr().out == b"to stdout\n"
    assert not (tmp_path / "-").exists()


def test_a_folder_is_refused_naming_the_given_path(tmp_path: Path) -> None:
    folder = tmp_path / "out"
    folder.mkdir()
    with pytest.raises(IsADirectoryError) as err:
        write_bytes_atomic(folder, b"x")
    assert str(folder) in str(err.value) and ".tmp" not in str(err.value)


def test_report_out_dash_prints_and_creates_no_file(
    run_cli, make_run_folder, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    r = run_cli("report", str(make_run_folder("ab")), "--format", "md", "--out", "-")
    assert r.code == 0, r.err
    assert r.out.startswith("## Performance")
    assert not (tmp_path / "-").exists()
