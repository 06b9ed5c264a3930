"""``history show|changes --out``: the output lands in the file, and never over the database."""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest


@pytest.fixture
def recorded(tmp_path: Path, run_cli, fixtures_dir: Path) -> Path:
    db = tmp_path / "h.sqlite"
    jmh = fixtures_dir / "jmh" / "jmh-1.21-avgt-gc.json"
    for commit in ("abc1234", "def5678"):
        r = run_cli("history", "record", jmh, "--commit", commit, "--db", db)
        assert r.code == 0, r.err
    return db


@pytest.mark.parametrize("verb", ["show", "changes"])
def test_table_goes_to_the_out_file_not_stdout(recorded: Path, run_cli, tmp_path, verb) -> None:
    out = tmp_path / f"{verb}.txt"
    r = run_cli("history", verb, "--db", recorded, "--out", out)
    assert r.code == 0, r.err
    text = out.read_text()
    assert text.strip() and "\x1b[" not in text  # plain text, no terminal colours
    assert text not in r.out
    if verb == "show":
        assert "Codes" in text and "abc1234" in text


@pytest.mark.parametrize("verb", ["show", "changes"])
@pytest.mark.parametrize("fmt", ["table", "json", "html"])
@pytest.mark.parametrize("via", ["path", "symlink", "wal"])
def test_out_naming_the_database_is_refused(recorded: Path, run_cli, tmp_path, verb, fmt, via):
    digest = hashlib.sha256(recorded.read_bytes()).hexdigest()
    if via == "path":
        out = recorded
    elif via == "symlink":
        out = tmp_path / "link.html"
        out.symlink_to(recorded)
    else:
        out = recorded.with_name(recorded.name + "-wal")
    r = run_cli("history", verb, "--db", recorded, "--format", fmt, "--out", out)
    assert r.code == 2
    assert r.err.strip().splitlines()[-1].startswith("perfproof: error: --out")
    assert hashlib.sha256(recorded.read_bytes()).hexdigest() == digest


def _make_read_only(path: Path) -> Callable[[], None]:
    """Read-only for this process: mode 0444 for a user, the immutable flag for root (whom
    file modes do not stop). Returns the undo."""
    if os.geteuid() != 0:
        path.chmod(0o444)
        return lambda: path.chmod(0o644)
    chattr = shutil.which("chattr")
    if chattr is None:
        pytest.skip("running as root without chattr: no way to make a file read-only")
    done = subprocess.run([chattr, "+i", str(path)], capture_output=True, check=False)
    if done.returncode != 0:
        pytest.skip(f"chattr +i unsupported here: {done.stderr.decode().strip()}")
    return lambda: subprocess.run([chattr, "-i", str(path)], check=False)


def test_recording_into_a_read_only_database_exits_2(
    recorded: Path, run_cli, fixtures_dir: Path
) -> None:
    digest = hashlib.sha256(recorded.read_bytes()).hexdigest()
    undo = _make_read_only(recorded)
    try:
        jmh = fixtures_dir / "jmh" / "jmh-1.37-allmodes-gc.json"
        r = run_cli("history", "record", jmh, "--commit", "0123abc", "--db", recorded)
    finally:
        undo()
    assert r.code == 2, (r.out, r.err)
    (line,) = r.err.strip().splitlines()
    assert line.startswith(f"perfproof: error: {recorded}: cannot write")
    assert hashlib.sha256(recorded.read_bytes()).hexdigest() == digest
