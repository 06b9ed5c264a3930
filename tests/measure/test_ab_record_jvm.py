"""``ab --record --machine``: the name goes from the flag through the run's options into the
history, and a resumed run keeps it."""

from __future__ import annotations

import json
import sqlite3

import pytest

TINY = "-wi 1 -w 100ms -i 2 -r 100ms"
pytestmark = [pytest.mark.jvm, pytest.mark.slow, pytest.mark.timeout(300)]


def test_ab_record_files_the_run_under_its_machine(ab_env, run_cli, tmp_path, monkeypatch):
    monkeypatch.setenv("PERFPROOF_MACHINE", "the-variable")  # the flag beats it
    db, run_dir = tmp_path / "h.sqlite", tmp_path / "run"
    res = run_cli("ab", "--repo", ab_env.repo, "--base", "baseline", "--head", "feature",
                  "--rounds", "1", "--bench", "EventBusBench", "--jmh-args", TINY,
                  "--out", run_dir, "--record", "--db", db, "--machine", "ci-large")  # fmt: skip
    assert res.code == 0, res.err
    manifest = json.loads((run_dir / "manifest.json").read_text())
    assert manifest["options"]["machine"] == "ci-large"
    assert "on ci-large in" in res.err
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT machine_name FROM runs").fetchall() == [("ci-large",)]
    again = run_cli("ab", "--resume", run_dir, "--machine", "ci-small")
    assert again.code == 2 and "--machine" in again.err
