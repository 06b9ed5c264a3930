"""``perfproof check`` on the one-line summary perfproof's own report writes."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from perfproof.audit.check import check_text
from perfproof.report.rundir import load_run


def test_time_delta_followed_by_a_bytes_clause_is_checked_as_time(
    make_run_folder: Callable[[str], Path],
) -> None:
    run = make_run_folder("ab")
    doc = json.loads((run / "results.json").read_text())
    time = next(
        c
        for c in doc["comparisons"]
        if c["benchmark"] == "fx.Codes.streamEmpty"
        and c["params"] == {"n": "16"}
        and c["metric"] == "primary"
    )
    lo, hi = time["delta_ci_pct"]
    line = (
        f"Feature vs baseline: improved Codes.streamEmpty n=16 {time['delta_pct']:.1f}% "
        f"[{lo:.1f}, {hi:.1f}]; bytes/op Codes.streamEmpty n=16 4,736 → 0 B/op (-100.0%)"
    )
    result = check_text(line, load_run(run))
    assert result.mismatches == [], [m.message for m in result.mismatches]
    assert result.checked >= 3
    wrong = line.replace(f"{time['delta_pct']:.1f}%", "-20.0%", 1)
    assert [m.kind for m in check_text(wrong, load_run(run)).mismatches] == ["delta"]
