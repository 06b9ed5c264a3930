"""``perfproof record --out`` behaves like ``cat > PATH``, with a real JVM writing the recording.

Run as a user's shell runs it (a process of its own), since ``-`` and ``/dev/stdout`` mean
descriptor 1 of that process.
"""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest

import perfproof

pytestmark = [pytest.mark.jvm, pytest.mark.slow]

SRC = str(Path(perfproof.__file__).parent.parent)
JFR_MAGIC = b"FLR\0"


def _record(hot_classes: Path, out: str | Path, cwd: Path, stdout: object) -> str:
    """Stdout (when piped here) and stderr of ``perfproof record --out OUT -- java …``."""
    java = shutil.which("java") or "java"
    argv = [sys.executable, "-m", "perfproof", "record", "--out", str(out), "--",
            java, "-cp", str(hot_classes), "demo.app.Hot", "300"]  # fmt: skip
    done = subprocess.run(argv, cwd=cwd, stdout=stdout, stderr=subprocess.PIPE, text=True,
                          env={**os.environ, "PYTHONPATH": SRC}, timeout=180)  # fmt: skip
    assert done.returncode == 0, done.stderr
    return (done.stdout or "") + done.stderr


def test_dev_null_stays_the_machines_dev_null(hot_classes: Path, tmp_path: Path) -> None:
    before = os.stat("/dev/null")
    said = _record(hot_classes, "/dev/null", tmp_path, subprocess.PIPE)
    after = os.stat("/dev/null")
    assert stat.S_ISCHR(after.st_mode) and after.st_ino == before.st_ino
    assert not [p for p in Path("/dev").iterdir() if "partial" in p.name or "null." in p.name]
    assert "recorded /dev/null" in said


def test_a_symlink_keeps_pointing_at_its_target(hot_classes: Path, tmp_path: Path) -> None:
    target = tmp_path / "real.jfr"
    target.write_bytes(b"old")
    link = tmp_path / "app.jfr"
    link.symlink_to(target)
    _record(hot_classes, link, tmp_path, subprocess.DEVNULL)
    assert link.is_symlink() and os.readlink(link) == str(target)
    assert target.read_bytes().startswith(JFR_MAGIC)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["app.jfr", "real.jfr"]


def test_dash_and_dev_stdout_write_the_recording_to_stdout(
    hot_classes: Path, tmp_path: Path
) -> None:
    """``-`` writes no file named ``-``; ``>> FILE`` with ``/dev/stdout`` appends after what
    FILE held; what perfproof says goes to stderr so stdout is the recording alone."""
    with open(tmp_path / "via-dash.jfr", "wb") as fh:
        said = _record(hot_classes, "-", tmp_path, fh)
    assert (tmp_path / "via-dash.jfr").read_bytes().startswith(JFR_MAGIC)
    assert "recorded -" in said and not (tmp_path / "-").exists()
    appended = tmp_path / "appended.bin"
    appended.write_bytes(b"kept:")
    with open(appended, "ab") as fh:
        _record(hot_classes, "/dev/stdout", tmp_path, fh)
    data = appended.read_bytes()
    assert data.startswith(b"kept:" + JFR_MAGIC) and len(data) > 1000
