"""Each option's text is parsed once a run, at the door: counted while the CLI really runs.

The run through measurement (``ab`` with a budget, a shard and JMH options) is in
``tests/measure/test_parsed_once_jvm.py``; here the verbs that need no build.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest


def _twice(calls: dict[tuple[str, str], int]) -> dict[tuple[str, str], int]:
    return {call: n for call, n in calls.items() if n > 1}


def test_compare_parses_each_fraction_once(run_cli, parser_calls, fixtures_dir, monkeypatch):
    rounds = fixtures_dir / "jmh" / "rounds-wi1-100ms"
    monkeypatch.setenv("PERFPROOF_CONFIDENCE", "95%")
    res = run_cli("compare", rounds / "1-base.json", rounds / "1-head.json",
                  "--threshold", "2%", "--format", "json")  # fmt: skip
    assert res.code == 0, res.err
    assert parser_calls[("parse_fraction", repr(("--threshold", "2%")))] == 1
    assert parser_calls[("parse_fraction", repr(("PERFPROOF_CONFIDENCE", "95%")))] == 1
    assert _twice(parser_calls) == {}


@pytest.fixture
def two_commits(tmp_path: Path) -> Path:
    repo = tmp_path / "repo"
    repo.mkdir()
    env = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@x", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@x", "GIT_CONFIG_GLOBAL": "/dev/null",
           "GIT_CONFIG_NOSYSTEM": "1", "PATH": "/usr/bin:/bin"}  # fmt: skip
    for args in (["init", "-q", "-b", "main"], ["commit", "-q", "--allow-empty", "-m", "a"],
                 ["tag", "a"], ["commit", "-q", "--allow-empty", "-m", "b"]):  # fmt: skip
        subprocess.run(["git", "-c", "commit.gpgsign=false", *args], cwd=repo, env=env,
                       check=True)  # fmt: skip
    return repo


def test_ab_parses_each_setting_once_at_the_door(run_cli, parser_calls, two_commits):
    """A pinned budget, a flag's shard and JMH options, up to the first thing that needs the
    machine (the java to run): every text read once, JMH's settings once."""
    (two_commits / "perfproof.toml").write_text('budget = "20m"\njmh-args = "-wi 1 -i 2"\n')
    res = run_cli("ab", "--repo", two_commits, "--base", "a", "--head", "HEAD",
                  "--shard", "1/2", "--java", two_commits / "no-such-java")  # fmt: skip
    assert res.code == 2 and "no-such-java" in res.err, res.err
    assert parser_calls[("parse_budget", repr(("20m",)))] == 1
    assert parser_calls[("parse_shard", repr(("1/2",)))] == 1
    assert parser_calls[("parse_jmh_args", repr(("-wi 1 -i 2",)))] == 1
    assert sum(n for (name, _), n in parser_calls.items() if name == "parse_settings") == 1
    assert _twice(parser_calls) == {}
