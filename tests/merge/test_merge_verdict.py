"""merge --confidence/--threshold/--family: the merged family judged as asked, and recorded."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from perfproof.compare import CompareOptions, compare_document, compare_specs
from perfproof.model.enums import Family


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
    options = CompareOptions(confidence=0.95, threshold=0.4, family=Family.HOLM)
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


def test_merge_judges_with_the_pinned_threshold_and_says_so(
    kit, tmp_path: Path, run_cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = tmp_path / "r"
    root.mkdir()
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    (root / "perfproof.toml").write_text('# gate\nthreshold = "40%"\n')
    shards = kit.write_shards(tmp_path, 2)
    monkeypatch.chdir(root)
    monkeypatch.delenv("PERFPROOF_THRESHOLD", raising=False)
    out = tmp_path / "merged"
    res = run_cli(
        "merge", *map(str, shards), "--out", out, "--confidence", "95%", "--format", "json"
    )
    assert res.code == 0, res.err
    settings = json.loads(res.out)["settings"]  # as compare --format json says it
    assert settings["threshold"] == {"value": 0.4, "source": f"{root / 'perfproof.toml'}:2"}
    assert settings["confidence"] == {"value": 0.95, "source": "flag"}
    assert "db" not in settings  # merge records into no history database
    options = json.loads((out / "manifest.json").read_text())["options"]
    assert (options["threshold"], options["confidence"]) == (0.4, 0.95)
    assert options["sources"] == {
        "threshold": f"{root / 'perfproof.toml'}:2",
        "confidence": "flag",
    }
    report = (out / "report.md").read_text()
    assert f"threshold 40% ({root / 'perfproof.toml'}:2); confidence 95% (flag)" in report


@pytest.mark.parametrize("threshold", ["50%", "60%", "99%"])
def test_merge_at_a_wide_threshold_writes_every_report(
    kit, tmp_path: Path, run_cli, threshold: str
) -> None:
    """A band of ±50% or wider reaches 0 on the ratio axis: the plot's limits stay positive."""
    shards = kit.write_shards(tmp_path, 2)
    out = tmp_path / "merged"
    res = run_cli("merge", *map(str, shards), "--out", out, "--threshold", threshold)
    assert res.code == 0, res.err
    assert "<svg" in (out / "report.html").read_text()
    for fmt in ("html", "md", "json"):
        again = run_cli("report", out, "--format", fmt)
        assert again.code == 0, again.err


def test_merge_with_a_pinned_wide_threshold_writes_every_report(
    kit, tmp_path: Path, run_cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = tmp_path / "r"
    root.mkdir()
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    (root / "perfproof.toml").write_text('threshold = "60%"\n')
    shards = kit.write_shards(tmp_path, 2)
    monkeypatch.chdir(root)
    monkeypatch.delenv("PERFPROOF_THRESHOLD", raising=False)
    out = tmp_path / "merged"
    res = run_cli("merge", *map(str, shards), "--out", out)
    assert res.code == 0, res.err
    assert "<svg" in (out / "report.html").read_text()
