"""The typed ``perfproof.compare/1`` document: a lossless round trip, older documents still
read, and every bad field named with the file and its path."""

from __future__ import annotations

import json
import re

import pytest

from perfproof.compare import CompareOptions, compare_document, compare_specs
from perfproof.errors import InputError
from perfproof.model import Verdict
from perfproof.model.documents import dumps, loads_strict
from perfproof.model.documents.compare import CompareDocument


@pytest.fixture
def doc(stream_vs_loop) -> dict:
    base, head = stream_vs_loop
    return compare_document(compare_specs(str(base), str(head), CompareOptions()))


def test_round_trip_is_lossless_and_strict(doc: dict) -> None:
    text = dumps({**doc, "run_dir": "/somewhere"})
    parsed = CompareDocument.read(loads_strict(text, "results.json"), "results.json")
    assert parsed.model_extra == {"run_dir": "/somewhere"}
    again = parsed.dump()
    assert json.loads(json.dumps(again, allow_nan=False)) == json.loads(text)
    (time, alloc, *gc) = parsed.comparisons
    assert [c.key.metric for c in gc] == ["gc.time.norm", "gc.count.norm"]
    assert time.verdict is Verdict.IMPROVED and time.family == "bh"
    assert alloc.method == "exact" and alloc.family == "exact"


def test_other_writers_fields_survive(doc: dict) -> None:
    doc["comparisons"][0]["machine"] = "node-1"
    parsed = CompareDocument.read(doc, "r.json")
    assert parsed.machines()[parsed.comparisons[0].key] == "node-1"
    assert parsed.dump()["comparisons"][0]["machine"] == "node-1"


def test_documents_from_before_the_family_option_read(doc: dict) -> None:
    doc.pop("family")
    doc["holm"] = True
    for c in doc["comparisons"]:
        for key in ("p_adjusted", "family", "interval_confidence", "delta_ci_pct"):
            c.pop(key)
        c["p_holm"] = 0.004
    parsed = CompareDocument.read(doc, "old.json")
    assert parsed.family == "holm"
    c = parsed.comparisons[0]
    assert c.p_adjusted == 0.004 and c.interval_confidence is None
    assert c.delta_ci_pct == pytest.approx(((c.ratio_ci[0] - 1) * 100, (c.ratio_ci[1] - 1) * 100))


def test_older_spellings_read_as_todays(doc: dict) -> None:
    today = CompareDocument.read(json.loads(json.dumps(doc)), "r.json")
    doc["warnings"] = doc.pop("notes")
    for c in doc["comparisons"]:
        for side in ("base", "head"):
            c[side]["value"] = c[side].pop("estimate")
        c["params"] = [[k, v] for k, v in c["params"].items()]
        c.pop("delta_pct")
    old = CompareDocument.read(doc, "old.json")
    assert old.notes == today.notes
    assert repr(old.comparisons) == repr(today.comparisons)
    assert old.dump() == today.dump()


def test_an_older_spelling_is_named_when_wrong(doc: dict) -> None:
    base = doc["comparisons"][0]["base"]
    base.pop("estimate")
    base["value"] = "fast"
    with pytest.raises(InputError, match=re.escape("r.json: comparisons[0].base.value: expected")):
        CompareDocument.read(doc, "r.json")


@pytest.mark.parametrize(
    ("path", "value", "message"),
    [
        (("comparisons", 0, "ratio"), "1.5", "r.json: comparisons[0].ratio: expected a number"),
        (("comparisons", 1, "head"), [], "r.json: comparisons[1].head: expected an object"),
        (("comparisons", 0, "direction"), "up", "comparisons[0].direction: expected one of"),
        (("comparisons",), {}, "r.json: comparisons: expected a list"),
        (("threshold",), True, "r.json: threshold: expected a number, got True"),
    ],
)
def test_bad_fields_are_named(doc: dict, path: tuple, value: object, message: str) -> None:
    target = doc
    for step in path[:-1]:
        target = target[step]
    target[path[-1]] = value
    with pytest.raises(InputError, match=re.escape(message)):
        CompareDocument.read(doc, "r.json")


def test_another_schema_is_refused(doc: dict) -> None:
    doc["schema"] = "perfproof.guard/1"
    with pytest.raises(InputError, match=re.escape("is a perfproof.guard/1 document, expected")):
        CompareDocument.read(doc, "r.json")
