"""``ab``'s last step before its report: which decided keys are recorded, and what a verdict
says when they are not (``--explain off``, a budget with no time left, a recording that
failed). The recorder is a stand-in here; the real one runs in ``test_ab_explain_jvm``."""

from __future__ import annotations

import io
from pathlib import Path

from tests.measure.test_rounds import new_store

from perfproof.measure.progress import PlainReporter
from perfproof.model.documents.compare import CompareDocument
from perfproof.model.documents.prove_reach import bench_reach
from perfproof.model.documents.reach import BenchReach, RunReach
from perfproof.model.reach import Reach
from perfproof.pipeline.ab.options import AbOptions, Explain
from perfproof.pipeline.ab.reach import explain_run, to_record

from .conftest import compare_doc

HIDDEN = "fx.Codes.loopEmpty"
DIRECT = "fx.Codes.sum"


def _document() -> CompareDocument:
    return compare_doc([
            {"benchmark": HIDDEN, "metric": "primary", "verdict": "improved",
             "params": {"n": "16"}},
            {"benchmark": HIDDEN, "metric": "primary", "verdict": "same", "params": {"n": "128"}},
            {"benchmark": DIRECT, "metric": "primary", "verdict": "regressed",
             "params": {"n": "16"}},
    ])  # fmt: skip


def _store(tmp_path: Path, **plan_kw):
    store = new_store(tmp_path, **plan_kw)
    reach = RunReach(benchmarks={
        HIDDEN: bench_reach(HIDDEN, {}, (), depth=6),
        DIRECT: bench_reach(DIRECT, {DIRECT: ("Codes.sum()", "Sum.add(int)")}, ()),
    })  # fmt: skip
    store.manifest.reach = reach
    return store


def _notes(doc: CompareDocument) -> list[tuple[str, str]]:
    return [(str(n.kind), n.text) for c in doc.comparisons
            for n in c.diagnostics.notes or ()]  # fmt: skip


def test_only_decided_keys_with_no_static_path_are_recorded(tmp_path: Path) -> None:
    store = _store(tmp_path)
    assert store.manifest.reach is not None
    reach = store.manifest.reach
    assert to_record(_document(), reach) == [HIDDEN]
    asked = []

    def recorder(store, opts, reach, benchmarks, rep):
        asked.append(list(benchmarks))
        seen = BenchReach(
            benchmark=HIDDEN, kind=Reach.RECORDED, why="its base recording runs the changed code"
        )
        return RunReach(
            benchmarks=reach.benchmarks, recorded="explain", recorded_s=9.0
        ).with_recordings([seen])

    given = _document()
    doc = explain_run(given, store, AbOptions("a", "b"), PlainReporter(io.StringIO()), recorder)
    assert given == _document()  # annotated as a new document, the given one left as it was
    assert asked == [[HIDDEN]]
    assert _notes(doc) == []  # seen running the change: the verdict needs no word
    assert doc.dump()["comparisons"][0]["reach"]["kind"] == "seen in a recording"
    assert store.manifest.reach.recorded == "explain"
    # a second pass (a resumed run) records nothing again
    explain_run(_document(), store, AbOptions("a", "b"), PlainReporter(io.StringIO()), recorder)
    assert len(asked) == 1


def test_without_a_recording_the_note_says_no_static_path_and_why_none(tmp_path: Path) -> None:
    def failing(*_a):
        raise RuntimeError("JMH vanished")

    cases = [
        (_store(tmp_path / "off"), AbOptions("a", "b", explain=Explain.OFF), None,
         "not recorded: --explain off"),
        (_store(tmp_path / "budget", budget_s=5.0), AbOptions("a", "b"), failing,
         "not recorded: --budget 5s leaves"),
        (_store(tmp_path / "broken"), AbOptions("a", "b"), failing,
         "not recorded: the recording failed: RuntimeError: JMH vanished"),
    ]  # fmt: skip
    for store, opts, recorder, said in cases:
        doc = explain_run(_document(), store, opts, PlainReporter(io.StringIO()), recorder)
        (note,) = _notes(doc)
        assert note[0] == "no-static-path"
        assert note[1].startswith("improved, but no static call path found within 6 calls")
        assert said in note[1] and "noise" not in note[1] and "not explained" not in note[1]
