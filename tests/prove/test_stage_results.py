"""prove's typed stage results: prove.json keeps its shape, a reshaped one is refused naming
the field, and the A/B part of the PR body is the A/B report's own lines."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path

from perfproof.model.documents.prove import STAGES, ProveResults, ProveSettings, read_prove
from perfproof.model.documents.prove_measured import (
    AbStageResult,
    E2EStageResult,
    GuardStageResult,
    ProfileResult,
    ReportResult,
    TestsResult,
)
from perfproof.model.documents.prove_stages import (
    BenchmarksResult,
    CallersStageResult,
    ChangesResult,
)
from perfproof.model.documents.run import SideRef
from perfproof.model.enums import GuardKind
from perfproof.pipeline.prove.bundle import Bundle
from perfproof.render.prove import render_markdown
from perfproof.report import ab_section, render

from .conftest import commit, round_trip

LIB = """package p;
public class Codec {
    public int encode(int x) { return x * 2; }
    public int decode(int x) { return x / 2; }
}
"""
USE = """package p;
public class Use {
    int go(Codec c) { return c.encode(3) + c.decode(4); }
}
"""

TYPES = {
    "changes": ChangesResult,
    "callers": CallersStageResult,
    "benchmarks": BenchmarksResult,
    "guard": GuardStageResult,
    "ab": AbStageResult,
    "profile": ProfileResult,
    "tests": TestsResult,
    "e2e": E2EStageResult,
    "report": ReportResult,
}


def _prove(tmp_path: Path, run_cli, *flags: str) -> Path:
    repo = tmp_path / "repo"
    base = commit(repo, {"src/main/java/p/Codec.java": LIB, "src/main/java/p/Use.java": USE})
    head = commit(repo, {"src/main/java/p/Codec.java": LIB.replace("x * 2", "x << 1")})
    out = tmp_path / "bundle"
    res = run_cli("prove", "--repo", repo, "--base", base, "--head", head, "--out", out, *flags)
    assert res.code == 0, res.err
    if "md" in flags:  # the PR body as the report stage rendered it, which report.md holds
        assert res.out == (out / "report.md").read_text(encoding="utf-8")
        assert res.out.startswith("## Performance evidence:")
    return out


def test_every_finished_stage_reads_back_to_the_json_it_was_saved_as(
    tmp_path: Path, prove_cache: Path, run_cli
) -> None:
    out = _prove(tmp_path, run_cli, "--format", "md")
    raw = json.loads((out / "prove.json").read_text())
    doc = read_prove(out / "prove.json")
    assert doc.dump() == raw  # read and written back, nothing lost, nothing added
    done = [name for name in STAGES if doc.stages.entry(name).status == "done"]
    assert {"changes", "callers", "benchmarks", "report"} <= set(done)
    for name in done:
        stored = raw["stages"][name]["result"]
        result = doc.stages.entry(name).result
        assert isinstance(result, TYPES[name]), name
        assert round_trip(result) == result, name
        assert result.model_dump(mode="json") == stored, name
    callers = doc.stages.callers.done
    assert callers is not None
    (entry,) = callers.methods
    assert entry.method == "Codec.encode(int)" and entry.callers is not None
    assert entry.callers.production == 1 and entry.callers.sites[0].caller == "Use.go"
    report = doc.stages.report.done
    assert report is not None
    assert f"**Summary:** {report.summary}" in (out / "report.md").read_text()


def test_a_reshaped_stage_result_is_refused_naming_the_field(
    tmp_path: Path, prove_cache: Path, run_cli
) -> None:
    out = _prove(tmp_path, run_cli)
    doc = json.loads((out / "prove.json").read_text())
    doc["stages"]["changes"]["result"]["methods"][0]["kind"] = 5
    doc["stages"]["callers"] = {"status": "pending"}
    (out / "prove.json").write_text(json.dumps(doc))
    res = run_cli("prove", "--resume", out)
    assert res.code == 2, res.err
    (line,) = [x for x in res.err.splitlines() if x.startswith("perfproof: error: ")]
    assert f"{out / 'prove.json'}: stage changes: methods[0]: 'kind' is not a string" in line
    assert "Traceback" not in res.err


def test_the_ab_part_is_the_ab_reports_own_lines(
    tmp_path: Path, make_run_folder: Callable[[str], Path]
) -> None:
    run = make_run_folder("ab")
    own = render(run, "md")
    section = ab_section(run)
    assert f"**Summary:** {section.summary}\n" in own
    assert "\n".join(section.results) in own
    assert section.results[0].startswith(("#### ", "**Regressed:**"))
    assert "\n".join(section.methodology) in own
    assert section.methodology[-1].startswith("- **Statistics:**")
    assert "\n".join(section.reproduce) in own
    refs = {"base": SideRef(ref="a"), "head": SideRef(ref="b")}
    bundle = Bundle.create(tmp_path / "b", ProveSettings(), refs)
    body = render_markdown(ProveResults.of(bundle), section)
    assert section.summary in body.splitlines()[2]
    for part in (section.results, section.methodology, section.reproduce):
        assert "\n".join(part) in body


DEMO_BUNDLE = Path(__file__).parents[1] / "fixtures" / "prove" / "demo-bundle"


def test_a_stage_result_is_decoded_once_and_again_after_the_stage_runs(tmp_path: Path) -> None:
    """prove.json is decoded when the bundle opens: every reader gets the same typed result;
    a stage that runs again keeps its new result as --resume would read it back."""
    shutil.copytree(DEMO_BUNDLE, tmp_path / "b")
    bundle = Bundle.open(tmp_path / "b")
    first = bundle.doc.stages.ab.done
    assert isinstance(first, AbStageResult)
    assert ProveResults.of(bundle).ab is first and ProveResults.of(bundle).ab is first
    made = ChangesResult(files={"production": ["A.java"]})
    bundle.finish("changes", made, 0.0)
    again = ProveResults.of(bundle).changes
    assert again == made and again is not made and again.in_scope("production") == ("A.java",)
    assert Bundle.open(tmp_path / "b").doc.stages.changes.done == again
    bundle.skip("changes", "left out")
    assert bundle.doc.stages.changes.done is None
    assert (
        "result" not in json.loads((tmp_path / "b" / "prove.json").read_text())["stages"]["changes"]
    )


def test_the_prove_page_draws_the_ab_plots_from_the_ab_context(tmp_path: Path) -> None:
    """The plots are drawn from the A/B's report context, the way its own report.html draws
    them, so the page has them (with the styles they share) though that file was never
    written."""
    from perfproof.model.documents.prove import BundleView
    from perfproof.pipeline.prove.report import write_bundle_reports
    from perfproof.report import embedded_run

    shutil.copytree(DEMO_BUNDLE, tmp_path / "b")
    root = tmp_path / "b"
    assert not (root / "ab" / "report.html").exists()
    ab = embedded_run(root / "ab")
    results = ProveResults.of(BundleView(root, read_prove(root / "prove.json")))
    written = write_bundle_reports(results, ab)
    page = Path(written.html).read_text(encoding="utf-8")
    figures = ab.figures()
    assert len(figures.svgs) >= 2 and figures.forest is not None
    assert all(f"<figure>{svg}</figure>" in page for svg in figures.svgs)
    assert figures.css.splitlines()[0] in page
    assert page.index("Plots of the A/B run") < page.index("<h3>Allocation</h3>")
    assert not (root / "ab" / "report.html").exists()


def _with_guard(tmp_path: Path, kind: str) -> Path:
    """A copy of the demo bundle whose prove.json holds a finished guard stage of ``kind``."""
    bundle = tmp_path / kind
    shutil.copytree(DEMO_BUNDLE, bundle)
    doc = json.loads((bundle / "prove.json").read_text())
    row = {"benchmark": "p.B.run", "passed": True, "reason": "ratio 1.40"}
    guard = {"schema": "perfproof.guard/1", "verdict": "pass", "min_ratio": 1.05, "kind": kind,
             "rows": [row]}  # fmt: skip
    doc["stages"]["guard"] = {"status": "done", "result": {"run_dir": "guard", "document": guard}}
    (bundle / "prove.json").write_text(json.dumps(doc))
    return bundle


def test_the_guard_stage_kind_is_a_guard_metric_read_and_written_as_its_word(
    tmp_path: Path, run_cli
) -> None:
    for kind in GuardKind:
        bundle = _with_guard(tmp_path, kind.value)
        guard = read_prove(bundle / "prove.json").stages.guard.done
        assert guard is not None and guard.kind is kind
        written = read_prove(bundle / "prove.json").dump()["stages"]["guard"]
        assert written == json.loads((bundle / "prove.json").read_text())["stages"]["guard"]
        res = run_cli("report", bundle)
        assert res.code == 0, res.err
        assert f"feature by at least 1.05× ({kind.value})?" in res.out


def test_a_guard_kind_no_perfproof_writes_is_refused_naming_the_metrics(
    tmp_path: Path, run_cli
) -> None:
    bundle = _with_guard(tmp_path, "sideways")
    res = run_cli("report", bundle)
    assert res.code == 2 and "Traceback" not in res.err
    words = ", ".join(k.value for k in GuardKind)
    expected = f"{bundle / 'prove.json'}: stage guard: 'document.kind' is not one of {words}"
    assert f"perfproof: error: {expected} ('sideways')" in res.err.splitlines()
