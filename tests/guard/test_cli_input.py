"""``perfproof guard`` refuses bad input before building anything (one line, exit 2)."""

from __future__ import annotations

from pathlib import Path

import pytest

from perfproof.process import Command, Watch, run


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
        run(Command(["git", *args], cwd=repo), Watch(check=True))
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


@pytest.mark.parametrize("value", ["inf", "nan", "-inf"])
def test_min_ratio_must_be_finite(run_cli, tiny_repo: Path, value: str) -> None:
    res = run_cli("guard", "--repo", str(tiny_repo), "--base", "main", "--head", "main",
                  "--bench", "X", "--min-ratio", value)  # fmt: skip
    assert res.code == 2 and f"--min-ratio {value}: must be at least 1 and finite" in res.err
    assert not (tiny_repo / ".perfproof").exists()


def test_resume_accepts_lock_timeout_like_ab(run_cli, tmp_path: Path) -> None:
    for verb in ("ab", "guard"):
        res = run_cli(verb, "--resume", str(tmp_path), "--lock-timeout", "5")
        assert res.code == 2
        assert res.err.splitlines() == [
            f"perfproof: error: --resume {tmp_path}: no manifest.json (not a perfproof run folder)"
        ]


def test_resume_checks_a_given_min_ratio_first(run_cli, tmp_path: Path) -> None:
    res = run_cli("guard", "--resume", str(tmp_path), "--min-ratio", "inf")
    assert res.code == 2 and "--min-ratio inf: must be at least 1 and finite" in res.err


def test_bad_overlay_is_refused_before_the_run_folder(run_cli, tiny_repo: Path) -> None:
    for verb in ("guard", "ab"):
        res = run_cli(verb, "--repo", str(tiny_repo), "--base", "main", "--head", "main",
                      "--bench", "X", "--overlay", "src/NoSuchBench.java")  # fmt: skip
        assert res.code == 2
        (line,) = res.err.splitlines()
        assert "--overlay 'src/NoSuchBench.java': no file tracked by git there in --head main" in (
            line
        )
        assert not (tiny_repo / ".perfproof").exists()
