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


def test_bad_bench_regex_is_exit_2_naming_bench_before_any_build(
    ab_env, run_cli, tmp_path: Path
) -> None:
    res = run_cli("ab", "--repo", ab_env.repo, "--base", "baseline", "--head", "feature",
                  "--bench", "[", "--out", tmp_path / "run")  # fmt: skip
    assert res.code == 2 and res.err.count("\n") == 1
    assert "--bench '['" in res.err and "regex" in res.err
    assert not (tmp_path / "run").exists()


def test_round_options_that_contradict_each_other_are_refused(
    ab_env, run_cli, tmp_path: Path
) -> None:
    base = ["ab", "--repo", ab_env.repo, "--base", "baseline", "--head", "feature",
            "--out", tmp_path / "r"]  # fmt: skip
    for extra, culprit in [
        (["--seed", "7"], "--seed only applies to --order random"),
        (["--seed", "7", "--order", "abab"], "--seed only applies to --order random"),
        (["--rounds", "3", "--max-rounds", "5"], "--max-rounds belongs to the sequential"),
        (["--rounds", "3", "--budget", "10m"], "--budget belongs to the sequential"),
        (["--budget", "soon"], "--budget 'soon'"),
        (["--max-rounds", "1"], "--max-rounds must be at least 2"),
        (["--max-rounds", "40"], "--max-rounds 40"),
        (["--jmh-args", "-f 5"], "-f 5 per step"),
        (["--rounds", "3", "--futility", "5%"], "--futility belongs to the sequential"),
        (["--futility", "100%"], "--futility 100%: must be in [0, 1)"),
        (["--futility", "often"], "--futility often: not a number"),
    ]:
        res = run_cli(*base, *extra)
        assert res.code == 2, (extra, res.err)
        assert culprit in res.err and res.err.count("\n") == 1, (extra, res.err)
    assert not (tmp_path / "r").exists()
