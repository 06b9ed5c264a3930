"""``perfproof demo`` end to end, with tiny JMH settings (the real settings are for people).

The demo is run once for the module (its builds, three A/B runs and two hunts are most of a
minute and a half even with tiny settings): with ``--format json``, through the real command,
so the one-document promise on stdout is checked end to end; the text the command prints
instead is the same finished outcome shown by ``print_outcome`` in ``table`` format, the
function the command calls.
"""

from __future__ import annotations

import contextlib
import io
import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from perfproof.cli import main
from perfproof.cli.demo import print_outcome
from perfproof.demo.run import DemoOutcome
from perfproof.model.enums import Format

pytestmark = [pytest.mark.jvm, pytest.mark.slow, pytest.mark.timeout(480)]


@dataclass(frozen=True)
class DemoRun:
    """One real ``perfproof demo --out OUT --format json``: exit code, streams, outcome."""

    out: Path
    code: int
    stdout: str
    stderr: str
    outcome: DemoOutcome | None
    """What ``run_demo`` returned (None if it raised)."""


@pytest.fixture(scope="module")
def demo_run(demo_cache: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[DemoRun]:
    """The demo's own code path with settings small enough for a test (4 rounds, 0.1 s),
    run once through the real command; the outcome it printed is kept for the text view."""
    import perfproof.demo.run as demo

    out = tmp_path_factory.mktemp("demo") / "demo"
    kept: list[DemoOutcome] = []
    real = demo.run_demo

    def keep(*args, **kwargs) -> DemoOutcome:  # the real run, its outcome kept
        kept.append(real(*args, **kwargs))
        return kept[-1]

    stdout, stderr = io.StringIO(), io.StringIO()
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("XDG_CACHE_HOME", str(demo_cache))
        mp.setattr(demo, "DEMO_MAX_ROUNDS", 4)
        mp.setattr(demo, "DEMO_JMH_ARGS", "-wi 1 -w 100ms -i 2 -r 100ms")
        mp.setattr(demo, "run_demo", keep)
        with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr):
            code = main(["demo", "--out", str(out), "--format", "json"])
    yield DemoRun(out, code, stdout.getvalue(), stderr.getvalue(), kept[0] if kept else None)


def verdicts(run_dir: Path) -> dict[tuple[str, str], str]:
    doc = json.loads((run_dir / "results.json").read_text())
    return {
        (c["benchmark"].rsplit(".", 1)[-1], c["metric"]): c["verdict"] for c in doc["comparisons"]
    }


def test_demo_writes_project_and_both_runs(
    demo_run: DemoRun, capsys: pytest.CaptureFixture[str]
) -> None:
    out = demo_run.out
    assert demo_run.code == 0 and demo_run.outcome is not None, demo_run.stderr
    print_outcome(demo_run.outcome, Format.TABLE)  # what `perfproof demo` prints without --format
    res = capsys.readouterr()
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
    calm = {k: v for k, v in verdicts(control).items() if k[1] in ("primary", "gc.alloc.rate.norm")}
    assert len(calm) == 4  # time and bytes/op of two keys (beside them the costs families)
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


def test_demo_format_json_is_one_document_on_stdout(demo_run: DemoRun) -> None:
    out, res = demo_run.out, demo_run
    assert res.code == 0, res.stderr
    doc = json.loads(res.stdout)
    assert doc["schema"] == "perfproof.demo/1"
    assert doc["project"] == str((out / "project").resolve())
    assert list(doc["runs"]) == ["feature-vs-baseline", "aa-control"]
    for name, run in doc["runs"].items():
        assert run["schema"] == "perfproof.compare/1"
        assert run["run_dir"] == str((out / "runs" / name).resolve())
    assert "A/A control" not in res.stdout  # the tables are not printed with json
