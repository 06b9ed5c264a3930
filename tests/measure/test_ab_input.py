"""Bad input to ``perfproof ab`` is refused before any work (exit 2, one line)."""

from __future__ import annotations

from pathlib import Path


def test_unknown_ref_is_exit_2_before_any_work(ab_env, run_cli, tmp_path: Path) -> None:
    res = run_cli("ab", "--repo", ab_env.repo, "--base", "baseline", "--head", "no-such-branch",
                  "--out", tmp_path / "run")  # fmt: skip
    assert res.code == 2
    assert res.err.count("\n") == 1 and "no-such-branch" in res.err
    assert not (tmp_path / "run").exists()


def test_missing_refs_and_bad_flags(ab_env, run_cli, tmp_path: Path) -> None:
    res = run_cli("ab", "--repo", ab_env.repo, "--base", "baseline")
    assert res.code == 2 and "--head" in res.err
    res = run_cli("ab", "--repo", ab_env.repo, "--base", "baseline", "--head", "feature",
                  "--rounds", "0", "--out", tmp_path / "r")  # fmt: skip
    assert res.code == 2 and "--rounds" in res.err
    res = run_cli("ab", "--repo", ab_env.repo, "--base", "baseline", "--head", "feature",
                  "--jmh-args", "-rff x.json", "--out", tmp_path / "r")  # fmt: skip
    assert res.code == 2 and "-rff" in res.err
    res = run_cli("ab", "--repo", tmp_path, "--base", "a", "--head", "b")
    assert res.code == 2
    assert not (tmp_path / "r").exists()


def test_resume_of_a_folder_that_is_not_a_run(run_cli, tmp_path: Path) -> None:
    res = run_cli("ab", "--resume", tmp_path)
    assert res.code == 2 and "manifest.json" in res.err


def test_jfr_with_a_run_folder_jmh_would_split_is_exit_2_before_any_work(
    ab_env, run_cli, tmp_path: Path
) -> None:
    out = tmp_path / "my runs"
    res = run_cli("ab", "--repo", ab_env.repo, "--base", "baseline", "--head", "feature",
                  "--jfr", "--out", out)  # fmt: skip
    assert res.code == 2 and res.err.count("\n") == 1 and "--jfr" in res.err
    assert not out.exists()
    res = run_cli("ab", "--resume", tmp_path, "--jfr")
    assert res.code == 2 and "drop --jfr" in res.err
