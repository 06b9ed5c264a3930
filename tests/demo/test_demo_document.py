"""``demo --format json``: one ``perfproof.demo/1`` document whose parts are written as their
own verbs write them (``ab``'s results, ``prove.json``, ``hunt.json``), and that reads back.

Made from recorded parts (the demo's two run folders and its prove bundle, a hunt with unknown
numbers), so it runs in milliseconds without Maven or a JVM."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace
from typing import cast

import pytest

from perfproof.cli.demo import print_outcome
from perfproof.demo.run import RUNS, DemoOutcome, demo_document
from perfproof.model.documents import dumps, loads_strict
from perfproof.model.documents.codec import decode_json
from perfproof.model.documents.compare import CompareDocument
from perfproof.model.documents.demo import SCHEMA, DemoDocument
from perfproof.model.documents.hunt import (
    ForkMean,
    GroupCost,
    HuntResult,
    Hypothesis,
    Workload,
    hunt_document,
    hypothesis_id,
)
from perfproof.model.documents.prove import read_prove
from perfproof.model.enums import Format

FIXTURES = Path(__file__).parent.parent / "fixtures"
RUN_FOLDERS = {"feature-vs-baseline": "demo-feature-vs-baseline", "aa-control": "demo-aa-control"}


def _hunt() -> HuntResult:
    """A hunt holding what its document writes as null: a cost of one recording (no interval,
    no standard error)."""
    frame = "perfdemo.ErrorReporter.report"
    cost = GroupCost("perfdemo.bench.ErrorReporterBench.report", ForkMean(0.4, None, None, 1),
                     None, ceiling=0.8, ceiling_discounted=0.8)  # fmt: skip
    hypothesis = Hypothesis(
        id=hypothesis_id(frame), rank=1, method="ErrorReporter.report", frame=frame,
        file="src/main/java/perfdemo/ErrorReporter.java", line=21, end_line=30,
        expected_gain=0.8, costs=(cost,), fact="allocates a String per call",
    )  # fmt: skip
    workload = Workload(kind="jmh", description="ErrorReporterBench", repo="/repo",
                        ref="baseline", sha="a" * 40, groups=[])  # fmt: skip
    return HuntResult(workload=workload, hypotheses=[hypothesis])


def _outcome(with_prove: bool) -> DemoOutcome:
    """A finished demo as far as its JSON reads it: the repository, each run's document, the
    prove chain and the hunts."""
    runs = {}
    for name, folder in RUN_FOLDERS.items():
        path = FIXTURES / "runs" / folder / "results.json"
        document = CompareDocument.read(json.loads(path.read_text()), str(path))
        runs[name] = SimpleNamespace(document=document)
    prove = SimpleNamespace(doc=read_prove(FIXTURES / "prove" / "demo-bundle" / "prove.json"))
    outcome = SimpleNamespace(
        repo=SimpleNamespace(path=Path("/home/dev/perfproof-demo/project")),
        runs=runs,
        prove=prove if with_prove else None,
        hunts={"baseline": SimpleNamespace(result=_hunt())},
    )
    return cast(DemoOutcome, outcome)


@pytest.mark.parametrize("with_prove", [True, False])
def test_each_part_is_written_as_its_own_document(
    with_prove: bool, capsys: pytest.CaptureFixture[str]
) -> None:
    outcome = _outcome(with_prove)
    print_outcome(outcome, Format.JSON)
    printed = capsys.readouterr().out
    parts = {
        "schema": SCHEMA,
        "project": "/home/dev/perfproof-demo/project",
        "runs": {name: outcome.runs[name].document.dump() for name, _, _ in RUNS},
        "prove": outcome.prove.doc.dump() if outcome.prove is not None else None,
        "hunt": {ref: hunt_document(h.result) for ref, h in outcome.hunts.items()},
    }
    assert printed == dumps(parts)
    assert (json.loads(printed)["prove"] is None) is not with_prove  # null, not left out


def test_the_document_reads_back_as_written() -> None:
    """Read as a hunt is read (its hypotheses are dataclasses: from JSON objects)."""
    written = dumps(demo_document(_outcome(True)).dump())
    doc = loads_strict(written, "demo.json")
    back = decode_json(DemoDocument, doc)
    assert back.prove is not None and back.prove.stages.report.status == "done"
    assert list(back.runs) == [name for name, _, _ in RUNS]
    assert back.hunt["baseline"].hypotheses[0].method == "ErrorReporter.report"
    assert dumps(back.dump()) == written
