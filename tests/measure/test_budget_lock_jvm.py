"""``--budget`` counts the time JMH runs, not the time spent waiting for another JMH's lock.

Another process's real JMH (the demo's benchmark jar, one long iteration) holds
``/tmp/jmh.lock`` for longer than the whole budget while ``ab --budget`` starts: the run waits,
shows the holder live, and then still measures the rounds its budget buys on a quiet machine.
Charged with the wait it would have stopped after its first round. Every JVM of the test gets
its own ``java.io.tmpdir`` (``JAVA_TOOL_OPTIONS``), so the lock and the queue are the test's
alone and other JMH runs on the machine neither delay it nor are delayed by it.
"""

from __future__ import annotations

import json
import subprocess
import time
from pathlib import Path

import pytest

from perfproof.measure.lock import lock_path_for, probe

pytestmark = [pytest.mark.jvm, pytest.mark.slow, pytest.mark.timeout(600)]

TINY2 = "-f 2 -wi 1 -w 100ms -i 2 -r 100ms"
BENCH = "EventBusBench.publishNoListeners"
HOLD_S = 60


def manifest(run_dir: Path) -> dict:
    return json.loads((run_dir / "manifest.json").read_text())


def _jmh_holding_the_lock(launcher: list[str]) -> subprocess.Popen:
    """A real JMH run of one 60 s iteration: its host JVM holds the lock from start to exit."""
    holder = subprocess.Popen([*launcher, BENCH, "-f", "1", "-wi", "0", "-i", "1",
                               "-r", f"{HOLD_S}s"], stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL)  # fmt: skip
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        state = probe(lock_path_for())
        if state.held and state.pid == holder.pid:
            return holder
        if holder.poll() is not None:
            break
        time.sleep(0.2)
    holder.kill()
    holder.wait()
    raise AssertionError("the holder JMH never took its lock")


def _built_launchers(repo: Path, logs: Path) -> dict[str, list[str]]:
    """Both commits built into perfproof's cache (``ab`` below then takes them from it, so no
    build eats into the lock wait), and the command that starts JMH from each."""
    from perfproof.env.cache import cache_root
    from perfproof.workspace.build import build
    from perfproof.workspace.git import resolve_ref
    from perfproof.workspace.spec import BuildSpec
    from perfproof.workspace.worktree import ensure_worktree

    cache, out = cache_root(), {}
    for ref in ("baseline", "feature"):
        tree = ensure_worktree(repo, resolve_ref(repo, ref), cache)
        built = build(tree, BuildSpec(), cache_dir=cache, log_path=logs / f"build-{ref}.log")
        out[ref] = built.jmh_argv("java")
    return out


def test_a_budget_shorter_than_the_lock_wait_still_buys_its_rounds(
    ab_env, run_cli, tmp_path, monkeypatch
):
    private = tmp_path / "jvm-tmp"
    private.mkdir()
    monkeypatch.setenv("JAVA_TOOL_OPTIONS", f"-Djava.io.tmpdir={private}")
    args = ["--repo", ab_env.repo, "--base", "baseline", "--head", "feature", "--bench", BENCH]
    launcher = _built_launchers(ab_env.repo, tmp_path)["baseline"]

    holder = _jmh_holding_the_lock(launcher)
    try:
        run_dir = tmp_path / "run"
        res = run_cli("ab", *args, "--max-rounds", "3", "--budget", "45s", "--jmh-args", TINY2,
                      "--lock-timeout", "300", "--out", run_dir)  # fmt: skip
    finally:
        holder.kill()
        holder.wait()
    assert res.code == 0, res.err
    m = manifest(run_dir)
    steps = [s for s in m["steps"] if s["status"] == "done"]
    assert all(b["cached"] for b in m["builds"]), m["builds"]  # the wait was all lock
    waited = steps[0]["lock_wait_s"]
    assert waited > 30, steps[0]
    assert f"pid {holder.pid} (java" in steps[0]["lock_holders"][0]
    # the live line named the holder and how long this step had waited
    assert f"held by pid {holder.pid} (java" in res.err and "(not charged to --budget)" in res.err
    # the wait alone is longer than the budget, yet the run got to its first look (round 2)
    assert max(s["round"] for s in steps) >= 2, res.err
    assert m["stopping"]["looks"] >= 1
    assert sum(s["jmh_seconds"] for s in steps) <= 45 + 15  # the budget held for JMH's time
    report = (run_dir / "report.md").read_text()
    assert "waiting for the JMH lock, not counted" in report
