"""``e2e --resume`` on a hand-edited manifest: exit 2 and one line, never a traceback."""

from __future__ import annotations

import json
from pathlib import Path

import pytest


@pytest.fixture
def finished_run(run_cli, tmp_path: Path) -> Path:
    runs = tmp_path / "runs"
    sides = ("--base-cmd", "echo took 5 ms", "--head-cmd", "echo took 6 ms")
    res = run_cli("e2e", *sides, "--metric", r"t[ms]=took (\d+) ms", "--runs", "2",
                  "--runs-dir", runs)  # fmt: skip
    assert res.code == 0, res.err
    (run,) = runs.iterdir()
    return run


@pytest.mark.parametrize(
    ("key", "value", "said"),
    [("options", "x", "'options' is not a JSON object"),
     ("options", {"bogus": 1}, "unknown option 'bogus'"),
     ("sides", [], "'sides' does not hold a 'base' and a 'head' object"),
     ("steps", [1], "'steps[0]' is not a JSON object")],
)  # fmt: skip
def test_misshapen_manifest_is_named(finished_run: Path, run_cli, key, value, said) -> None:
    path = finished_run / "manifest.json"
    manifest = json.loads(path.read_text())
    path.write_text(json.dumps({**manifest, key: value}))
    res = run_cli("e2e", "--resume", finished_run, "--format", "json")
    assert res.code == 2 and res.out == ""
    assert res.err.splitlines() == [
        f"perfproof: error: --resume {finished_run}: manifest.json was edited: {said}"
    ]
    path.write_text(json.dumps(manifest))  # put back, it resumes (nothing left to run)
    again = run_cli("e2e", "--resume", finished_run, "--format", "json")
    assert again.code == 0 and json.loads(again.out)["schema"] == "perfproof.e2e/1"


def test_manifest_that_is_not_an_object(run_cli, tmp_path: Path) -> None:
    (tmp_path / "manifest.json").write_text("[1]")
    res = run_cli("e2e", "--resume", tmp_path)
    assert res.code == 2 and "manifest.json is not a perfproof.run/1 manifest" in res.err


def test_folder_of_the_older_e2e_layout_still_resumes(finished_run: Path, run_cli) -> None:
    """Run folders written before e2e used the run store (schema perfproof.e2e-run/1)."""
    path = finished_run / "manifest.json"
    manifest = json.loads(path.read_text())
    steps = [
        {"step": {k: s[k] for k in ("id", "side", "round", "warmup")}, "status": s["status"]}
        for s in manifest["steps"]
    ]
    steps[-1]["status"] = "failed"  # the last run is done again on resume
    legacy = {"schema": "perfproof.e2e-run/1", "kind": "e2e", "options": manifest["options"],
              "command": manifest["command"], "environment": manifest["environment"],
              "sides": manifest["sides"], "steps": steps}  # fmt: skip
    path.write_text(json.dumps(legacy))
    res = run_cli("e2e", "--resume", finished_run, "--format", "json")
    assert res.code == 0, res.err
    assert json.loads(res.out)["metrics"][0]["base"]["n"] == 2
    upgraded = json.loads(path.read_text())
    assert upgraded["schema"] == "perfproof.run/1" and upgraded["kind"] == "e2e"
    assert all(s["status"] == "done" and "step" not in s for s in upgraded["steps"])
