"""Done-when: two shards of the demo plus ``merge`` give the keys and fork counts of one
unsharded run, and no key's forks come from two shards."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from perfproof.demo.project import write_demo_repo

TINY = "-f 1 -wi 1 -w 100ms -i 2 -r 100ms"
pytestmark = [pytest.mark.jvm, pytest.mark.slow, pytest.mark.timeout(600)]


def entries(path: Path) -> set[tuple[str, str]]:
    return {(e["benchmark"], json.dumps(e.get("params") or {}, sort_keys=True))
            for e in json.loads(path.read_text())}  # fmt: skip


def test_two_shards_merged_equal_one_run(run_cli, tmp_path_factory, monkeypatch) -> None:
    root = tmp_path_factory.mktemp("shards")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path_factory.getbasetemp() / "perfproof-cache"))
    repo = write_demo_repo(root / "repo").path
    common = ["ab", "--repo", repo, "--base", "baseline", "--head", "feature",
              "--rounds", "2", "--jmh-args", TINY, "--format", "json"]  # fmt: skip
    runs = {}
    for name, extra in (("s1", ["--shard", "1/2"]), ("s2", ["--shard", "2/2"]), ("all", [])):
        res = run_cli(*common, "--out", root / name, *extra)
        assert res.code == 0, res.err
        runs[name] = json.loads(res.out)
    shard_keys = [
        json.loads((root / s / "manifest.json").read_text())["shard"] for s in ("s1", "s2")
    ]
    assert shard_keys[0]["all_keys"] == shard_keys[1]["all_keys"]
    assert len(shard_keys[0]["keys"]) == len(shard_keys[1]["keys"]) == 1
    assert shard_keys[0]["digest"] == shard_keys[1]["digest"]

    res = run_cli("merge", root / "s1", root / "s2", "--out", root / "merged", "--format", "json")
    assert res.code == 0, res.err
    merged = json.loads(res.out)

    def shape(doc: dict) -> dict:
        return {(c["benchmark"], c["metric"]): (c["base"]["forks"], c["head"]["forks"])
                for c in doc["comparisons"]}  # fmt: skip

    assert shape(merged) == shape(runs["all"])
    assert all(forks == (2, 2) for forks in shape(merged).values())
    # every key's forks, both sides, come from exactly one shard's raw files (one machine)
    owners: dict[tuple[str, str], set[str]] = {}
    for shard in ("s1", "s2"):
        for raw in (root / shard / "jmh").glob("*.json"):
            for entry in entries(raw):
                owners.setdefault(entry, set()).add(shard)
    assert owners and all(len(s) == 1 for s in owners.values())
    manifest = json.loads((root / "merged" / "manifest.json").read_text())
    assert [s["index"] for s in manifest["shards"]] == [1, 2]
    for c in merged["comparisons"]:
        assert c["machine"] == manifest["shards"][0]["machine"]["host"]
    # the merged run folder renders like any run
    assert (root / "merged" / "report.md").is_file()
