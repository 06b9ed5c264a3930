"""``perfproof guard`` refuses bad input before building anything (one line, exit 2)."""

from __future__ import annotations

from pathlib import Path

import pytest

from perfproof.process import run


@pytest.fixture
def tiny_repo(tmp_path: Path) -> Path:
    repo = tmp_path / "repo"
    repo.mkdir()
    (repo / "a.txt").write_text("a\n")
    for args in (
        ["init", "-q", "-b", "main"],
        ["add", "."],
        ["-c", "user.name=t", "-c", "user.email=t@e", "commit", "-q", "-m", "a"],
    ):
        run(["git", *args], cwd=repo, check=True)
    return repo


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["--base", "main"], "--base and --head are required"),
        (["--base", "main", "--head", "main"], "--bench REGEX is required"),
        (["--base", "main", "--head", "main", "--bench", "X", "--min-ratio", "0.8"],
         "--min-ratio 0.8: must be at least 1"),
        (["--base", "main", "--head", "main", "--bench", "X", "--confidence", "1.5"],
         "--confidence 1.5"),
        (["--base", "main", "--head", "nope", "--bench", "X"], "unknown ref 'nope'"),
        (["--base", "main", "--head", "main", "--bench", "X", "--metric", "speed"],
         "'speed' is not one of"),
    ],
)  # fmt: skip
def test_bad_input(run_cli, tiny_repo: Path, args: list[str], fragment: str) -> None:
    res = run_cli("guard", "--repo", str(tiny_repo), *args)
    assert res.code == 2
    assert fragment in res.err
    assert not (tiny_repo / ".perfproof").exists()  # nothing was started


def test_resume_refuses_run_settings(run_cli, tmp_path: Path) -> None:
    res = run_cli("guard", "--resume", str(tmp_path), "--rounds", "4", "--build", "maven")
    assert res.code == 2 and "drop --build, --rounds" in res.err
