"""Runs written before the futility rules were named stopped keys on the conditional power at
the forks' estimate: their report keeps that number as stored and words the stop as that rule,
never as the predictive or equivalence rule that replaced it."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from perfproof.model import PRIMARY
from perfproof.model.diagnostics import SequentialLook
from perfproof.report.digest import why_undecided
from perfproof.report.environment import stopping_text
from perfproof.report.rundir import load_run

RUNS = Path(__file__).parents[1] / "fixtures" / "runs"
OLD = RUNS / "kryo-24-keys-defaults"


def _key(c: dict[str, Any]) -> str:
    return json.dumps([c["benchmark"], c["mode"], c.get("params"), c["metric"]], sort_keys=True)


def _stored_powers(results: Path) -> dict[str, float]:
    doc = json.loads(results.read_text())
    return {
        _key(c): c["diagnostics"]["sequential"]["conditional_power"]
        for c in doc["comparisons"]
        if "conditional_power" in (c.get("diagnostics", {}).get("sequential") or {})
    }


@pytest.mark.parametrize("folder", ["kryo-24-keys-defaults", "demo-feature-vs-baseline"])
def test_report_json_keeps_the_stored_conditional_power(
    folder: str, run_cli: Callable[..., Any], tmp_path: Path
) -> None:
    run = tmp_path / folder
    shutil.copytree(RUNS / folder, run)
    stored = _stored_powers(run / "results.json")
    assert stored, "the fixture stores conditional power"
    out = run_cli("report", run, "--format", "json")
    assert out.code == 0
    compare = json.loads(out.out)["compare"]
    kept = {
        _key(c): c["diagnostics"]["sequential"].get("conditional_power")
        for c in compare["comparisons"]
        if c.get("diagnostics", {}).get("sequential")
    }
    assert {k: kept.get(k) for k in stored} == stored
    assert not any(
        (c.get("diagnostics", {}).get("sequential") or {}).get("predictive_power") is not None
        for c in compare["comparisons"]
    ), "an old run's conditional power is not relabelled as the predictive rule's"


def _look(**fields: Any) -> SequentialLook:
    return replace(SequentialLook(2, decided=True, max_looks=8), futile=True, **fields)


def _comparison_with(look: SequentialLook) -> Any:
    run = load_run(OLD)
    first = run.document.comparisons[0]
    return replace(first, diagnostics=replace(first.diagnostics, sequential=look))


@pytest.mark.parametrize(
    ("fields", "words", "not_words"),
    [
        ({"futility_rule": "equivalence"}, "inside the equivalence margin", "improbable"),
        ({"futility_rule": "predictive"}, "last look had become improbable", "estimate"),
        ({"conditional_power": 0.01}, "improbable were its estimate so far the truth", "margin"),
        ({}, "its rule is not recorded", "improbable"),
    ],
)
def test_a_futility_stop_is_worded_by_the_rule_it_recorded(
    fields: dict[str, Any], words: str, not_words: str
) -> None:
    why = why_undecided(_comparison_with(_look(**fields)), None)
    assert why.startswith("stopped at look 2 without a verdict: ")
    assert words in why and not_words not in why


def test_the_stopping_line_of_an_old_run_names_the_estimate_rule() -> None:
    run = load_run(OLD)
    futile = [
        c
        for c in run.document.comparisons
        if c.key.metric == PRIMARY and c.diagnostics.sequential and c.diagnostics.sequential.futile
    ]
    line = stopping_text(run)
    assert line is not None
    assert line.endswith(
        f"{len(futile)} for futility (no verdict: {len(futile)} whose verdict by the last look "
        "was improbable were its estimate so far the truth)"
    )
    assert "predicted" not in line
