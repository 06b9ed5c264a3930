"""``perfproof compare`` names a bad --threshold as typed, before reading any input."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any


def test_threshold_out_of_range_is_named_as_typed(
    fixtures_dir: Path, run_cli: Callable[..., Any], tmp_path: Path
) -> None:
    good = fixtures_dir / "jmh" / "jmh-1.37-allmodes-gc.json"
    for typed in ("1000%", "-1", "100%"):
        res = run_cli("compare", good, good, "--threshold", typed)
        assert res.code == 2
        expected = f"--threshold {typed}: must be in [0, 1), e.g. 1% or 0.01"
        assert res.err == f"perfproof: error: {expected}\n"
    # the flag is judged before the files are read
    res = run_cli("compare", tmp_path / "missing.json", good, "--threshold", "1000%")
    assert res.code == 2 and "--threshold 1000%" in res.err
