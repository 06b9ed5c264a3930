"""The guard judged on a run folder made from recorded JMH output with planted effects.

In the recorded run, the feature makes ``fx.Codes.streamEmpty`` twice as fast and allocation
free at n=16 only; n=128 is unchanged. A guard must therefore pass at n=16 and fail the
benchmark as a whole, because it has to discriminate at every @Param.
"""

from __future__ import annotations

import json
import math
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from perfproof.compare import CompareOptions
from perfproof.measure.store import RunStore
from perfproof.model.documents.run import GuardBlock
from perfproof.model.enums import Family, GuardKind
from perfproof.pipeline.ab.run import compare_run
from perfproof.pipeline.guard.judge import GuardSettings, evaluate
from perfproof.pipeline.guard.run import finish_guard


@pytest.fixture
def run_copy(make_run_folder: Callable[[str], Path], tmp_path: Path) -> Path:
    dest = tmp_path / "run"
    shutil.copytree(make_run_folder("ab"), dest)
    return dest


def test_every_param_must_discriminate(run_copy: Path) -> None:
    result = compare_run(
        RunStore.open(run_copy), CompareOptions(confidence=0.99, family=Family.NONE)
    )
    g = evaluate(result, GuardKind.BOTH, 1.5, ["streamEmpty"])
    rows = {(r.params["n"], r.metric): r for r in g.rows}
    assert set(rows) == {("16", "time"), ("16", "alloc"), ("128", "time"), ("128", "alloc")}
    assert rows["16", "time"].passed and rows["16", "time"].ratio == pytest.approx(2.0, rel=0.02)
    assert 1 < rows["16", "time"].ci[0] < 2 < rows["16", "time"].ci[1]
    assert rows["16", "alloc"].passed and math.isinf(rows["16", "alloc"].ratio)
    assert not rows["128", "time"].passed and not rows["128", "alloc"].passed
    assert not g.passed


def test_a_benchmark_with_a_slowdown_fails_a_time_guard(run_copy: Path) -> None:
    result = compare_run(
        RunStore.open(run_copy), CompareOptions(confidence=0.99, family=Family.NONE)
    )
    g = evaluate(result, GuardKind.TIME, 1.05, [r"Codes\.sum"])
    n128 = next(r for r in g.rows if r.params["n"] == "128")
    # the feature is 12% slower: oriented ratio 1/1.12 < 1
    assert n128.ratio == pytest.approx(1 / 1.12, rel=0.02) and not n128.passed


def test_the_guard_kind_is_recorded_in_the_run_folder(run_copy: Path) -> None:
    g = finish_guard(
        run_copy, GuardSettings(GuardKind.ALLOC, 1.5, 0.99), ["perfproof", "guard"], []
    )
    assert not g.passed  # most benchmarks are unchanged
    manifest = json.loads((run_copy / "manifest.json").read_text())
    # the block as perfproof has always written it, entry for entry and in this order
    assert json.dumps(manifest["guard"]) == json.dumps({
        "kind": "alloc", "protects": "the allocation cut (bytes per operation)",
        "min_ratio": 1.5, "confidence": 0.99, "passed": False, "command": ["perfproof", "guard"],
    })  # fmt: skip
    assert GuardBlock.read(manifest["guard"], "guard").dump() == manifest["guard"]
    doc = json.loads((run_copy / "guard.json").read_text())
    assert doc["kind"] == "alloc" and doc["verdict"] == "FAIL"
    assert any(r["benchmark"] == "fx.Codes.streamEmpty" and r["passed"] for r in doc["rows"])


def test_the_recorded_kind_reads_back_as_the_enum_and_a_hand_edit_is_refused(
    run_copy: Path,
) -> None:
    """The manifest's guard kind is the word the flag takes, read back as the ``GuardKind``
    a resumed guard judges by; a word no kind has is refused when the run folder is opened."""
    from perfproof.errors import InputError

    finish_guard(run_copy, GuardSettings(GuardKind.OFFHEAP, 1.5, 0.99), ["perfproof"], [])
    guard = RunStore.open(run_copy).manifest.guard
    assert guard is not None and guard.kind is GuardKind.OFFHEAP
    manifest = json.loads((run_copy / "manifest.json").read_text())
    assert manifest["guard"]["kind"] == "offheap"
    manifest["guard"]["kind"] = "speed"
    (run_copy / "manifest.json").write_text(json.dumps(manifest))
    with pytest.raises(InputError, match=r"'guard\.kind' is not one of time, alloc, both, offheap"):
        RunStore.open(run_copy)
