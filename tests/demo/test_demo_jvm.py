"""``perfproof demo`` end to end, with tiny JMH settings (the real settings are for people)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytestmark = [pytest.mark.jvm, pytest.mark.slow, pytest.mark.timeout(480)]


def verdicts(run_dir: Path) -> dict[tuple[str, str], str]:
    doc = json.loads((run_dir / "results.json").read_text())
    return {
        (c["benchmark"].rsplit(".", 1)[-1], c["metric"]): c["verdict"] for c in doc["comparisons"]
    }


def test_demo_writes_project_and_both_runs(tiny_demo, run_cli, tmp_path: Path) -> None:
    out = tmp_path / "demo"
    res = run_cli("demo", "--out", out)
    assert res.code == 0, res.err
    assert (out / "project" / "pom.xml").is_file()
    main_run = out / "runs" / "feature-vs-baseline"
    control = out / "runs" / "aa-control"
    for run in (main_run, control):
        assert (run / "results.json").is_file() and (run / "report.md").is_file()
        assert str(run / "report.md") in res.out
    # allocation is deterministic, so even tiny settings must show it
    main = verdicts(main_run)
    assert main[("report", "gc.alloc.rate.norm")] == "improved"
    assert main[("publishNoListeners", "gc.alloc.rate.norm")] == "improved"
    calm = verdicts(control)
    assert len(calm) == 4
    assert not {v for v in calm.values()} & {"improved", "regressed"}
    # the sequential design: the many-fold effect of the event bus (an early return instead
    # of a stream pipeline) is decided before the last round; the A/A control has nothing to
    # find and runs to its last round
    stop = json.loads((main_run / "manifest.json").read_text())["stopping"]
    rounds = {k["key"].rsplit(".", 1)[1]: k["stopped_round"] for k in stop["keys"]}
    assert stop["design"] == "sequential" and rounds["publishNoListeners"] < stop["max_rounds"]
    calm_stop = json.loads((control / "manifest.json").read_text())["stopping"]
    assert calm_stop["rounds_run"] == calm_stop["max_rounds"]
    manifest = json.loads((control / "manifest.json").read_text())
    assert manifest["refs"]["base"]["ref"] == "feature"
    assert manifest["refs"]["head"]["ref"] == "docs-only"
    assert "A/A control" in res.out
    # the demo ends with the hunt that finds what the feature fixes, and sees it gone after
    hunt = json.loads((out / "hunt" / "baseline" / "hunt.json").read_text())
    assert [h["method"] for h in hunt["hypotheses"][:2]] in (
        ["ErrorReporter.report", "EventBus.publish"],
        ["EventBus.publish", "ErrorReporter.report"],
    )
    after = json.loads((out / "hunt" / "feature" / "hunt.json").read_text())
    gone = {c["method"] for c in after["changes"] if c["status"] in ("gone", "fell")}
    assert {"ErrorReporter.report", "EventBus.publish"} <= gone
    assert "hunt on the baseline" in res.out


def test_demo_refuses_a_non_empty_out(run_cli, tmp_path: Path) -> None:
    (tmp_path / "mine.txt").write_text("keep")
    res = run_cli("demo", "--out", tmp_path)
    assert res.code == 2 and "not empty" in res.err
    assert (tmp_path / "mine.txt").read_text() == "keep"


def test_demo_format_json_is_one_document_on_stdout(tiny_demo, run_cli, tmp_path: Path) -> None:
    out = tmp_path / "demo"
    res = run_cli("demo", "--out", out, "--format", "json")
    assert res.code == 0, res.err
    doc = json.loads(res.out)
    assert doc["schema"] == "perfproof.demo/1"
    assert doc["project"] == str((out / "project").resolve())
    assert list(doc["runs"]) == ["feature-vs-baseline", "aa-control"]
    for name, run in doc["runs"].items():
        assert run["schema"] == "perfproof.compare/1"
        assert run["run_dir"] == str((out / "runs" / name).resolve())
    assert "A/A control" not in res.out  # the tables are not printed with json
