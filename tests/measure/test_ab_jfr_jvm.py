"""``perfproof ab --jfr`` for real: a JFR recording per fork, read by ``perfproof profile``."""

from __future__ import annotations

import glob
import json
from pathlib import Path

import pytest

TINY_FORKS = "-f 2 -wi 1 -i 1 -w 100ms -r 100ms -jvmArgsAppend '-Xmx256m -Dpp.jfr=on'"
pytestmark = [pytest.mark.jvm, pytest.mark.slow, pytest.mark.timeout(300)]


def manifest(run_dir: Path) -> dict:
    return json.loads((run_dir / "manifest.json").read_text())


def printed(out: str, prefix: str) -> list[str]:
    """The arguments of the command line the run printed that starts with ``prefix``."""
    lines = [ln.strip() for ln in out.splitlines() if ln.strip().startswith(prefix)]
    assert len(lines) == 1, out
    return lines[0].split()[1:]


def shell_glob(args: list[str]) -> list[str]:
    """Expand the arguments the way a shell would for the user."""
    return [m for a in args for m in (sorted(glob.glob(a)) if "*" in a else [a])]


def test_ab_jfr_records_every_fork_and_redoes_a_steps_recordings(ab_env, run_cli, tmp_path):
    run_dir = tmp_path / "run"
    res = run_cli("ab", "--repo", ab_env.repo, "--base", "baseline", "--head", "feature",
                  "--rounds", "1", "--bench", "EventBusBench", "--jmh-args", TINY_FORKS,
                  "--jfr", "--out", run_dir)  # fmt: skip
    assert res.code == 0, res.err

    m = manifest(run_dir)
    assert m["options"]["jfr"] is True and "--jfr" in m["command"]
    assert [s["id"] for s in m["steps"]] == ["01-base", "01-head"]
    for step in m["steps"]:
        folder = f"jfr/r1-{step['side']}"
        assert step["recordings"] == [f"{folder}/fork-1.jfr", f"{folder}/fork-2.jfr"]
        assert sorted(p.name for p in (run_dir / folder).iterdir()) == ["fork-1.jfr", "fork-2.jfr"]
        for rel in step["recordings"]:
            assert (run_dir / rel).read_bytes()[:4] == b"FLR\0"
        # the user's JVM options and the recording reach every fork as separate options
        entries = json.loads((run_dir / step["result"]).read_text())
        assert all({"-Xmx256m", "-Dpp.jfr=on"} <= set(e["jvmArgs"]) for e in entries)
        assert all(any("StartFlightRecording" in a for a in e["jvmArgs"]) for e in entries)
    assert sorted(p.name for p in (run_dir / "jfr").iterdir()) == ["r1-base", "r1-head"]

    one = run_cli("profile", run_dir / "jfr/r1-head/fork-1.jfr", "--format", "json")
    assert one.code == 0, one.err
    doc = json.loads(one.out)
    assert doc["schema"] == "perfproof.profile/1" and (doc["cpu"] or doc["alloc"])

    # the commands the run printed work as printed (globs expanded as a shell would)
    census = run_cli(*printed(res.out, "perfproof profile " + str(run_dir)), "--format", "json")
    assert census.code == 0, census.err
    diff_args = shell_glob(printed(res.out, "perfproof profile diff"))
    assert diff_args[:3] == ["profile", "diff", "--before"] and len(diff_args) == 8
    assert diff_args[-2:] == ["--focus", "perfdemo"]  # the benchmarks' package root
    diff = run_cli(*diff_args, "--format", "json")
    assert diff.code == 0, diff.err
    assert json.loads(diff.out)["schema"] == "perfproof.profile-diff/1"

    # a step run again starts from an empty folder: a dead attempt's file does not survive
    base_bytes = {p.name: p.read_bytes() for p in (run_dir / "jfr/r1-base").iterdir()}
    (run_dir / "jmh/01-head.json").unlink()
    dead = run_dir / "jfr/r1-head/hotspot-pid-1-id-1-2026_01_01_00_00_00.jfr"
    dead.write_bytes(b"FLR\0 dumped by an attempt that never finished")
    again = run_cli("ab", "--resume", run_dir, "--format", "json")
    assert again.code == 0, again.err
    assert "perfproof profile diff --before" in again.err  # json keeps stdout one document
    assert not dead.exists()
    assert sorted(p.name for p in (run_dir / "jfr/r1-head").iterdir()) == [
        "fork-1.jfr",
        "fork-2.jfr",
    ]
    assert {p.name: p.read_bytes() for p in (run_dir / "jfr/r1-base").iterdir()} == base_bytes
    head = manifest(run_dir)["steps"][1]
    assert head["status"] == "done" and len(head["recordings"]) == 2
