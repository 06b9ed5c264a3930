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


def test_folder_of_the_retired_e2e_layout_is_refused(finished_run: Path, run_cli) -> None:
    """Run folders written before e2e used the run store (schema perfproof.e2e-run/1) are no
    longer read: resuming one is exit 2 naming the manifest, and the folder is left as it was."""
    path = finished_run / "manifest.json"
    manifest = json.loads(path.read_text())
    legacy = json.dumps({**manifest, "schema": "perfproof.e2e-run/1"})
    path.write_text(legacy)
    res = run_cli("e2e", "--resume", finished_run, "--format", "json")
    assert res.code == 2 and "manifest.json" in res.err, res.err
    assert len(res.err.strip().splitlines()) == 1
    assert path.read_text() == legacy
