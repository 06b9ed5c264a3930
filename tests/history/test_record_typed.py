"""A history record holds typed blocks: the host facts and the compare document's rows."""

from __future__ import annotations

import json

import pytest

from perfproof.errors import InputError
from perfproof.history.records import comparison_rows, machine_facts
from perfproof.model.documents.run import Environment
from perfproof.model.enums import Verdict

ROW = {
    "benchmark": "fx.Codes.sum",
    "mode": "avgt",
    "params": {"n": "16"},
    "metric": "primary",
    "base": {"estimate": 10.0, "ci": [9.0, 11.0], "forks": 3, "iterations": 5},
    "head": {"estimate": 8.0, "ci": [7.5, 8.5], "forks": 3, "iterations": 5},
    "ratio": 0.8,
    "ratio_ci": [0.7, 0.9],
    "verdict": "improved",
    "machine": "ci-large",
}


def test_rows_are_typed_and_keep_another_writers_fields() -> None:
    (row,) = comparison_rows([ROW], "results.json")
    assert row.verdict is Verdict.IMPROVED and row.params == {"n": "16"}
    assert row.model_dump(mode="json")["machine"] == "ci-large"  # merge's field, kept


def test_a_wrong_row_is_bad_input_naming_the_field() -> None:
    with pytest.raises(
        InputError, match=r"^results\.json: comparisons\[1\]\.verdict: expected one of"
    ):
        comparison_rows([ROW, {**ROW, "verdict": "better"}], "results.json")
    with pytest.raises(InputError, match=r"comparisons\[0\]\.base: missing"):
        comparison_rows([{k: v for k, v in ROW.items() if k != "base"}], "results.json")


def test_machine_facts_are_the_comparable_ones_only() -> None:
    env = Environment(cpu_model="Xeon", cores=2, memory_bytes=None, os="Linux", python="3.11")
    facts = machine_facts(env)
    assert (
        json.dumps(facts.dump(), sort_keys=True)
        == '{"cores": 2, "cpu_model": "Xeon", "os": "Linux"}'
    )
