"""benchstat's geomean row: the geometric means over keys and their ratio, known by hand."""

from __future__ import annotations

import json
import math

FORKS = [[1.0, 1.001], [1.002, 1.0], [0.999, 1.0], [1.001, 1.0]]


def _scaled(factor: float) -> list[list[float]]:
    return [[v * factor for v in f] for f in FORKS]


def test_the_geometric_mean_row_is_the_mean_of_logs(run_cli, make_jmh_entry, write_jmh) -> None:
    """10 → 5 ns/op and 40 → 40 ns/op: base √(10·40) = 20, head √(5·40) = 14.1, Δ -29.3%;
    bytes/op 0 → 0 (no allocation) has no logarithm, which leaves one key: no bytes/op row."""
    base = write_jmh("b.json", [make_jmh_entry("x.A.a", _scaled(10), alloc=64.0),
                                make_jmh_entry("x.A.b", _scaled(40), alloc=0.0)])  # fmt: skip
    head = write_jmh("h.json", [make_jmh_entry("x.A.a", _scaled(5), alloc=64.0),
                                make_jmh_entry("x.A.b", _scaled(40), alloc=0.0)])  # fmt: skip
    md = run_cli("compare", base, head, "--format", "md").out
    (row,) = [line for line in md.splitlines() if line.startswith("| time |")]
    ratio = math.sqrt(5 * 40) / math.sqrt(10 * 40)
    assert row == f"| time | 2 | 20.0 ns/op | 14.1 ns/op | {(ratio - 1) * 100:+.1f}% |"
    assert "| bytes/op |" not in md  # one key with bytes: its own row already says it
    table = run_cli("compare", base, head).out
    assert "Geometric mean" in table and "14.1 ns/op" in table


def test_the_geometric_mean_row_is_in_the_json_of_compare_and_the_report(
    run_cli, make_jmh_entry, write_jmh, make_run_folder
) -> None:
    """The same row for a CI job reading ``compare --format json``: both sides' geometric
    means in the canonical unit, their ratio and Δ%, the keys counted and those left out; and
    in report.json, over the rows of its tables."""
    base = write_jmh("b.json", [make_jmh_entry("x.A.a", _scaled(10), alloc=64.0),
                                make_jmh_entry("x.A.b", _scaled(40), alloc=0.0)])  # fmt: skip
    head = write_jmh("h.json", [make_jmh_entry("x.A.a", _scaled(5), alloc=64.0),
                                make_jmh_entry("x.A.b", _scaled(40), alloc=0.0)])  # fmt: skip
    doc = json.loads(run_cli("compare", base, head, "--format", "json").out)
    (time,) = doc["geomean"]
    assert (time["metric"], time["unit"], time["keys"], time["left_out"]) == (
        "primary",
        "ns/op",
        2,
        0,
    )
    assert math.isclose(time["base"], 20.0, rel_tol=1e-3)
    assert math.isclose(time["head"], math.sqrt(5 * 40), rel_tol=1e-3)
    assert math.isclose(time["ratio"], math.sqrt(5 * 40) / 20.0, rel_tol=1e-3)
    assert math.isclose(time["delta_pct"], (time["ratio"] - 1) * 100)
    run = make_run_folder("ab")
    report = json.loads(run_cli("report", run, "--format", "json").out)
    md = run_cli("report", run).out
    rows = {g["metric"]: g for g in report["geomean"]}
    assert set(rows) == {"primary", "gc.alloc.rate.norm"}
    assert all(f"| {g['keys']} " in md for g in report["geomean"])


def _undeclared(value: object, path: str = "") -> list[str]:
    """The entries of a read document, at any depth, that its model does not declare (kept
    by the codec as extras): each a printed entry no reader can rely on."""
    from pydantic import BaseModel

    from perfproof.model import Comparison

    if isinstance(value, BaseModel):
        found = [f"{path}.{k}" for k in value.model_extra or {}]
        for name in type(value).model_fields:
            found += _undeclared(getattr(value, name), f"{path}.{name}")
        return found
    if isinstance(value, Comparison):
        return [f"{path}.{k}" for k in value.extra]
    if isinstance(value, list | tuple):
        return [x for i, v in enumerate(value) for x in _undeclared(v, f"{path}[{i}]")]
    if isinstance(value, dict):
        return [x for k, v in value.items() for x in _undeclared(v, f"{path}.{k}")]
    return []


def test_every_entry_compare_prints_is_declared_by_its_model(
    run_cli, make_jmh_entry, write_jmh
) -> None:
    """``compare --format json`` read back: the geomean rows (and every other entry) are the
    document's own fields, typed, and written again byte for byte; an entry added beside the
    model (``model_copy(update=...)`` of a name it lacks) would be read as an extra."""
    from perfproof.model.documents import dumps
    from perfproof.model.documents.compare import CompareDocument, GeoMeanDoc

    base = write_jmh("b.json", [make_jmh_entry("x.A.a", _scaled(10), alloc=64.0),
                                make_jmh_entry("x.A.b", _scaled(40), alloc=32.0)])  # fmt: skip
    head = write_jmh("h.json", [make_jmh_entry("x.A.a", _scaled(5), alloc=64.0),
                                make_jmh_entry("x.A.b", _scaled(40), alloc=16.0)])  # fmt: skip
    printed = run_cli("compare", base, head, "--format", "json").out
    doc = CompareDocument.read(json.loads(printed), "compare.json")
    assert _undeclared(doc) == []
    assert doc.geomean is not None and {g.metric for g in doc.geomean} == {
        "primary",
        "gc.alloc.rate.norm",
    }
    assert all(isinstance(g, GeoMeanDoc) for g in doc.geomean)
    assert dumps(doc.dump()) == printed


def test_a_run_document_holds_no_geomean(make_jmh_entry, write_jmh) -> None:
    """``results.json`` (``ab``'s document) leaves the geomean rows to its report: no entry,
    not a null."""
    from perfproof.compare import CompareOptions, compare_specs, document

    base = write_jmh("b.json", [make_jmh_entry("x.A.a", _scaled(10)),
                                make_jmh_entry("x.A.b", _scaled(40))])  # fmt: skip
    head = write_jmh("h.json", [make_jmh_entry("x.A.a", _scaled(5)),
                                make_jmh_entry("x.A.b", _scaled(40))])  # fmt: skip
    result = compare_specs(str(base), str(head), CompareOptions())
    assert "geomean" not in document(result).dump()
    assert [g.metric for g in document(result, geomean=True).geomean or []] == ["primary"]


def test_every_output_of_a_real_run_gives_the_same_geomean_rows(run_cli) -> None:
    """kryo's 24 keys, whose forks collected: the GC costs beside them get no geometric mean
    in the JSON either (zero for most keys, so a mean over the few would speak for the suite
    on a handful), so a CI job reading ``compare --format json`` sees the rows the table has."""
    from pathlib import Path

    jmh = Path(__file__).parents[1] / "fixtures" / "runs" / "kryo-24-keys-defaults" / "jmh"
    base, head = str(jmh / "*base.json"), str(jmh / "*head.json")
    doc = json.loads(run_cli("compare", base, head, "--format", "json").out)
    assert any(c["metric"] == "gc.time.norm" for c in doc["comparisons"])
    md = run_cli("compare", base, head, "--format", "md").out
    table = md[md.index("| Geometric mean |") :].split("\n\n")[0].splitlines()[2:]
    assert [(g["metric"], g["keys"]) for g in doc["geomean"]] == [
        ("primary", 24),
        ("gc.alloc.rate.norm", 11),
    ]
    assert [row.split(" | ")[1].split(" ")[0] for row in table] == ["24", "11"]
