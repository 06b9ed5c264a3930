"""Metrics that are zero or negative, and inputs found bad after the run folder would exist.

A log ratio needs positive values; e2e metrics read from a program's output need not be. The
answer must then keep the direction of the change (never "improved" for a lower-is-better
metric that went up) and never end in a traceback.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from perfproof.measure.store import RunStore
from perfproof.model import Direction, Verdict
from perfproof.stats.end_to_end import analyse_metric


def _e2e(run_cli, tmp_path: Path, base: str, head: str, *extra: str):
    return run_cli("e2e", "--base-cmd", f"echo t={base}", "--head-cmd", f"echo t={head}",
                   "--metric", "t=t=(-?[0-9.]+)", "--runs", "3",
                   "--runs-dir", str(tmp_path / "runs"), *extra)  # fmt: skip


def test_negative_values_that_went_up_are_a_regression(run_cli, tmp_path: Path) -> None:
    res = _e2e(run_cli, tmp_path, "-5", "-3", "--format", "json")
    assert res.code == 0, res.err
    (m,) = json.loads(res.out)["metrics"]
    # -5 → -3 is 2 units up, 40% of the baseline's magnitude: worse when lower is better
    assert m["verdict"] == "regressed"
    assert m["delta_pct"] == pytest.approx(40.0)
    assert m["diff"]["value"] == pytest.approx(2.0)
    assert any("<= 0" in w for w in m["warnings"])
    better = _e2e(run_cli, tmp_path, "-5", "-3", "--higher-is-better", "t", "--format", "json")
    assert json.loads(better.out)["metrics"][0]["verdict"] == "improved"


def test_zero_baseline_gives_a_verdict_on_the_difference(run_cli, tmp_path: Path) -> None:
    res = run_cli("e2e", "--base-cmd", "echo t=0", "--head-cmd", "echo t=1",
                  "--metric", "t=t=([0-9.]+)", "--runs", "3",
                  "--runs-dir", str(tmp_path / "runs"))  # fmt: skip
    assert res.code == 0, res.err
    assert "Traceback" not in res.err
    assert "→ regressed" in res.out and "difference 1 [1, 1]" in res.out
    assert "baseline mean is 0" in res.out
    doc = json.loads((next((tmp_path / "runs").iterdir()) / "results.json").read_text())
    (m,) = doc["metrics"]
    assert m["delta_pct"] is None and m["ratio"] is None and m["verdict"] == "regressed"


def test_difference_verdict_needs_an_interval_that_excludes_zero() -> None:
    noisy = analyse_metric("t", "", Direction.LOWER, [-1.0, 1.0, 0.0], [-0.5, 1.5, 0.5], [],
                           confidence=0.99, threshold=0.01)  # fmt: skip
    assert noisy.verdict is Verdict.INCONCLUSIVE and math.isnan(noisy.ratio)
    assert noisy.mde_pct is None and noisy.runs_needed is None


def test_baseline_whose_interval_spans_zero_gives_no_percentage() -> None:
    """A mean of 0.04 whose interval runs from -0.6 to +0.7: dividing by it printed
    +31,510 % [+30,431, +32,590] before; there is no percentage of such a baseline."""
    m = analyse_metric("t", "", Direction.LOWER, [-0.2, 0.3, 0.01], [11.0, 12.0, 11.5], [],
                       confidence=0.99, threshold=0.01)  # fmt: skip
    assert math.isnan(m.ratio) and math.isnan(m.delta_pct)
    assert all(math.isnan(x) for x in m.delta_ci)
    assert m.verdict is Verdict.REGRESSED  # the difference of means excludes 0, upwards
    assert any("includes 0" in w for w in m.warnings)
    # a baseline far from 0 keeps its percentage
    far = analyse_metric("t", "", Direction.LOWER, [-5.0, -5.1, -4.9], [-3.0, -3.1, -2.9], [],
                         confidence=0.99, threshold=0.01)  # fmt: skip
    assert far.delta_pct == pytest.approx(40.0, abs=0.5)


def test_target_effect_must_be_positive(run_cli, tmp_path: Path) -> None:
    for value in ("0", "-3", "inf"):
        res = _e2e(run_cli, tmp_path, "1", "1", "--target-effect", value)
        assert res.code == 2 and f"--target-effect {value}: must be a percentage > 0" in res.err
    assert not (tmp_path / "runs").exists()


def test_missing_program_leaves_no_folder_and_no_resume_hint(run_cli, tmp_path: Path) -> None:
    runs = str(tmp_path / "runs")
    res = run_cli("e2e", "--base-cmd", "no-such-program-xyz 1", "--head-cmd", "echo t=1",
                  "--metric", "t=t=(1)", "--runs", "2", "--runs-dir", runs)  # fmt: skip
    assert res.code == 2
    (line,) = res.err.splitlines()
    assert "base command: program not found or not executable: no-such-program-xyz" in line
    assert not (tmp_path / "runs").exists() or not any((tmp_path / "runs").iterdir())


def test_program_that_fails_to_start_later_removes_the_unused_folder(
    run_cli, tmp_path: Path
) -> None:
    # passes the check (it exists) but cannot be executed by the kernel: found at the first run
    script = tmp_path / "bad.sh"
    script.write_text("#!/no/such/interpreter\n")
    script.chmod(0o755)
    runs = str(tmp_path / "runs")
    res = run_cli("e2e", "--base-cmd", str(script), "--head-cmd", "echo t=1",
                  "--metric", "t=t=(1)", "--runs", "2", "--runs-dir", runs)  # fmt: skip
    assert res.code == 2 and "--resume" not in res.err
    assert not any((tmp_path / "runs").iterdir())


def test_e2e_folder_is_a_run_store_folder_of_kind_e2e(run_cli, tmp_path: Path) -> None:
    res = _e2e(run_cli, tmp_path, "2", "2")
    assert res.code == 0, res.err
    run = next((tmp_path / "runs").iterdir())
    manifest = json.loads((run / "manifest.json").read_text())
    assert manifest["schema"] == "perfproof.run/1" and manifest["kind"] == "e2e"
    assert manifest["status"] == "done" and manifest["environment"]["load_after"] is not None
    assert RunStore.open(run, kind="e2e").manifest.id == run.name
    # an e2e folder is not resumed by ab or guard, and the message says which verb resumes it
    for verb in ("ab", "guard"):
        refused = run_cli(verb, "--resume", run)
        assert refused.code == 2 and "perfproof e2e --resume" in refused.err
