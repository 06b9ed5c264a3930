"""Every verb's outputs behave like ``cat > PATH``, run as a user's shell runs perfproof.

A separate process each: ``/dev/stdout`` only means something for a real descriptor 1 the
shell opened (``>>`` opens it O_APPEND, the way ``$GITHUB_STEP_SUMMARY`` is written).
"""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

import perfproof

SRC = str(Path(perfproof.__file__).parent.parent)
COLLAPSED = "main;app.A.run;app.A.hot 30\nmain;app.A.run;app.A.cold 10\n"
ALLOC = "main;app.A.run;app.A.grow;long[]_[a] 4096\n"


def _perfproof(*args: str | Path, stdout: object, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": SRC, "XDG_CACHE_HOME": str(cwd / "cache")}
    return subprocess.run(
        [sys.executable, "-m", "perfproof", *map(str, args)],
        stdout=stdout,
        stderr=subprocess.PIPE,
        text=True,
        cwd=cwd,
        env=env,
        timeout=120,
    )


def _appended(tmp_path: Path, *args: str | Path) -> str:
    """What ``perfproof ARGS >> summary.md`` leaves in a summary.md that held a first line."""
    summary = tmp_path / "summary.md"
    summary.write_text("# kept from an earlier step\n")
    with open(summary, "a") as fh:
        done = _perfproof(*args, stdout=fh, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    return summary.read_text()


def test_report_out_dev_stdout_appends_where_the_shell_appends(
    tmp_path: Path, make_run_folder: Callable[[str], Path]
) -> None:
    run = make_run_folder("ab")
    text = _appended(tmp_path, "report", run, "--summary", "--out", "/dev/stdout")
    assert text.startswith("# kept from an earlier step\n")
    assert "Performance" in text[len("# kept") :]


def test_export_and_profile_out_dev_stdout_append(
    tmp_path: Path, make_run_folder: Callable[[str], Path]
) -> None:
    run = make_run_folder("ab")
    text = _appended(tmp_path, "export", run, "--to", "benchstat", "--out", "/dev/stdout")
    assert text.startswith("# kept from an earlier step\n") and "Benchmark" in text
    rec = tmp_path / "a.collapsed"
    rec.write_text(COLLAPSED + ALLOC)
    text = _appended(tmp_path, "profile", rec, "--collapsed", "/dev/stdout", "--format", "json")
    assert text.startswith("# kept from an earlier step\n")
    assert "app.A.hot 30" in text and "long[]_[a] 4096" in text  # both kinds, one stream
    assert not list(Path("/dev").glob("stdout.*"))


def test_history_and_flamegraph_out_dev_stdout_append(
    tmp_path: Path, make_run_folder: Callable[[str], Path]
) -> None:
    db = tmp_path / "history.sqlite"
    run = make_run_folder("ab")
    done = _perfproof("history", "record", run, "--db", db, stdout=subprocess.PIPE, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    for verb in ("show", "changes"):
        text = _appended(tmp_path, "history", verb, "--db", db, "--out", "/dev/stdout")
        assert text.startswith("# kept from an earlier step\n") and len(text) > 40
    rec = tmp_path / "a.collapsed"
    rec.write_text(COLLAPSED)
    text = _appended(tmp_path, "profile", rec, "--flamegraph", "/dev/stdout", "--format", "json")
    assert text.startswith("# kept from an earlier step\n") and "</html>" in text


def test_profile_collapsed_dev_null_makes_no_file_in_dev(tmp_path: Path) -> None:
    rec = tmp_path / "a.collapsed"
    rec.write_text(COLLAPSED + ALLOC)
    before = os.stat("/dev/null")
    done = _perfproof(
        "profile", rec, "--collapsed", "/dev/null", "--flamegraph", "/dev/null",
        stdout=subprocess.DEVNULL, cwd=tmp_path,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert not list(Path("/dev").glob("null.*")) and not list(Path("/dev").glob(".null.*"))
    after = os.stat("/dev/null")
    assert stat.S_ISCHR(after.st_mode) and after.st_ino == before.st_ino


def test_a_symlinked_collapsed_output_writes_its_target(tmp_path: Path) -> None:
    rec = tmp_path / "a.collapsed"
    rec.write_text(COLLAPSED)
    target = tmp_path / "real.collapsed"
    target.write_text("old\n")
    link = tmp_path / "link.collapsed"
    link.symlink_to(target)
    done = _perfproof(
        "profile", rec, "--kind", "cpu", "--collapsed", link,
        stdout=subprocess.DEVNULL, cwd=tmp_path,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert link.is_symlink() and "app.A.hot 30" in target.read_text()


@pytest.mark.parametrize("verb", ["report", "export", "collapsed", "flamegraph"])
def test_a_read_only_output_is_refused_and_kept(
    verb: str, tmp_path: Path, make_run_folder: Callable[[str], Path]
) -> None:
    out = tmp_path / "kept.txt"
    out.write_text("mine\n")
    out.chmod(0o444)
    rec = tmp_path / "a.collapsed"
    rec.write_text(COLLAPSED)
    argv: dict[str, tuple[str | Path, ...]] = {
        "report": ("report", make_run_folder("ab"), "--out", out),
        "export": ("export", make_run_folder("ab"), "--to", "bencher", "--out", out),
        "collapsed": ("profile", rec, "--kind", "cpu", "--collapsed", out),
        "flamegraph": ("profile", rec, "--flamegraph", out),
    }
    done = _perfproof(*argv[verb], stdout=subprocess.PIPE, cwd=tmp_path)
    assert done.returncode == 2, done.stderr
    assert done.stderr.startswith("perfproof: error: ") and "read-only" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1
    assert out.read_text() == "mine\n" and stat.S_IMODE(out.stat().st_mode) == 0o444
