"""compare_sides on real fixtures and on constructed cases with a known answer."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from scipy import stats as sp

from lab.simulate import ForkNoise
from perfproof.compare import (
    SCHEMA,
    CompareOptions,
    compare_document,
    compare_sides,
    compare_specs,
)
from perfproof.errors import InputError
from perfproof.jmh.reader import load_side
from perfproof.model import ALLOC_NORM, PRIMARY, ComparisonMethod, Verdict
from perfproof.model.documents.codec import encode
from perfproof.model.enums import Family
from perfproof.model.metrics import GC_COSTS, is_gc_cost


def by_metric(result, metric: str):
    return [c for c in result.comparisons if c.key.metric == metric]


# ----------------------------------------------------------------------------- real data


def test_stream_vs_plain_loop_improves_time_and_bytes(stream_vs_loop) -> None:
    base, head = stream_vs_loop
    result = compare_specs(str(base), str(head), CompareOptions())
    (time,) = by_metric(result, PRIMARY)
    (alloc,) = by_metric(result, ALLOC_NORM)
    assert time.verdict is Verdict.IMPROVED and time.method is ComparisonMethod.FORK_LEVEL
    assert time.ratio_ci[1] < 0.01  # the loop is >100x faster
    assert time.p_adjusted is not None and time.p_adjusted < 0.01
    assert alloc.verdict is Verdict.IMPROVED and alloc.method is ComparisonMethod.EXACT
    assert alloc.base.value == pytest.approx(4736, abs=1) and alloc.head.value < 0.5
    assert any("compared exactly" in w for w in alloc.warnings)
    # the recorded stream forks start at ~15 us/op and settle near 1 us/op: flagged
    unsettled = encode(time.diagnostics)["unsettled"]
    assert unsettled and unsettled[0]["side"] == "base"
    assert encode(time.diagnostics)["without_unsettled"]["verdict"] == "improved"
    assert not result.unmatched


def test_recorded_n128_pair_improves_with_two_forks(fixtures_dir, tmp_path) -> None:
    recorded = json.loads((fixtures_dir / "jmh" / "jmh-1.37-allmodes-gc.json").read_text())
    for method in ("streamEmpty", "loopEmpty"):
        entries = [
            e for e in recorded if e["benchmark"].endswith(method) and e["params"]["n"] == "128"
        ]
        for e in entries:
            e["benchmark"] = "fx.Codes.empty"
        (tmp_path / f"{method}.json").write_text(json.dumps(entries))
    result = compare_specs(
        str(tmp_path / "streamEmpty.json"), str(tmp_path / "loopEmpty.json"), CompareOptions()
    )
    verdicts = {c.key.metric: c.verdict for c in result.comparisons}
    assert set(verdicts) == {PRIMARY, ALLOC_NORM, *GC_COSTS}  # GC costs from -prof gc's totals
    assert {m: verdicts[m] for m in (PRIMARY, ALLOC_NORM)} == {
        PRIMARY: Verdict.IMPROVED,
        ALLOC_NORM: Verdict.IMPROVED,
    }
    (time,) = by_metric(result, PRIMARY)
    assert any("too few forks: 2 base, 2 head" in w for w in time.warnings)


def test_real_file_against_itself_changes_nothing(fixtures_dir) -> None:
    path = str(fixtures_dir / "jmh" / "jmh-1.37-allmodes-gc.json")
    result = compare_specs(path, path, CompareOptions())
    main = [c for c in result.comparisons if not is_gc_cost(c.key.metric)]
    assert len(main) == 18 and not result.unmatched
    for c in result.comparisons:
        assert c.ratio == pytest.approx(1.0)
        assert c.verdict in (Verdict.SAME, Verdict.INCONCLUSIVE), c.key
        assert (c.jmh is None) is is_gc_cost(c.key.metric)  # JMH printed no GC cost
        assert c.jmh is None or c.jmh.overlap in (True, None)
    raw = json.loads((fixtures_dir / "jmh" / "jmh-1.37-allmodes-gc.json").read_text())
    thr = next(c for c in result.comparisons if c.key.mode == "thrpt" and c.key.metric == PRIMARY)
    assert thr.jmh.base_score == raw[0]["primaryMetric"]["score"]
    assert thr.jmh.base_error == raw[0]["primaryMetric"]["scoreError"]


def test_jmh_121_against_137_matches_across_versions(fixtures_dir) -> None:
    result = compare_specs(
        str(fixtures_dir / "jmh" / "jmh-1.21-avgt-gc.json"),
        str(fixtures_dir / "jmh" / "jmh-1.37-allmodes-gc.json"),
        CompareOptions(),
    )
    assert {(c.key.benchmark, c.key.metric) for c in result.comparisons} == {
        (bench, metric)
        for bench in ("fx.Codes.streamEmpty", "fx.Codes.sum")
        for metric in (PRIMARY, ALLOC_NORM, *GC_COSTS)
    }
    unmatched = {(u.key.benchmark, u.key.params, u.side) for u in result.unmatched}
    assert ("fx.Thr.concat", (), "head") in unmatched
    assert ("fx.Codes.sum", (("n", "128"),), "head") in unmatched
    assert len(unmatched) == 7


# ----------------------------------------------------------------------------- known truth


@pytest.mark.parametrize("family", ["holm", "bh"])
def test_large_effect_survives_the_family_among_200(
    rng, make_forks, make_samples, family: str
) -> None:
    base, head = {}, {}
    for i in range(199):
        b, h = (make_samples(f"aa{i:03d}", make_forks(rng, 5, 10)) for _ in range(2))
        base[b.key], head[h.key] = b, h
    b = make_samples("real", make_forks(rng, 5, 10))
    h = make_samples("real", make_forks(rng, 5, 10, level=70.0))
    base[b.key], head[h.key] = b, h
    result = compare_sides(base, head, CompareOptions(confidence=0.99, family=Family(family)))
    real = next(c for c in result.comparisons if c.key.benchmark == "real")
    assert real.verdict is Verdict.IMPROVED
    assert real.p_adjusted < 0.01 and real.p_value < 0.01 / 200  # not floored by resampling
    # alone among 199 unchanged keys, both procedures reduce to Bonferroni for the smallest p
    assert real.p_adjusted == pytest.approx(min(1.0, real.p_value * 200))
    assert real.interval_confidence == pytest.approx(1 - 0.01 / 200)
    others = [c for c in result.comparisons if c.key.benchmark != "real"]
    assert not any(c.verdict in (Verdict.IMPROVED, Verdict.REGRESSED) for c in others)
    assert all(c.p_adjusted >= c.p_value for c in result.comparisons)
    no_holm = compare_sides(base, head, CompareOptions(family=Family.NONE))
    assert all(c.p_adjusted == c.p_value for c in no_holm.comparisons)
    assert all(c.interval_confidence == pytest.approx(0.99) for c in no_holm.comparisons)


def test_warmup_fork_flagged_with_both_verdicts(rng, make_forks, make_samples) -> None:
    tight = ForkNoise(fork_sd=0.01, iteration_sd=0.005)
    base_forks = make_forks(rng, 5, 10, level=400.0, noise=tight)
    base_forks[1] = base_forks[1].copy()
    base_forks[1][:3] = [16000.0, 15900.0, 16050.0]  # 16 us/op, then 0.4 us/op
    head_forks = make_forks(rng, 5, 10, level=360.0, noise=tight)
    result = compare_sides(
        {(b := make_samples("w", base_forks)).key: b},
        {(h := make_samples("w", head_forks)).key: h},
        CompareOptions(),
    )
    (c,) = result.comparisons
    assert encode(c.diagnostics)["unsettled"] == [
        {
            "side": "base",
            "fork": 2,
            "iterations": 3,
            "unsettled_mean": pytest.approx(15983.33, rel=1e-4),
            "settled_mean": pytest.approx(400, rel=0.05),
        }
    ]
    assert c.verdict is Verdict.INCONCLUSIVE  # the outlying fork mean swamps the test
    alt = encode(c.diagnostics)["without_unsettled"]
    assert alt["verdict"] == "improved" and alt["ratio"] == pytest.approx(0.9, abs=0.02)
    (warning,) = [w for w in c.warnings if w.startswith("warm-up")]
    assert "base fork 2 (3 at 16.0 µs/op vs 401 ns/op after)" in warning
    assert "with them inconclusive, without them improved" in warning


def test_single_fork_falls_back_to_iterations_and_says_so(rng, make_forks, make_samples) -> None:
    b = make_samples("one", make_forks(rng, 1, 20))
    h = make_samples("one", make_forks(rng, 1, 20, level=80.0))
    (c,) = compare_sides({b.key: b}, {h.key: h}, CompareOptions()).comparisons
    assert c.method is ComparisonMethod.ITERATION_LEVEL
    assert c.verdict is Verdict.IMPROVED
    assert any("no fork-to-fork variation" in w for w in c.warnings)
    assert c.mde_pct is None and c.diagnostics.power is None


def test_inconclusive_reports_mde_and_forks_needed(rng, make_forks, make_samples) -> None:
    b = make_samples("few", make_forks(rng, 3, 10, noise=ForkNoise(fork_sd=0.05)))
    h = make_samples("few", make_forks(rng, 3, 10, noise=ForkNoise(fork_sd=0.05)))
    (c,) = compare_sides({b.key: b}, {h.key: h}, CompareOptions()).comparisons
    assert c.verdict is Verdict.INCONCLUSIVE
    assert c.mde_pct is not None and c.mde_pct > 10
    assert c.forks_needed is not None and c.forks_needed > 50
    said = next(w for w in c.warnings if w.startswith("inconclusive:"))
    # what the run could see and the next step, both as intervals; no count of forks past reach
    assert "this design would see a change outside -" in said
    assert "a run with 10 more forks a side (13 in all) would see a change outside -" in said
    assert "±" not in said.replace("±1%", "") and str(c.forks_needed) not in said
    assert encode(c.diagnostics)["between_fork_share"]["base"] > 0.5


def test_same_when_tight_and_negligible_when_tiny(rng, make_forks, make_samples) -> None:
    noise = ForkNoise(fork_sd=0.001, iteration_sd=0.001)
    b = make_samples("t", make_forks(rng, 10, 10, noise=noise))
    same = make_samples("t", make_forks(rng, 10, 10, noise=noise))
    tiny = make_samples("t", make_forks(rng, 10, 10, level=100.4, noise=noise))
    opts = CompareOptions()
    assert compare_sides({b.key: b}, {same.key: same}, opts).comparisons[0].verdict is Verdict.SAME
    c = compare_sides({b.key: b}, {tiny.key: tiny}, opts).comparisons[0]
    assert c.verdict is Verdict.NEGLIGIBLE


def test_throughput_higher_is_better(rng, make_forks, make_samples) -> None:
    b = make_samples("thr", make_forks(rng, 5, 10, level=1e6), unit="ops/s")
    h = make_samples("thr", make_forks(rng, 5, 10, level=1.3e6), unit="ops/s")
    (c,) = compare_sides({b.key: b}, {h.key: h}, CompareOptions()).comparisons
    assert c.ratio > 1.2 and c.verdict is Verdict.IMPROVED


def test_bimodal_forks_warned(rng, make_samples) -> None:
    levels = [100, 101, 99.5, 100.5, 130, 131, 129, 130.5]
    forks = [np.full(5, lv) * (1 + 0.001 * np.arange(5) % 2) for lv in levels]
    b = make_samples("bi", forks)
    (c,) = compare_sides({b.key: b}, {b.key: b}, CompareOptions()).comparisons
    assert encode(c.diagnostics)["bimodal"]["base"]["level"] == "forks"
    assert any(w.startswith("bimodal base forks: 4 near") for w in c.warnings)


def test_mixed_time_units_compare(make_jmh_entry, write_jmh) -> None:
    us = write_jmh(
        "us.json", [make_jmh_entry("u", [[1.0, 1.01], [0.99, 1.0], [1.0, 1.0]], "us/op")]
    )
    ns = write_jmh("ns.json", [make_jmh_entry("u", [[1000.0, 1010], [990, 1000], [1000, 1000]])])
    (c,) = compare_specs(str(us), str(ns), CompareOptions()).comparisons
    assert c.unit == "ns/op" and c.ratio == pytest.approx(1.0)


def test_metric_selection_and_one_sided_metrics(make_jmh_entry, write_jmh) -> None:
    forks = [[10.0, 10.1], [10.2, 10.0], [9.9, 10.0]]
    with_alloc = write_jmh("a.json", [make_jmh_entry("m", forks, alloc=24.0)])
    without = write_jmh("b.json", [make_jmh_entry("m", forks)])
    result = compare_specs(str(with_alloc), str(without), CompareOptions())
    assert [c.key.metric for c in result.comparisons] == [PRIMARY]
    assert [(u.key.metric, u.side) for u in result.unmatched] == [(ALLOC_NORM, "base")]
    only_alloc = compare_specs(
        str(with_alloc), str(with_alloc), CompareOptions(metrics=("\u00b7gc.alloc.rate.norm",))
    )
    assert [c.key.metric for c in only_alloc.comparisons] == [ALLOC_NORM]
    with pytest.raises(InputError, match=r"--metric gc\.nope: no result has this metric"):
        compare_specs(str(with_alloc), str(without), CompareOptions(metrics=("gc.nope",)))


def test_rounds_in_folders_add_forks(fixtures_dir, tmp_path, rerun) -> None:
    text = (fixtures_dir / "jmh" / "jmh-1.37-allmodes-gc.json").read_text()
    for side in ("base", "head"):
        (tmp_path / side).mkdir()
        for r in (1, 2):
            (tmp_path / side / f"{r}.json").write_text(rerun(text, 1 + r / 1000))
    result = compare_specs(str(tmp_path / "base"), str(tmp_path / "head"), CompareOptions())
    c = next(c for c in result.comparisons if c.key.mode == "thrpt" and c.key.metric == PRIMARY)
    assert c.base.forks == 4 and c.head.forks == 4 and c.base.iterations == 12
    assert c.jmh.recomputed is True
    # JMH's formula over pooled iterations: mean ± t(0.999, N-1) * sd / sqrt(N)
    values = np.concatenate(load_side(str(tmp_path / "base"))[c.key].forks)
    err = sp.t.ppf(0.9995, values.size - 1) * values.std(ddof=1) / math.sqrt(values.size)
    assert c.jmh.base_error == pytest.approx(err)


def test_invalid_options() -> None:
    with pytest.raises(InputError, match="--confidence"):
        compare_sides({}, {}, CompareOptions(confidence=1.5))
    with pytest.raises(InputError, match="--threshold"):
        compare_sides({}, {}, CompareOptions(threshold=-0.1))


# ----------------------------------------------------------------------------- document


def test_document_schema(stream_vs_loop) -> None:
    base, head = stream_vs_loop
    doc = compare_document(compare_specs(str(base), str(head), CompareOptions()))
    text = json.dumps(doc, allow_nan=False)  # strict JSON: no NaN/Infinity
    assert json.loads(text) == doc
    assert doc["schema"] == SCHEMA == "perfproof.compare/1"
    assert set(doc) >= {"schema", "comparisons", "unmatched"}
    required = {
        "benchmark", "mode", "params", "metric", "unit", "base", "head", "ratio", "ratio_ci",
        "delta_pct", "verdict", "p_adjusted", "family", "interval_confidence", "mde_pct", "jmh",
        "warnings",
    }  # fmt: skip
    for c in doc["comparisons"]:
        assert required <= set(c)
        assert set(c["base"]) >= {"estimate", "ci", "forks"} and len(c["base"]["ci"]) == 2
        assert c["params"] == {"n": "16"} and c["benchmark"] == "fx.Codes.empty"
        if is_gc_cost(c["metric"]):  # JMH printed no GC cost per operation
            assert c["jmh"] is None
        else:
            assert set(c["jmh"]) >= {"base_score", "base_error", "head_score", "head_error",
                                     "overlap"}  # fmt: skip
    assert [c["metric"] for c in doc["comparisons"]] == [
        "primary",
        "gc.alloc.rate.norm",
        "gc.time.norm",
        "gc.count.norm",
    ]
    assert doc["comparisons"][0]["verdict"] == "improved"


def test_document_unmatched_entries(fixtures_dir) -> None:
    doc = compare_document(
        compare_specs(
            str(fixtures_dir / "jmh" / "jmh-1.21-avgt-gc.json"),
            str(fixtures_dir / "jmh" / "jmh-1.37-allmodes-gc.json"),
            CompareOptions(),
        )
    )
    thr = next(u for u in doc["unmatched"] if u["benchmark"] == "fx.Thr.concat")
    assert thr == {
        "benchmark": "fx.Thr.concat",
        "mode": "thrpt",
        "params": {},
        "metric": "primary",
        "side": "head",
        "reason": "no result for this entry in base",
    }


def test_hopeless_design_says_so_instead_of_a_giant_percentage(fixtures_dir) -> None:
    from perfproof.compare import CompareOptions, compare_specs

    jmh = fixtures_dir / "jmh"
    result = compare_specs(
        str(jmh / "jmh-1.21-avgt-gc.json"), str(jmh / "jmh-1.37-allmodes-gc.json"), CompareOptions()
    )
    texts = [w for c in result.comparisons for w in c.warnings if "this design would see" in w]
    assert any("only a change past a thousand-fold" in w for w in texts)
    assert any("see a change outside" in w for w in texts)  # the workable design keeps its figure


@pytest.mark.parametrize("family", ["bh", "holm", "none"])
def test_the_interval_shown_is_the_one_the_verdict_was_decided_on(
    rng, make_forks, make_samples, family: str
) -> None:
    """A suite of large, small and no effects: whatever the procedure, an interval excluding 1
    goes with improved/regressed/negligible, and one containing 1 with same/inconclusive."""
    base, head = {}, {}
    levels = [100.0] * 8 + [60.0, 70.0, 80.0, 90.0, 97.0, 98.5, 99.0, 140.0]
    noise = ForkNoise(fork_sd=0.03)
    for i, level in enumerate(levels):
        b = make_samples(f"k{i:02d}", make_forks(rng, 3, 10, noise=noise))
        h = make_samples(f"k{i:02d}", make_forks(rng, 3, 10, level=level, noise=noise))
        base[b.key], head[h.key] = b, h
    result = compare_sides(base, head, CompareOptions(family=Family(family)))
    decided = {Verdict.IMPROVED, Verdict.REGRESSED, Verdict.NEGLIGIBLE}
    levels_seen = set()
    for c in result.comparisons:
        lo, hi = c.ratio_ci
        excludes = lo > 1 or hi < 1
        assert excludes == (c.verdict in decided), (c.key, c.verdict, c.ratio_ci)
        levels_seen.add(round(c.interval_confidence, 12))
    if family == "bh":
        assert len(levels_seen) == 1  # one false-coverage-adjusted level for the whole family
    if family == "none":
        assert levels_seen == {0.99}
    found = sum(c.verdict in (Verdict.IMPROVED, Verdict.REGRESSED) for c in result.comparisons)
    assert found >= (3 if family == "bh" else 2)


def test_notes_are_typed_and_match_the_warnings(stream_vs_loop) -> None:
    from perfproof.compare.notes import Kind

    base, head = stream_vs_loop
    doc = compare_document(compare_specs(str(base), str(head), CompareOptions()))
    for c in doc["comparisons"]:
        notes = c["diagnostics"]["notes"]
        assert [n["text"] for n in notes] == c["warnings"]
        assert {n["kind"] for n in notes} <= {str(k) for k in Kind}
    kinds = {n["kind"] for c in doc["comparisons"] for n in c["diagnostics"]["notes"]}
    assert {"exact", "unsettled"} <= kinds


def test_unmatched_sides_read_back_typed(fixtures_dir) -> None:
    from perfproof.model import Side
    from perfproof.model.documents.compare import CompareDocument

    result = compare_specs(
        str(fixtures_dir / "jmh" / "jmh-1.21-avgt-gc.json"),
        str(fixtures_dir / "jmh" / "jmh-1.37-allmodes-gc.json"),
        CompareOptions(),
    )
    doc = compare_document(result)
    back = CompareDocument.read(json.loads(json.dumps(doc)), "results.json")
    assert back.unmatched == list(result.unmatched)
    assert {u.side for u in back.unmatched} <= {Side.BASE, Side.HEAD}
    assert back.dump()["unmatched"] == doc["unmatched"]
    # an older writer listed labels only: no side, written back as it was read
    old = {**doc, "unmatched": ["fx.Thr.concat"]}
    legacy = CompareDocument.read(old, "results.json")
    assert legacy.unmatched[0].side is None
    assert legacy.dump()["unmatched"][0]["side"] == ""
    wrong = {**doc, "unmatched": [{**doc["unmatched"][0], "side": "both"}]}
    with pytest.raises(InputError, match=r"unmatched\[0\]\.side: expected base or head"):
        CompareDocument.read(wrong, "results.json")
