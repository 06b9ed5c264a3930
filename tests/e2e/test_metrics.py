"""Metric specs: parsing, the JSON path subset and extraction from outputs."""

from __future__ import annotations

import pytest

from perfproof.errors import InputError
from perfproof.measure.metrics import (
    MetricNotFound,
    extract,
    json_path_get,
    parse_json_path,
    parse_metric_spec,
)


def test_regex_spec_with_unit_and_equals_in_pattern() -> None:
    spec = parse_metric_spec(r"latency[ms]=p50=([\d.]+)")
    assert (spec.name, spec.unit, spec.kind) == ("latency", "ms", "regex")
    assert extract(spec, "warming\np50=12.5 p99=40\n") == 12.5


def test_regex_first_match_stdout_then_stderr() -> None:
    spec = parse_metric_spec(r"t=took (\d+)")
    assert extract(spec, "took 5\ntook 7\n", "took 9") == 5.0
    assert extract(spec, "nothing here", "took 9") == 9.0


def test_numbers_with_thousands_separators_and_exponents() -> None:
    spec = parse_metric_spec(r"ops=ops: ([\d,.eE+-]+)")
    assert extract(spec, "ops: 1,234,567.5") == 1234567.5
    assert extract(spec, "ops: 1.5e3") == 1500.0


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("noequals", "expected NAME=REGEX"),
        ("=abc", "expected NAME=REGEX"),
        ("x=", "expected NAME=REGEX"),
        ("x=(unclosed", "invalid regex"),
        (r"x=\d+", "no capture group"),
        ("x=json:a.b", "must start with $"),
        ("x=json:$.a..b", "cannot read JSON path"),
    ],
)
def test_bad_specs_are_input_errors(text: str, fragment: str) -> None:
    with pytest.raises(InputError, match=fragment.replace("$", r"\$")):
        parse_metric_spec(text)


def test_json_path_subset() -> None:
    assert parse_json_path("$.a.b[0]") == ("a", "b", 0)
    assert parse_json_path("$['odd key'][-1].x") == ("odd key", -1, "x")
    assert parse_json_path("$") == ()
    doc = {"a": {"b": [3, 4]}, "odd key": [{"x": 1}, {"x": 2}]}
    assert json_path_get(doc, ("a", "b", 0)) == 3
    assert json_path_get(doc, ("odd key", -1, "x")) == 2
    with pytest.raises(KeyError, match=r"\$\.a\.b has no element \[5\]"):
        json_path_get(doc, ("a", "b", 5))
    with pytest.raises(KeyError, match="has no key 'zz'"):
        json_path_get(doc, ("a", "zz"))


def test_json_extraction_whole_stdout_or_last_json_line() -> None:
    spec = parse_metric_spec("rps=json:$.stats.rps[1]")
    assert extract(spec, '{"stats": {"rps": [1, 2.5]}}') == 2.5
    noisy = 'starting\n{"stats": {"rps": [0, 1]}}\nlog line\n{"stats": {"rps": [0, 7]}}\nbye\n'
    assert extract(spec, noisy) == 7.0
    assert extract(parse_metric_spec("n=json:$.n"), '{"n": "42.5"}') == 42.5


@pytest.mark.parametrize(
    ("stdout", "fragment"),
    [
        ("no json at all", "no JSON document"),
        ('{"stats": {}}', "has no key 'rps'"),
        ('{"stats": {"rps": [1, true]}}', "not a number"),
        ('{"stats": {"rps": [1, {"a": 1}]}}', "not a number"),
    ],
)
def test_json_extraction_failures(stdout: str, fragment: str) -> None:
    spec = parse_metric_spec("rps=json:$.stats.rps[1]")
    with pytest.raises(MetricNotFound, match=fragment):
        extract(spec, stdout)


def test_regex_that_matches_nothing_or_not_a_number() -> None:
    with pytest.raises(MetricNotFound, match="matched nothing"):
        extract(parse_metric_spec(r"t=took (\d+)"), "done", "")
    with pytest.raises(MetricNotFound, match="not a number"):
        extract(parse_metric_spec(r"t=took (\w+)"), "took abc")
    with pytest.raises(MetricNotFound, match="not a finite number"):
        extract(parse_metric_spec(r"t=took (\w+)"), "took inf")
