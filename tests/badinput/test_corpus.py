"""Run the bad-input corpus (``corpus.py``) through the CLI in-process.

For every case the harness checks the four promises of the Reliability section: no
traceback (an exception escaping ``perfproof.cli.main`` is one) and no warning a user would
see, output that ends with exactly one ``perfproof: error:`` line matching the case's regex,
the exit code, and every input file byte-for-byte unchanged (SHA-256 before and after; for a
git repository also its branches, HEAD and status), with no run folder left behind by a
refused command.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import threading
import traceback
import warnings
from collections.abc import Callable
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from corpus import CASES
from corpus_case import Case

from perfproof.cli import main

ERROR = "perfproof: error: "
HIDDEN_WARNINGS = (DeprecationWarning, PendingDeprecationWarning, ImportWarning, ResourceWarning)
"""Categories Python does not print by default outside ``__main__``: not the user's concern."""
GIT_ENV = {
    "GIT_AUTHOR_NAME": "a",
    "GIT_AUTHOR_EMAIL": "a@example.com",
    "GIT_COMMITTER_NAME": "a",
    "GIT_COMMITTER_EMAIL": "a@example.com",
    "GIT_CONFIG_NOSYSTEM": "1",
}


def _git(repo: Path, *args: str) -> str:
    env = {**os.environ, **GIT_ENV, "HOME": str(repo.parent)}
    done = subprocess.run(
        ["git", "-C", str(repo), *args], capture_output=True, text=True, env=env, check=True
    )
    return done.stdout


def _make_repo(repo: Path) -> None:
    repo.mkdir()
    _git(repo, "init", "-q", "-b", "main")
    (repo / "README").write_text("base\n")
    _git(repo, "add", "README")
    _git(repo, "commit", "-q", "-m", "base")
    _git(repo, "checkout", "-q", "-b", "feature")
    (repo / "README").write_text("feature\n")
    _git(repo, "commit", "-q", "-am", "feature")
    _git(repo, "checkout", "-q", "main")
    (repo / "untracked.txt").write_text("the user's own work in progress\n")


def _state(d: Path) -> dict[str, str]:
    """SHA-256 of every file under ``d`` (a repository's .git by its refs, HEAD and status)."""
    out: dict[str, str] = {}
    for p in sorted(d.rglob("*")):
        rel = p.relative_to(d)
        if rel.parts[0] in ("cache", "runs") or ".git" in rel.parts or ".perfproof" in rel.parts:
            continue
        if p.is_file() and not p.is_symlink():
            out[str(rel)] = hashlib.sha256(p.read_bytes()).hexdigest()
    repo = d / "repo"
    if (repo / ".git").is_dir():
        out["git refs"] = _git(repo, "for-each-ref", "--format=%(refname) %(objectname)")
        out["git HEAD"] = _git(repo, "symbolic-ref", "HEAD")
        out["git status"] = _git(repo, "status", "--porcelain", "--untracked-files=all")
        out["git stash"] = _git(repo, "stash", "list")
    return out


def _feed(path: Path, data: bytes) -> threading.Thread:
    def run() -> None:
        try:
            with open(path, "wb") as fh:
                fh.write(data)
        except BrokenPipeError:
            pass

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread


def _prepare(case: Case, d: Path, make_run_folder: Callable[[str], Path]) -> list[Path]:
    fifos = []
    for name, content in case.files.items():
        data = content.encode() if isinstance(content, str) else content
        if name.startswith("fifo:"):
            path = d / name[len("fifo:") :]
            os.mkfifo(path)
            fifos.append((path, data))
            continue
        read_only = name.startswith("ro:")
        path = d / name.removeprefix("ro:")
        if read_only and name.endswith("/"):  # a folder no file can be made in
            path.mkdir(parents=True)
            path.chmod(0o555)
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
        if read_only:
            path.chmod(0o444)
    if case.repo:
        _make_repo(d / "repo")
    if case.run:
        shutil.copytree(make_run_folder(case.run), d / "run")
    return [_feed(p, data) for p, data in fifos]


def _argv(case: Case, d: Path) -> list[str]:
    return [a.replace("{d}", str(d)).replace("fifo:", "").replace("ro:", "") for a in case.argv]


PARAMS = [
    pytest.param(c, id=c.id, marks=[pytest.mark.xfail(reason=c.xfail)] if c.xfail else [])
    for c in CASES
]


def test_corpus_is_large_and_names_are_unique() -> None:
    assert len(CASES) >= 150
    assert len({c.id for c in CASES}) == len(CASES)


@pytest.mark.timeout(120)
@pytest.mark.parametrize("case", PARAMS)
def test_bad_input(
    case: Case,
    tmp_path: Path,
    make_run_folder: Callable[[str], Path],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    d = tmp_path / "case"
    d.mkdir()
    monkeypatch.chdir(d)
    monkeypatch.setenv("XDG_CACHE_HOME", str(d / "cache"))
    monkeypatch.setenv("PERFPROOF_HISTORY_DB", str(d / "cache" / "history.sqlite"))
    feeders = _prepare(case, d, make_run_folder)
    before = _state(d)
    capsys.readouterr()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("default")  # what a user's terminal shows
        try:
            code = main(_argv(case, d))
        except SystemExit as exc:  # click may still exit for --help-like paths
            code = exc.code if isinstance(exc.code, int) else 1
        except BaseException:
            pytest.fail(f"traceback:\n{traceback.format_exc()}")
    shown = [w for w in caught if not issubclass(w.category, HIDDEN_WARNINGS)]
    assert not shown, f"warnings a user would see: {[str(w.message) for w in shown]}"
    out, err = capsys.readouterr()
    for t in feeders:
        t.join(2)
    both = out + err
    assert "Traceback (most recent call last)" not in both, both
    assert code in case.exits, f"exit {code}, expected {case.exit}\n{both[-1500:]}"
    lines = [line for line in err.splitlines() if line.strip()]
    errors = [line for line in lines if line.startswith(ERROR)]
    if code == 0:
        assert not errors, err
        assert re.search(case.message, both), f"{case.message!r} not in output:\n{both[-2000:]}"
    else:  # a gate (1) says which one failed on the same one line as an error (2, 3)
        assert lines and lines[-1].startswith(ERROR), f"last stderr line is not an error: {err}"
        assert len(errors) == 1, f"{len(errors)} error lines: {err}"
        assert re.search(case.message, errors[0]), f"{errors[0]!r} !~ {case.message!r}"
    if case.forbid:
        assert not re.search(case.forbid, both), f"forbidden {case.forbid!r} in:\n{both[-2000:]}"
    if case.strict_json and code in (0, 1):
        json.loads(out, parse_constant=lambda name: pytest.fail(f"bare {name} in JSON"))
    assert _state(d) == before, "an input file, the repository or its refs changed"
    if code == 2:  # refused input; a failed build (3) keeps its folder for --resume
        left = [str(p.relative_to(d)) for p in d.rglob(".perfproof/runs/*")]
        assert not left, f"a refused command left run folders behind: {left}"
