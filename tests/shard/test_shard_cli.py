"""``ab --shard``/``--executor`` flags refused at the door: exit 2, one line, nothing built."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from perfproof.demo.project import write_demo_repo


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_demo_repo(tmp_path_factory.mktemp("shard-cli") / "repo").path


def _refused(res) -> str:
    assert res.code == 2, (res.code, res.err)
    lines = res.err.strip().splitlines()
    assert len(lines) == 1, res.err
    return lines[0]


@pytest.mark.parametrize(
    "flags,needle",
    [
        (["--shard", "3/2"], "--shard 3/2: I must be between 1 and N"),
        (["--shard", "two"], "--shard two: expected I/N"),
        (["--executor", "ray", "--shard", "1/2"], "--shard"),
        (["--ray-address", "127.0.0.1:1"], "--ray-address needs --executor ray"),
        (["--executor", "ray", "--ray-address", "127.0.0.1:1"], "no Ray cluster answers"),
        (["--executor", "ray", "--jfr"], "--jfr"),
    ],
)
def test_bad_shard_and_executor_flags(run_cli, repo: Path, tmp_path: Path, flags, needle) -> None:
    out = tmp_path / "run"
    res = run_cli("ab", "--repo", repo, "--base", "baseline", "--head", "feature",
                  "--out", out, *flags)  # fmt: skip
    assert needle in _refused(res)
    assert not (out / "logs").exists() or not any((out / "logs").iterdir())  # nothing built


def test_resume_with_another_shard_is_refused(run_cli, tmp_path: Path) -> None:
    run_dir = tmp_path / "run"
    (run_dir / "jmh").mkdir(parents=True)
    manifest = {
        "schema": "perfproof.run/1",
        "status": "interrupted",
        "refs": {"base": {"sha": "a" * 40}, "head": {"sha": "b" * 40}},
        "options": {"base": "a", "head": "b", "shard": "1/2"},
        "plan": {"rounds": 2, "order": "abba", "steps": []},
        "steps": [],
        "shard": {"index": 1, "count": 2, "keys": []},
    }
    (run_dir / "manifest.json").write_text(json.dumps(manifest))
    line = _refused(run_cli("ab", "--resume", run_dir, "--shard", "2/2"))
    assert "holds shard 1/2" in line and str(run_dir) in line
