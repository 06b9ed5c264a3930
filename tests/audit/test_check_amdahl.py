"""``check`` holds a prove body's Amdahl rows to its own verdicts: a per-call speed-up the
decided keys reaching the method deny fails, even when the bundle itself holds it."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from perfproof.audit.check import check_text, load_evidence
from perfproof.model.documents.prove import BundleView, ProveResults, read_prove
from perfproof.pipeline.prove.report import write_bundle_reports
from perfproof.report import embedded_run

FIXTURES = Path(__file__).parents[1] / "fixtures"
METHOD = "ErrorReporter.report(short)"


def _bundle(tmp_path: Path, gain: float | None, both_ways: bool = False) -> Path:
    """The demo bundle with the Amdahl row of ``METHOD`` given ``gain``, its PR body written
    from it by prove's own report stage (so the body is the bundle's, number for number);
    ``both_ways``: the event bus benchmark reaches ``METHOD`` too, its time regressed 1.5×."""
    bundle = tmp_path / "bundle"
    shutil.copytree(FIXTURES / "prove" / "demo-bundle", bundle)
    doc = json.loads((bundle / "prove.json").read_text())
    if both_ways:
        bus = "perfdemo.bench.EventBusBench.publishNoListeners"
        for r in doc["stages"]["benchmarks"]["result"]["reached"]:
            if r["benchmark"] == bus:
                r["path"] = [*r["path"], METHOD]
        for c in doc["stages"]["ab"]["result"]["comparisons"]:
            if c["benchmark"] == bus and c["metric"] == "primary":
                c["verdict"], c["ratio"] = "regressed", 1.5
    for row in doc["stages"]["profile"]["result"]["amdahl"]:
        if row["method"] == METHOD:
            row["per_call_gain"] = gain
    (bundle / "prove.json").write_text(json.dumps(doc))
    view = ProveResults.of(BundleView(bundle, read_prove(bundle / "prove.json")))
    write_bundle_reports(view, embedded_run(bundle / "ab"))
    return bundle


def test_a_speed_up_the_verdicts_contradict_fails_check(tmp_path: Path) -> None:
    """The demo bundle as recorded passes (``test_check_every_number``); the same bundle with
    the issue's "0.893× as fast" beside a verdict of 71× as fast does not."""
    bundle = _bundle(tmp_path, 0.893 - 1)
    text = (bundle / "report.md").read_text()
    assert "0.893× as fast" in text
    result = check_text(text, load_evidence(bundle))
    (bad,) = [m for m in result.mismatches if m.kind == "amdahl"]
    assert bad.quoted == "0.893× as fast" and bad.expected == "71.3× as fast"
    assert METHOD in bad.message and "1 decided key(s)" in bad.message


def test_one_speed_up_for_keys_moved_both_ways_fails_check(tmp_path: Path) -> None:
    """A method one key made 71× as fast and another 1.5× as slow has no per-call speed-up:
    their geometric mean lies between them, inside the verdicts' range, and no key measured it."""
    bundle = _bundle(tmp_path, 8.0 - 1, both_ways=True)
    text = (bundle / "report.md").read_text()
    result = check_text(text, load_evidence(bundle))
    (bad,) = [m for m in result.mismatches if m.kind == "amdahl" and METHOD in m.message]
    assert bad.quoted == "8.00× as fast" and bad.expected == "–"
    assert "moved both ways (1 improved, 1 regressed)" in bad.message
