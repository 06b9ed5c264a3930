"""Each JSON export checked the way its consumer checks its input: Bencher's documented
metric format (BMF) for ``--to bencher``, github-action-benchmark's custom-tool entries for
``--to github-action-benchmark``, plus what a schema cannot say (bounds around the value,
never negative, the ``±`` range the action parses)."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from jsonschema import Draft7Validator

BMF = {
    "$schema": "http://json-schema.org/draft-07/schema",
    "type": "object",
    "minProperties": 1,
    "propertyNames": {"maxLength": 1024},  # a benchmark name
    "additionalProperties": {
        "type": "object",
        "minProperties": 1,
        "propertyNames": {"maxLength": 64, "pattern": "^[a-z0-9-]+$"},  # a measure slug
        "additionalProperties": {
            "type": "object",
            "required": ["value"],
            "properties": {
                "value": {"type": "number"},
                "lower_value": {"type": "number"},
                "upper_value": {"type": "number"},
            },
            "additionalProperties": False,
        },
    },
}
"""Bencher Metric Format as bencher.dev documents it: benchmark → measure → metric."""

GAB = {
    "$schema": "http://json-schema.org/draft-07/schema",
    "type": "array",
    "minItems": 1,
    "items": {
        "type": "object",
        "required": ["name", "unit", "value"],
        "properties": {
            "name": {"type": "string", "minLength": 1},
            "unit": {"type": "string", "minLength": 1},
            "value": {"type": "number"},
            "range": {"type": "string"},
            "extra": {"type": "string"},
        },
        "additionalProperties": False,
    },
}
"""github-action-benchmark's ``customSmallerIsBetter``/``customBiggerIsBetter`` input."""

RANGE = re.compile(r"^± ?\d+(\.\d+)?$")
"""The range form the action parses into an error bar: ``± 1.23``."""


@pytest.fixture
def run(make_run_folder, tmp_path: Path) -> Path:
    copy = tmp_path / "run"
    shutil.copytree(make_run_folder("ab"), copy)
    return copy


def test_bencher_export_is_valid_bmf_with_bounds_around_the_value(run, run_cli, tmp_path):
    out = tmp_path / "bmf.json"
    assert run_cli("export", run, "--to", "bencher", "--out", out).code == 0
    doc = json.loads(out.read_text())
    errors = sorted(Draft7Validator(BMF).iter_errors(doc), key=str)
    assert not errors, [e.message for e in errors]
    metrics = [m for measures in doc.values() for m in measures.values()]
    assert any("lower_value" in m for m in metrics)
    for m in metrics:
        assert (
            0 <= m.get("lower_value", m["value"]) <= m["value"] <= m.get("upper_value", m["value"])
        )


def test_github_action_benchmark_input_is_what_the_action_accepts(run, run_cli, tmp_path):
    out = tmp_path / "gab"
    assert run_cli("export", run, "--to", "github-action-benchmark", "--out", out).code == 0
    files = sorted(out.glob("*.json"))
    assert [f.name for f in files] == ["customBiggerIsBetter.json", "customSmallerIsBetter.json"]
    for f in files:
        doc = json.loads(f.read_text())
        errors = list(Draft7Validator(GAB).iter_errors(doc))
        assert not errors, (f.name, [e.message for e in errors])
        for entry in doc:
            assert entry["value"] >= 0
            if "range" in entry:
                assert RANGE.match(entry["range"]), entry["range"]


@pytest.mark.parametrize(
    ("doc", "schema"),
    [
        ({"fx.A": {"latency": {"lower_value": 1.0}}}, BMF),  # no value
        ({"fx.A": {"Latency Time": {"value": 1.0}}}, BMF),  # not a slug
        ([{"name": "fx.A", "value": 1.0}], GAB),  # no unit
        ([{"name": "fx.A", "unit": "ns/op", "value": "1.0"}], GAB),  # value as text
    ],
)
def test_the_schemas_refuse_what_the_consumers_refuse(doc, schema) -> None:
    assert list(Draft7Validator(schema).iter_errors(doc))
