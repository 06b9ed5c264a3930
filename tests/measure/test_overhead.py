"""Splitting a run's wall time into builds, JMH, lock waits and perfproof's own share."""

from __future__ import annotations

import pytest

from perfproof.model.documents.run import RunManifest
from perfproof.pipeline.ab.run import overhead_seconds


def test_overhead_is_what_builds_jmh_and_lock_waits_do_not_explain() -> None:
    manifest = RunManifest(
        builds=[{"duration_s": 20.0}, {"duration_s": 0.0, "cached": True}],
        steps=[
            {"jmh_seconds": 30.0, "lock_wait_s": 5.0},
            {"jmh_seconds": 40.0, "lock_wait_s": 0.0},
            {"status": "pending"},
        ],
    )
    figures = overhead_seconds(manifest, 100.0)
    assert figures["build_s"] == 20.0 and figures["jmh_s"] == 70.0
    assert figures["lock_wait_s"] == 5.0
    assert figures["perfproof_s"] == pytest.approx(5.0)
    assert figures["perfproof_share"] == pytest.approx(0.05)
    assert overhead_seconds(RunManifest(), 0.0)["perfproof_share"] == 0.0
