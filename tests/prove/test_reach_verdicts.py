"""Verdicts the change can explain: reach per key, words as strong as the evidence, the count
apart, and the regression gate."""

from __future__ import annotations

from perfproof.model.documents.compare_wire import ComparisonDoc
from perfproof.model.documents.prove_measured import AbStageResult
from perfproof.model.documents.prove_reach import (
    KeyReach,
    reach_of_keys,
    unexplained_summary,
)
from perfproof.model.documents.reach import BenchReach
from perfproof.model.reach import Reach
from perfproof.pipeline.prove.measure import regression_gate
from perfproof.workspace.build_inputs import read_files

from .conftest import round_trip, wire_row

QUEUE = "jctools.bench.QueueThroughput.offer"
CODEC = "acme.bench.CodecBench.encode"
PATH = ("CodecBench.encode(Blackhole)", "Codec.encode(byte[])")


def _cmp(bench: str, verdict: str, metric: str = "primary") -> ComparisonDoc:
    return wire_row(benchmark=bench, verdict=verdict, metric=metric)


def test_an_unreached_key_cannot_explain_a_moved_verdict():
    keys = reach_of_keys(
        [_cmp(QUEUE, "regressed"), _cmp(CODEC, "improved"), _cmp(QUEUE, "regressed", "gc")],
        {CODEC: PATH},
        read_files(["README.md", "docs/queue.adoc"], {}),  # documentation moves nothing
        depth=6,
    )
    by = {k.benchmark: k for k in keys}
    assert len(keys) == 2  # secondary metrics are judged with their key
    assert by[CODEC].reached and by[CODEC].path == PATH and not by[CODEC].unexplained
    # the call graph alone finds no path: said as such, never "not explained" or "noise"
    assert not by[QUEUE].reached and not by[QUEUE].unexplained and by[QUEUE].unconfirmed
    assert "no static call path found within 6 calls" in by[QUEUE].why
    assert "reflection, lambdas, dynamic dispatch or field types" in by[QUEUE].why
    assert "noise" not in by[QUEUE].why
    # a verdict that claims nothing needs no explanation
    (quiet,) = reach_of_keys([_cmp(QUEUE, "same")], {}, ())
    assert not quiet.reached and not quiet.unexplained


def test_a_change_outside_the_java_sources_or_to_the_benchmark_itself_reaches_it():
    (build,) = reach_of_keys([_cmp(QUEUE, "regressed")], {}, read_files(["pom.xml", "A.java"], {}))
    assert build.reached and not build.unexplained and "pom.xml" in build.why
    own = "src/jmh/java/jctools/bench/QueueThroughput.java"
    (bench,) = reach_of_keys([_cmp(QUEUE, "regressed")], {}, (), bench_files=[own])
    assert bench.reached and own in bench.why
    assert round_trip(bench) == bench


def _recorded_absent(bench: str, verdict: str) -> KeyReach:
    why = "its baseline recording has 412 CPU samples and none in the changed code"
    return KeyReach.of(BenchReach(benchmark=bench, kind=Reach.NOT_RECORDED, why=why), verdict)


def test_the_summary_counts_verdicts_apart_in_words_of_their_evidence():
    keys = reach_of_keys(
        [_cmp(QUEUE, "regressed"), _cmp(CODEC, "regressed"), _cmp("x.Y.z", "improved")],
        {CODEC: PATH},
        (),
    )
    assert unexplained_summary(keys, "Reach") == (
        "1 regression and 1 improvement with no static call path found to the change, not "
        "confirmed by a recording — see Reach"
    )
    assert unexplained_summary(keys[1:2], "Reach") is None
    shown = (_recorded_absent(QUEUE, "regressed"), *keys[1:])
    assert unexplained_summary(shown, "Reach") == (
        "1 regression not explained by the change; 1 improvement with no static call path "
        "found to the change, not confirmed by a recording — see Reach"
    )
    assert round_trip(shown[0]) == shown[0]
    assert shown[0].model_dump()["kind"] == "not in a recording"
    # a recording that runs the changed code explains the verdict: nothing to count apart
    seen = KeyReach.of(
        BenchReach(benchmark=QUEUE, kind=Reach.RECORDED, why="its base recording runs it"),
        "improved",
    )
    assert seen.reached and not seen.unexplained and not seen.unconfirmed
    assert unexplained_summary((seen,), "Reach") is None


def _ab(regressed: tuple[str, ...], reach: tuple[KeyReach, ...]) -> AbStageResult:
    return AbStageResult(run_dir="run", report="report.md", regressed=regressed, reach=reach)


def test_the_gate_fails_on_an_unexplained_regression_unless_told_to_gate_explained_only():
    keys = (_recorded_absent(QUEUE, "regressed"),)
    ab = _ab((QUEUE + "(capacity=128)",), keys)
    (fail,) = regression_gate(ab, True, "any")
    assert "1 not explained by the change" in fail and "--gate explained" in fail
    assert regression_gate(ab, True, "explained") == []
    assert regression_gate(ab, False, "explained") == []
    assert regression_gate(ab, False, "any") == []  # no gate asked for


def test_gate_explained_still_fails_on_a_regression_the_change_reaches():
    keys = reach_of_keys([_cmp(CODEC, "regressed")], {CODEC: PATH}, ())
    keys = (_recorded_absent(QUEUE, "regressed"), *keys)
    ab = _ab((QUEUE, CODEC), keys)
    assert ab.explained_regressed == (CODEC,)
    # no static path is no evidence: --gate explained still fails on such a regression
    unconfirmed = reach_of_keys([_cmp(QUEUE, "regressed")], {}, ())
    assert _ab((QUEUE,), unconfirmed).explained_regressed == (QUEUE,)
    assert regression_gate(ab, False, "explained") == [f"regression: {CODEC}"]
    assert round_trip(ab).reach == keys


def test_the_gate_says_it_could_not_look_at_a_key_the_budget_left_at_one_fork():
    """No regression, but one key the run ended before it had 2 forks a side: the gate fails
    and says why, instead of passing silently; a key with 3 forks a side left undecided by the
    budget does not fail it (its interval bounds the change)."""
    from perfproof.compare.undecided import undecided_note

    def comparison(forks: int) -> ComparisonDoc:
        return wire_row(
            benchmark=QUEUE, params={"capacity": str(forks)}, metric="primary",
            base={"forks": forks}, head={"forks": forks}, verdict="inconclusive",
            warnings=[undecided_note(forks, "budget ended")],
        )  # fmt: skip

    one = AbStageResult(run_dir="run", report="report.md", comparisons=(comparison(1),))
    (fail,) = regression_gate(one, True, "any")
    assert "could not look at 1 key(s)" in fail and f"{QUEUE}(capacity=1)" in fail
    assert regression_gate(one, False, "any") == []
    three = AbStageResult(run_dir="run", report="report.md", comparisons=(comparison(3),))
    assert regression_gate(three, True, "any") == []
