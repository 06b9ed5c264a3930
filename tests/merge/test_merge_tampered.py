"""Shard folders edited or damaged after they finished: refused naming the shard and field,
never merged with keys (regressions among them) silently left out."""

from __future__ import annotations

import json
from pathlib import Path

import pytest


def _edit(shard: Path, change) -> None:
    path = shard / "manifest.json"
    doc = json.loads(path.read_text())
    change(doc)
    path.write_text(json.dumps(doc))


def _refused(run_cli, tmp_path: Path, shards: list[Path]) -> str:
    res = run_cli("merge", *shards, "--out", tmp_path / "out")
    assert res.code == 2, (res.out, res.err)
    (line,) = res.err.strip().splitlines()
    assert not (tmp_path / "out").exists()
    return line


def _drop_file(shard: Path) -> str:
    doc = json.loads((shard / "manifest.json").read_text())
    step = next(s for s in doc["steps"] if s.get("status") == "done" and s.get("result"))
    (shard / step["result"]).unlink()
    return step["result"]


@pytest.mark.parametrize(
    ("edit", "field"),
    [
        (lambda d: d.__setitem__("steps", "all of them"), "'steps' is not a JSON list"),
        (lambda d: d["steps"].__setitem__(0, "done"), "'steps[0]' is not a JSON object"),
        (lambda d: d["shard"].__setitem__("keys", d["shard"]["keys"][:-1]), "shard.keys"),
        (
            lambda d: d["shard"].__setitem__("keys", "everything"),
            "'shard.keys' is not a list of strings",
        ),
    ],
    ids=["steps-a-string", "step-a-string", "keys-cut-short", "keys-a-string"],
)
def test_an_edited_shard_manifest_is_refused(kit, tmp_path: Path, run_cli, edit, field) -> None:
    shards = kit.write_shards(tmp_path, 2)
    _edit(shards[1], edit)
    line = _refused(run_cli, tmp_path, shards)
    assert field in line


def test_a_finished_step_whose_raw_file_is_gone_is_refused(kit, tmp_path: Path, run_cli) -> None:
    shards = kit.write_shards(tmp_path, 2)
    gone = _drop_file(shards[0])
    line = _refused(run_cli, tmp_path, shards)
    assert str(shards[0].resolve()) in line and gone in line and "missing" in line


def test_merged_report_counts_forks_per_key_and_side(kit, tmp_path: Path, run_cli) -> None:
    shards = kit.write_shards(tmp_path, 2)
    res = run_cli("merge", *shards, "--out", tmp_path / "m")
    assert res.code == 0, res.err
    doc = json.loads((tmp_path / "m" / "results.json").read_text())
    forks = {c["base"]["forks"] for c in doc["comparisons"] if c["metric"] == "primary"}
    (per_key,) = forks
    report = (tmp_path / "m" / "report.md").read_text()
    assert f"{per_key} per benchmark on the baseline" in report


def test_resuming_a_merged_run_says_what_it_is(kit, tmp_path: Path, run_cli) -> None:
    shards = kit.write_shards(tmp_path, 2)
    assert run_cli("merge", *shards, "--out", tmp_path / "m").code == 0
    res = run_cli("ab", "--resume", tmp_path / "m")
    assert res.code == 2, (res.out, res.err)
    (line,) = res.err.strip().splitlines()
    assert "merged" in line and "git repository" not in line


def test_shards_filed_under_other_machine_names_are_refused(kit, tmp_path: Path, run_cli) -> None:
    shards = kit.write_shards(tmp_path, 2)
    for shard in shards:
        _edit(shard, lambda doc: doc["options"].update(machine="ci-large"))
    assert run_cli("merge", *shards, "--out", tmp_path / "same").code == 0
    _edit(shards[1], lambda doc: doc["options"].update(machine="ci-small"))
    line = _refused(run_cli, tmp_path, shards)
    assert "shard 2/2" in line and "ci-small" in line and "ci-large" in line
    assert "one --machine name" in line
