"""``perfproof report`` on hand-edited results and unwritable output paths: one line, exit 2."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest


@pytest.fixture
def copy_of(tmp_path: Path, make_run_folder: Callable[[str], Path]) -> Callable[[str], Path]:
    """A private copy of a fixture run folder, free to edit."""
    return lambda kind: Path(shutil.copytree(make_run_folder(kind), tmp_path / "run"))


def test_comparison_without_its_fields_is_named_not_a_traceback(
    run_cli: Callable[..., Any], copy_of: Callable[[str], Path]
) -> None:
    run = copy_of("compare")
    doc = json.loads((run / "results.json").read_text())
    for comparison in doc["comparisons"]:
        del comparison["mode"]
    (run / "results.json").write_text(json.dumps(doc))
    for fmt in ("md", "html", "json"):
        res = run_cli("report", run, "--format", fmt)
        assert res.code == 2, res.err
        expected = f"{run / 'results.json'}: comparisons[0].mode: missing"
        assert res.err == f"perfproof: error: {expected}\n"


def test_unwritable_out_names_the_file(
    tmp_path: Path, run_cli: Callable[..., Any], make_run_folder: Callable[[str], Path]
) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("x")
    out = blocker / "report.md"  # a file where a folder should be
    res = run_cli("report", make_run_folder("compare"), "--out", out)
    assert res.code == 2
    (line,) = res.err.splitlines()
    assert line == f"perfproof: error: --out {out}: {blocker} is a file, not a folder"
    assert res.out == ""


def test_hand_edited_manifest_of_the_wrong_shape_is_exit_2_naming_the_folder(
    run_cli: Callable[..., Any], copy_of: Callable[[str], Path]
) -> None:
    run = copy_of("ab")
    manifest = json.loads((run / "manifest.json").read_text())
    steps = manifest["steps"]
    for key, bad, named in (
        ("plan", "x", "'plan' is not a JSON object"),
        ("plan", 7, "'plan' is not a JSON object"),
        ("plan", {**manifest["plan"], "rounds": "two"}, "'plan.rounds' is not a whole number"),
        ("steps", [{**steps[0], "argv": "java -jar"}], "'steps[0].argv' is not a JSON list"),
        ("steps", [{**steps[0], "round": True}], "'steps[0].round' is not a whole number"),
        ("builds", [{"side": "base", "cached": "yes"}], "'builds[0].cached' is not true or"),
        ("stopping", {"keys": "all"}, "'stopping.keys' is not a JSON list"),
        ("stopping", {"keys": ["k"]}, "'stopping.keys[0]' is not a JSON object"),
        ("refs", {"base": "main"}, "'refs.base' is not a JSON object"),
        ("overlay", {"files": "A.java"}, "'overlay.files' is not a list of strings"),
        ("command", "perfproof ab", "'command' is not a list of strings"),
    ):
        edited = {**manifest, key: bad}
        (run / "manifest.json").write_text(json.dumps(edited))
        for fmt in ("md", "html", "json"):
            res = run_cli("report", run, "--format", fmt)
            assert res.code == 2, (key, fmt, res.err)
            (line,) = res.err.splitlines()
            assert line.startswith(f"perfproof: error: {run / 'manifest.json'}: {named}"), line
    (run / "manifest.json").write_text(json.dumps(manifest))
    assert run_cli("report", run).code == 0
