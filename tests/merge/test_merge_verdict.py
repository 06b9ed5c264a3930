"""merge --confidence/--threshold/--family: the merged family judged as asked, and recorded."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from perfproof.compare import CompareOptions, compare_document, compare_specs


def _direct(shards: list[Path], tmp_path: Path, options: CompareOptions) -> list[dict]:
    for side in ("base", "head"):
        folder = tmp_path / side
        folder.mkdir(exist_ok=True)
        for shard in shards:
            for f in (shard / "jmh").glob(f"*-{side}.json"):
                shutil.copy(f, folder / f"{shard.name}-{f.name}")
    doc = compare_document(compare_specs(str(tmp_path / "base"), str(tmp_path / "head"), options))
    return doc["comparisons"]


def test_merge_judges_with_the_settings_given(kit, tmp_path: Path, run_cli) -> None:
    shards = kit.write_shards(tmp_path, 3)
    out = tmp_path / "merged"
    args = ["--threshold", "40%", "--confidence", "95%", "--family", "holm"]
    res = run_cli("merge", *map(str, shards), "--out", str(out), *args, "--format", "json")
    assert res.code == 0, res.err
    options = CompareOptions(confidence=0.95, threshold=0.4, family="holm")
    merged = json.loads((out / "results.json").read_text())
    direct = _direct(shards, tmp_path, options)
    assert [{k: v for k, v in c.items() if k != "machine"} for c in merged["comparisons"]] == (
        direct
    )
    (tmp_path / "defaults").mkdir()
    default = _direct(shards, tmp_path / "defaults", CompareOptions())
    assert [c["verdict"] for c in direct] != [c["verdict"] for c in default]
    recorded = json.loads((out / "manifest.json").read_text())["options"]
    assert (recorded["confidence"], recorded["threshold"], recorded["family"]) == (
        0.95,
        0.4,
        "holm",
    )


def test_merge_refuses_a_bad_setting_before_writing(kit, tmp_path: Path, run_cli) -> None:
    shards = kit.write_shards(tmp_path, 2)
    out = tmp_path / "merged"
    res = run_cli("merge", *map(str, shards), "--out", str(out), "--confidence", "1.5")
    assert res.code == 2 and "--confidence" in res.err
    assert not out.exists()
