"""``perfproof profile`` flag values that make no sense stop before any work, naming the flag."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any


def test_negative_top_is_a_usage_error(tmp_path: Path, run_cli: Callable[..., Any]) -> None:
    stacks = tmp_path / "cpu.collapsed"
    stacks.write_text("".join(f"a.Main.main;a.B.m{i} {10 + i}\n" for i in range(5)))
    assert run_cli("profile", stacks, "--top", "0").code == 0
    for args in (("profile", stacks), ("profile", "diff", "--before", stacks, "--after", stacks)):
        res = run_cli(*args, "--top", "-1")
        assert res.code == 2, res.out
        assert res.out == ""
        (line,) = res.err.splitlines()
        assert line.startswith("perfproof: error: ") and "--top" in line
