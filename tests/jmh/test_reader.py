"""The JMH reader on the recorded fixtures (JMH 1.21 and 1.37, all modes) and edge cases."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest

from perfproof.errors import InputError
from perfproof.jmh.reader import load_side, read_file, read_results, to_float
from perfproof.model import ALLOC_NORM, PRIMARY, BenchKey, Direction

FIXTURE_DIR = Path(__file__).parent.parent / "fixtures" / "jmh"


def key(bench: str, mode: str = "avgt", metric: str = PRIMARY, **params: str) -> BenchKey:
    return BenchKey(bench, mode, tuple(sorted(params.items())), metric)


# ----------------------------------------------------------------------------- real fixtures


def test_jmh_137_every_mode_and_unit(fixtures_dir: Path) -> None:
    path = fixtures_dir / "jmh" / "jmh-1.37-allmodes-gc.json"
    raw = json.loads(path.read_text())
    side = read_results([path])
    primaries = {k for k in side if k.metric == PRIMARY}
    assert len(primaries) == len(raw) == 9
    assert {k.mode for k in primaries} == {"thrpt", "avgt", "sample", "ss"}
    # every entry keeps the rawData shape: 2 forks x 3 iterations
    for k in primaries:
        s = side[k]
        assert s.fork_count == 2 and all(f.size == 3 for f in s.forks), k
    thr = side[key("fx.Thr.concat", "thrpt")]
    assert thr.unit == "ops/s" and thr.direction is Direction.HIGHER
    assert thr.forks[0][0] == pytest.approx(25267291.156149026)
    # single shot: s/op -> ns/op
    ss = side[key("fx.Thr.alloc", "ss")]
    assert ss.unit == "ns/op" and ss.direction is Direction.LOWER
    assert ss.forks[0][0] == pytest.approx(150744.0)
    assert ss.jmh[0].score == pytest.approx(0.00012926566666666666 * 1e9)
    # params are part of the key
    assert key("fx.Codes.sum", n="128") in side and key("fx.Codes.sum", n="16") in side
    assert side[key("fx.Codes.sum", n="128")].forks[1][2] == pytest.approx(47.13166660745118)


def test_jmh_137_sample_mode_histogram_is_weighted_mean(fixtures_dir: Path) -> None:
    path = fixtures_dir / "jmh" / "jmh-1.37-allmodes-gc.json"
    raw = next(e for e in json.loads(path.read_text()) if e["mode"] == "sample")
    hist = raw["primaryMetric"]["rawDataHistogram"]
    side = read_results([path])
    s = side[key("fx.Thr.format", "sample")]
    assert s.unit == "ns/op"
    for f, fork in enumerate(hist):
        for i, iteration in enumerate(fork):
            values = np.array([v for v, _ in iteration]) * 1e9
            counts = np.array([c for _, c in iteration])
            assert s.forks[f][i] == pytest.approx((values * counts).sum() / counts.sum())
    # all samples pooled reproduce JMH's own score (a check of the unit and the weighting)
    total = sum(c for fork in hist for it in fork for _, c in it)
    pooled = sum(v * c for fork in hist for it in fork for v, c in it) * 1e9 / total
    assert pooled == pytest.approx(raw["primaryMetric"]["score"] * 1e9, rel=1e-9)
    # percentile secondaries come through under their own names, in ns/op
    assert side[key("fx.Thr.format", "sample", "p0.50")].forks[0][0] == pytest.approx(221.0)


def test_jmh_121_middle_dot_prefix_normalised(fixtures_dir: Path) -> None:
    side = read_results([fixtures_dir / "jmh" / "jmh-1.21-avgt-gc.json"])
    metrics = {k.metric for k in side if k.benchmark == "fx.Codes.streamEmpty"}
    assert ALLOC_NORM in metrics and "gc.churn.G1_Eden_Space.norm" in metrics
    assert not any(m.startswith("\u00b7") for m in metrics)
    alloc = side[key("fx.Codes.streamEmpty", metric=ALLOC_NORM, n="16")]
    assert alloc.unit == "B/op" and alloc.forks[0][0] == pytest.approx(4736.192415748244)


def test_both_versions_share_keys(fixtures_dir: Path) -> None:
    old = read_results([fixtures_dir / "jmh" / "jmh-1.21-avgt-gc.json"])
    new = read_results([fixtures_dir / "jmh" / "jmh-1.37-allmodes-gc.json"])
    k = key("fx.Codes.streamEmpty", metric=ALLOC_NORM, n="16")
    assert k in old and k in new


def test_folder_of_rounds_appends_forks(fixtures_dir: Path, tmp_path: Path, rerun) -> None:
    src = (fixtures_dir / "jmh" / "jmh-1.37-allmodes-gc.json").read_text()
    for r, name in enumerate(("round-1.json", "round-2.json", "round-10.json"), start=1):
        (tmp_path / name).write_text(rerun(src, 1 + r / 1000))
    (tmp_path / "notes.txt").write_text("not read")
    side = load_side(str(tmp_path))
    s = side[key("fx.Codes.sum", n="16")]
    assert s.fork_count == 6 and len(s.jmh) == 3
    assert [Path(p).name for p in s.sources] == ["round-1.json", "round-2.json", "round-10.json"]
    by_glob = load_side(str(tmp_path / "round-1*.json"))
    assert by_glob[key("fx.Codes.sum", n="16")].fork_count == 4


# ----------------------------------------------------------------------------- edge cases


def test_no_params_and_prefix_variants(make_entry, write_json) -> None:
    sec = {"rawData": [[8.0, 8.0]], "scoreUnit": "B/op", "score": 8.0, "scoreError": "NaN"}
    files = [
        write_json("dot.json", [make_entry(secondary={"\u00b7gc.alloc.rate.norm": sec})]),
        write_json("at.json", [make_entry(secondary={"@gc.alloc.rate.norm": sec})]),
        write_json("bare.json", [make_entry(secondary={"gc.alloc.rate.norm": sec})]),
    ]
    for path in files:
        side = read_results([path])
        assert set(side) == {key("x.B.m"), key("x.B.m", metric=ALLOC_NORM)}, path.name
        assert side[key("x.B.m")].key.params == ()


def test_nan_and_inf_strings(make_entry, write_json) -> None:
    e = make_entry(raw=[[1.0, "NaN", 3.0], ["+INF", "-INF", 5.0], ["NaN"]])
    e["primaryMetric"]["score"] = "NaN"
    e["primaryMetric"]["scoreError"] = "+INF"
    s = read_results([write_json("nan.json", [e])])[key("x.B.m")]
    assert [f.tolist() for f in s.forks] == [[1.0, 3.0], [5.0]]
    assert any("4 non-finite" in n for n in s.notes)
    assert math.isnan(s.jmh[0].score) and s.jmh[0].error == math.inf
    assert to_float("-INF") == -math.inf and to_float("Infinity") == math.inf


def test_secondary_raw_data_missing_or_shorter(make_entry, write_json) -> None:
    sec = {
        "gc.alloc.rate.norm": {"score": 0.0, "scoreError": "NaN", "scoreUnit": "B/op"},
        "gc.count": {"score": 1.0, "scoreUnit": "counts", "rawData": [[1.0]]},
    }
    side = read_results([write_json("sec.json", [make_entry(secondary=sec)])])
    alloc = side[key("x.B.m", metric=ALLOC_NORM)]
    assert [f.tolist() for f in alloc.forks] == [[0.0]]
    assert any("no rawData" in n for n in alloc.notes)
    count = side[key("x.B.m", metric="gc.count")]
    assert count.fork_count == 1 and side[key("x.B.m")].fork_count == 2


def test_single_fork_single_iteration(make_entry, write_json) -> None:
    s = read_results([write_json("one.json", [make_entry(raw=[[42.0]])])])[key("x.B.m")]
    assert s.fork_count == 1 and s.forks[0].tolist() == [42.0]


def test_us_per_op_equals_ns_per_op(make_entry, write_json) -> None:
    us = read_results([write_json("us.json", [make_entry(raw=[[1.5, 2.0]], unit="us/op")])])
    ns = read_results([write_json("ns.json", [make_entry(raw=[[1500.0, 2000.0]])])])
    assert us[key("x.B.m")].unit == ns[key("x.B.m")].unit == "ns/op"
    np.testing.assert_allclose(us[key("x.B.m")].forks[0], ns[key("x.B.m")].forks[0])
    assert us[key("x.B.m")].jmh[0].score == pytest.approx(2500.0)


def test_throughput_units_to_ops_per_second(make_entry, write_json) -> None:
    e = make_entry(mode="thrpt", raw=[[2.0]], unit="ops/ms")
    s = read_results([write_json("t.json", [e])])[key("x.B.m", "thrpt")]
    assert s.unit == "ops/s" and s.forks[0][0] == pytest.approx(2000.0)
    assert s.direction is Direction.HIGHER


def test_sample_histogram_edge_cases(make_entry, write_json) -> None:
    e = make_entry(mode="sample", unit="us/op")
    del e["primaryMetric"]["rawData"]
    e["primaryMetric"]["rawDataHistogram"] = [[[[1.0, 3], [2.0, 1]], [[5.0, 0], ["NaN", 2]]]]
    s = read_results([write_json("h.json", [e])])[key("x.B.m", "sample")]
    # (1*3 + 2*1)/4 us = 1250 ns; the second iteration has no usable sample and is dropped
    assert s.forks[0].tolist() == pytest.approx([1250.0])


# ----------------------------------------------------------------------------- errors


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ('[{"benchmark": "a", "mode": "avgt", "primaryMetric": {"score": 1', "truncated JSON"),
        ("", "empty file"),
        ("{not json at all}", "not valid JSON"),
        ('{"benchmarks": []}', "not JMH JSON output"),
        ("[1, 2, 3]", "not JMH JSON output"),
        ('[{"benchmark": "a"}]', "not JMH JSON output"),
        ("[]", "empty JMH result list"),
    ],
)
def test_bad_files_name_the_file(write_json, content: str, message: str) -> None:
    path = write_json("bad.json", content)
    with pytest.raises(InputError) as err:
        read_file(path)
    text = str(err.value)
    assert str(path) in text and message in text and "\n" not in text


def test_bad_raw_data_is_an_input_error(make_entry, write_json) -> None:
    e = make_entry(raw=[["fast"]])
    with pytest.raises(InputError, match=r"result x\.B\.m: malformed"):
        read_file(write_json("bad.json", [e]))


def test_not_utf8(tmp_path: Path) -> None:
    path = tmp_path / "bin.json"
    path.write_bytes(b"\xff\xfe\x00garbage")
    with pytest.raises(InputError, match="not UTF-8"):
        read_file(path)


def test_missing_spec_forms(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="no such file or folder"):
        load_side(str(tmp_path / "nope.json"))
    with pytest.raises(InputError, match="no file matches"):
        load_side(str(tmp_path / "*.json"))
    (tmp_path / "empty").mkdir()
    with pytest.raises(InputError, match=r"contains no \.json files"):
        load_side(str(tmp_path / "empty"))
    with pytest.raises(InputError, match="no such file"):
        read_results([tmp_path / "gone.json"])


def test_unit_clash_between_rounds(make_entry, write_json) -> None:
    a = write_json("a.json", [make_entry(unit="widgets/op")])
    b = write_json("b.json", [make_entry(unit="gadgets/op")])
    with pytest.raises(InputError, match=r"b\.json: x\.B\.m .* gadgets/op"):
        read_results([a, b])


@pytest.mark.parametrize("name", sorted(p.name for p in FIXTURE_DIR.glob("*.json")))
def test_every_fixture_reads_consistently(name: str) -> None:
    """Every recorded file: canonical units, bare metric names, and for averaged metrics
    (the primary, bytes/op; gc.count and gc.time are sums in JMH) JMH's score is the mean of
    the raw data the reader returns, which checks the unit conversion end to end."""
    path = FIXTURE_DIR / name
    raw = json.loads(path.read_text())
    side = read_results([path])
    assert len({k.entry() for k in side}) == len(raw)
    for k, s in side.items():
        assert not k.metric.startswith(("\u00b7", "@")), k
        if k.metric == PRIMARY:
            assert s.unit in ("ns/op", "ops/s"), k
            assert s.fork_count == raw[0]["forks"] and s.fork_count >= 2
        averaged = k.metric in (PRIMARY, ALLOC_NORM)
        if averaged and k.mode != "sample" and math.isfinite(s.jmh[0].score):
            pooled = float(np.concatenate(s.forks).mean())
            assert pooled == pytest.approx(s.jmh[0].score, rel=1e-6, abs=1e-9), k


def test_unreadable_secondary_is_skipped_with_a_note(make_entry, write_json) -> None:
    sec = {
        "\u00b7stack": {"score": "NaN", "scoreUnit": "???", "rawData": [["text dump"]]},
        "\u00b7odd": "not an object",
        "gc.count": {"score": 2.0, "scoreUnit": "counts", "rawData": [[1.0, 1.0]]},
    }
    side = read_results([write_json("prof.json", [make_entry(secondary=sec)])])
    assert set(side) == {key("x.B.m"), key("x.B.m", metric="gc.count")}
    notes = side[key("x.B.m")].notes
    assert any("'\u00b7stack' skipped" in n for n in notes)
    assert any("'\u00b7odd' skipped" in n for n in notes)
