"""``perfproof merge``: shards become one run compared as one family, or a one-line refusal."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from perfproof.compare import CompareOptions, compare_document, compare_specs
from perfproof.measure.shard import Shard
from perfproof.pipeline.merge.run import merge_runs


def _without_machine(doc: dict) -> dict:
    return {k: v for k, v in doc.items() if k != "machine"}


def test_merged_results_equal_compare_over_the_same_forks(kit, tmp_path: Path) -> None:
    shards = kit.write_shards(tmp_path, 3)
    outcome = merge_runs(shards, tmp_path / "merged", write_report=False)
    # the same forks, laid out as two folders of round files, through `compare`
    for side in ("base", "head"):
        folder = tmp_path / side
        folder.mkdir()
        for shard in shards:
            for f in (shard / "jmh").glob(f"*-{side}.json"):
                shutil.copy(f, folder / f"{shard.name}-{f.name}")
    direct = compare_document(
        compare_specs(str(tmp_path / "base"), str(tmp_path / "head"), CompareOptions())
    )
    merged = json.loads((tmp_path / "merged" / "results.json").read_text())
    assert [_without_machine(c) for c in merged["comparisons"]] == direct["comparisons"]
    labels = {(c["benchmark"], c["params"]["n"]) for c in merged["comparisons"]}
    assert labels == {(k.benchmark, k.n) for k in kit.SUITE}
    verdicts = {
        c["benchmark"]: c["verdict"] for c in merged["comparisons"] if c["metric"] == "primary"
    }
    assert verdicts["org.acme.AlphaBench.run"] == "improved"
    assert verdicts["org.acme.GammaBench.run"] == "regressed"
    assert len(outcome.result.comparisons) == len(merged["comparisons"])


def test_every_key_names_the_one_machine_that_measured_it(kit, tmp_path: Path) -> None:
    shards = kit.write_shards(tmp_path, 2)
    merge_runs(shards, tmp_path / "merged", write_report=False)
    merged = json.loads((tmp_path / "merged" / "results.json").read_text())
    manifest = json.loads((tmp_path / "merged" / "manifest.json").read_text())
    by_shard = {s["machine"]["host"]: set(s["keys"]) for s in manifest["shards"]}
    assert set(by_shard) == {"node-1", "node-2"}
    for c in merged["comparisons"]:
        label = kit.SuiteKey(c["benchmark"], c["params"]["n"]).label()
        assert label in by_shard[c["machine"]]
    assert [m["host"] for m in manifest["environment"]["machines"]] == ["node-1", "node-2"]
    # the raw files are all there, each named for its shard
    names = sorted(p.name for p in (tmp_path / "merged" / "jmh").iterdir())
    assert len(names) == 12 and names[0].startswith("s1.") and names[-1].startswith("s2.")
    for step in manifest["steps"]:
        assert (tmp_path / "merged" / step["result"]).is_file()


def test_report_shows_the_machine_of_every_row(kit, tmp_path: Path) -> None:
    outcome = merge_runs(kit.write_shards(tmp_path, 2), tmp_path / "merged")
    report = outcome.report_path.read_text()
    assert "| Machine |" in report
    rows = [line for line in report.splitlines() if line.startswith("| ") and "node-" in line]
    assert len(rows) == len(kit.SUITE)


def test_cli_merge_prints_the_shards_and_their_machines(kit, tmp_path: Path, run_cli) -> None:
    shards = kit.write_shards(tmp_path, 2)
    res = run_cli("merge", *shards, "--out", tmp_path / "m")
    assert res.code == 0, res.err
    assert "1/2 on node-1" in res.out and "2/2 on node-2" in res.out
    assert (tmp_path / "m" / "results.json").is_file()


def _refused(run_cli, tmp_path: Path, *dirs: Path) -> str:
    res = run_cli("merge", *dirs, "--out", tmp_path / "out")
    assert res.code == 2, res.err
    lines = res.err.strip().splitlines()
    assert len(lines) == 1, res.err
    assert not (tmp_path / "out").exists()
    return lines[0]


def test_shards_of_other_commits_are_refused_naming_the_shard(kit, tmp_path: Path, run_cli) -> None:
    one = kit.write_shard(tmp_path / "a", Shard(1, 2))
    two = kit.write_shard(tmp_path / "b", Shard(2, 2), head_sha="c" * 40)
    line = _refused(run_cli, tmp_path, one, two)
    assert "shard 2/2" in line and str(two) in line and "cccccccccccc" in line


def test_other_jmh_settings_are_refused(kit, tmp_path: Path, run_cli) -> None:
    one = kit.write_shard(tmp_path / "a", Shard(1, 2))
    two = kit.write_shard(tmp_path / "b", Shard(2, 2), jmh_options=["-f", "2"])
    assert "shard 2/2" in _refused(run_cli, tmp_path, one, two)


def test_another_partition_is_refused(kit, tmp_path: Path, run_cli) -> None:
    one = kit.write_shard(tmp_path / "a", Shard(1, 2))
    two = kit.write_shard(tmp_path / "b", Shard(2, 3))
    assert "another partition" in _refused(run_cli, tmp_path, one, two)
    three = kit.write_shard(tmp_path / "c", Shard(2, 2), suite=kit.SUITE[:-1])
    assert "shard 2/2" in _refused(run_cli, tmp_path, one, three)


def test_a_missing_shard_is_refused(kit, tmp_path: Path, run_cli) -> None:
    shards = kit.write_shards(tmp_path, 3)
    line = _refused(run_cli, tmp_path, shards[0], shards[2])
    assert "shard 2/3 is missing" in line


def test_a_shard_given_twice_is_refused(kit, tmp_path: Path, run_cli) -> None:
    one = kit.write_shard(tmp_path / "a", Shard(1, 2))
    again = kit.write_shard(tmp_path / "b", Shard(1, 2))
    assert "given twice" in _refused(run_cli, tmp_path, one, again)


def test_a_key_measured_twice_is_refused(kit, tmp_path: Path, run_cli) -> None:
    one = kit.write_shard(tmp_path, Shard(1, 2))
    stray = kit.SUITE[0]  # shard 1's key, measured by shard 2 as well
    two = kit.write_shard(tmp_path / "x", Shard(2, 2), measure=[*kit.SUITE[3:], stray])
    line = _refused(run_cli, tmp_path, one, two)
    assert "shard 2/2" in line and "measured too" in line and stray.benchmark in line


def test_an_unfinished_shard_is_refused_with_its_resume_command(
    kit, tmp_path: Path, run_cli
) -> None:
    one = kit.write_shard(tmp_path, Shard(1, 2))
    two = kit.write_shard(tmp_path / "x", Shard(2, 2), status="interrupted")
    line = _refused(run_cli, tmp_path, one, two)
    assert "not finished" in line and f"--resume {two}" in line


def test_a_run_that_is_no_shard_is_refused(kit, tmp_path: Path, run_cli) -> None:
    one = kit.write_shard(tmp_path, Shard(1, 1))
    manifest = json.loads((one / "manifest.json").read_text())
    del manifest["shard"]
    (one / "manifest.json").write_text(json.dumps(manifest))
    assert "not a shard run" in _refused(run_cli, tmp_path, one)


def test_out_must_be_empty(kit, tmp_path: Path, run_cli) -> None:
    shards = kit.write_shards(tmp_path, 2)
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "x").write_text("keep")
    res = run_cli("merge", *shards, "--out", tmp_path / "out")
    assert res.code == 2 and "not empty" in res.err
    assert (tmp_path / "out" / "x").read_text() == "keep"


@pytest.mark.parametrize("count", [1, 4])
def test_shards_with_more_shards_than_needed_still_merge(kit, tmp_path: Path, count: int) -> None:
    keys = kit.SUITE[:3]
    specs = [Shard(i, count) for i in range(1, count + 1)]
    shards = [kit.write_shard(tmp_path, spec, suite=keys) for spec in specs]
    outcome = merge_runs(shards, tmp_path / "m", write_report=False)
    entries = {c.key.entry() for c in outcome.result.comparisons}
    assert len(entries) == 3
