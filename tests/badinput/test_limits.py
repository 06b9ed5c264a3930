"""Input too large to be what it claims: refused by size before it is read into memory."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from perfproof.jmh.reader import MAX_BYTES


def test_huge_jmh_file_is_refused_before_reading(
    tmp_path: Path, run_cli: Callable[..., Any]
) -> None:
    huge = tmp_path / "huge.json"
    with open(huge, "wb") as fh:
        fh.truncate(MAX_BYTES + 1)  # sparse: no disk used, nothing read
    head = tmp_path / "h.json"
    head.write_text("[]")
    res = run_cli("compare", huge, head)
    assert res.code == 2
    assert res.err.startswith(f"perfproof: error: {huge}: 1.0 GiB is too large")
