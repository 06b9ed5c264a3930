"""``benchmarks/output_drift.py``'s own rules, without running perfproof: which fixture folders it
sets side by side, and the clock it writes as a placeholder."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import output_drift

TESTS = Path(__file__).resolve().parent


def test_each_run_folder_once_and_no_folder_that_only_has_the_name() -> None:
    folders = {
        f.path.relative_to(TESTS).as_posix(): f for f in output_drift.run_folders([TESTS], [])
    }
    assert "fixtures/runs/kryo-24-keys-defaults" in folders
    bundle = folders["fixtures/prove/demo-bundle"]
    assert bundle.run == "ab" and bundle.sides == ("ab/jmh/*base.json", "ab/jmh/*head.json")
    assert "fixtures/prove/demo-bundle/ab" not in folders  # the bundle stands for its A/B
    assert not any("java" in name for name in folders)  # a Java package named jmh holds no run
    assert folders["fixtures/runs/kryo-merged"].sides is not None


def test_a_time_of_the_drift_run_is_its_clock_and_any_other_is_data() -> None:
    start = datetime(2026, 12, 3, 17, 0, tzinfo=UTC)
    end = datetime(2026, 12, 3, 17, 30, tzinfo=UTC)
    text = '"time": "2026-12-03T17:05:38Z", 2026-12-03 17:25:35 +0000, "2026-11-27T10:00:00Z"'
    assert output_drift.without_clock(text, start, end) == (
        '"time": "<now>", <now>, "2026-11-27T10:00:00Z"'
    )
