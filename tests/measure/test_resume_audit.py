"""``ab --resume`` / ``guard --resume`` on a hand-edited or garbled manifest: exit 2, one line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest


@pytest.mark.parametrize(
    ("edit", "said"),
    [({"plan": "x"}, "'plan' is not a JSON object"),
     ({"steps": 7}, "'steps' is not a JSON list"),
     ({"plan": {"steps": "ab"}}, "'plan.steps' is not a JSON list"),
     ({"steps": [1]}, "'steps[0]' is not a JSON object"),
     ({"refs": {"base": "main"}}, "'refs.base' is not a JSON object")],
)  # fmt: skip
def test_misshapen_manifest_is_named(edit, said, run_cli, tmp_path: Path) -> None:
    (tmp_path / "manifest.json").write_text(json.dumps({"schema": "perfproof.run/1", **edit}))
    for verb in ("ab", "guard"):
        res = run_cli(verb, "--resume", tmp_path)
        assert res.code == 2
        assert res.err.splitlines() == [
            f"perfproof: error: --resume {tmp_path}: manifest.json was edited: {said}"
        ]


def test_manifest_that_is_not_utf8_is_unreadable(run_cli, tmp_path: Path) -> None:
    (tmp_path / "manifest.json").write_bytes(b"\xff\xfe{}")
    res = run_cli("ab", "--resume", tmp_path)
    assert res.code == 2
    (line,) = res.err.splitlines()
    assert line.startswith(f"perfproof: error: --resume {tmp_path}: unreadable manifest.json")
