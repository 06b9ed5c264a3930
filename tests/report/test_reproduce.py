"""The Reproduce section gives back the JMH invocations the run made: the benchmark module's
jar on the classpath, every step's command with the rounds it ran in, and why a later round's
warm-up differs from the plan's."""

from __future__ import annotations

import json
import re
import shlex
import shutil
from pathlib import Path

from perfproof.report.context import build_context
from perfproof.report.reproduce import CLASSPATH_FLAGS
from perfproof.report.rundir import load_run

RUNS = Path(__file__).resolve().parents[1] / "fixtures" / "runs"


def _invocations(run_dir: Path) -> list[tuple[str, list[str]]]:
    """The JMH commands of the Reproduce steps, as argv lists with the classpath variables
    expanded, each with its caption."""
    ctx = build_context(load_run(run_dir))
    variables: dict[str, str] = {}
    out = []
    for step in ctx.reproduce:
        assignment = re.fullmatch(r"(CP_\w+)=(.*)", step.command)
        if assignment:
            variables[assignment.group(1)] = shlex.split(assignment.group(2))[0]
            continue
        if "org.openjdk.jmh.Main" not in step.command and "-jar" not in step.command:
            continue
        text = step.command
        for name, value in variables.items():
            text = text.replace(f'"${name}"', shlex.quote(value))
        out.append((step.caption, shlex.split(text)))
    return out


def _as_run(argv: list[str], run_dir: Path) -> list[str]:
    """A manifest step's argv as Reproduce writes it: the cache's build folders replaced by
    the reproduction checkout, the result file named after the step."""
    manifest = json.loads((run_dir / "manifest.json").read_text())
    out = list(argv)
    for build in manifest["builds"]:
        word = "baseline" if build["side"] == "base" else "feature"
        checkout = f"/tmp/perfproof-{word}-{build['sha'][:12]}"
        out = [re.sub(rf"/[^:\s]*/{build['key']}/files", checkout, a) for a in out]
    return out[: out.index("-rff")]


def test_every_step_is_given_back_with_the_benchmark_jar_first_on_its_classpath() -> None:
    run_dir = RUNS / "kryo-budget-cut-1-round"
    manifest = json.loads((run_dir / "manifest.json").read_text())
    got = _invocations(run_dir)
    assert len(got) == len(manifest["steps"])
    for (caption, argv), step in zip(got, manifest["steps"], strict=True):
        assert f"round {step['round']}" in caption
        cp = argv[argv.index("-cp") + 1].split(":")
        assert re.search(r"/tmp/perfproof-\w+-\w{12}/benchmarks/target/kryo-benchmarks-", cp[0])
        assert argv[: argv.index("-rff")] == _as_run(step["argv"], run_dir)
        assert argv[argv.index("-rff") + 1] == f"{step['id']}.json"
    assert "-cp" in CLASSPATH_FLAGS


def test_a_later_round_with_more_warm_up_says_why(tmp_path: Path) -> None:
    run_dir = tmp_path / "run"
    shutil.copytree(RUNS / "kryo-budget-cut-1-round", run_dir)
    path = run_dir / "manifest.json"
    manifest = json.loads(path.read_text())
    later = []
    for round_no in (2, 3):
        for step in manifest["steps"][:2]:
            s = json.loads(json.dumps(step))
            s["round"], s["id"] = round_no, f"0{round_no}-{step['side']}"
            argv = s["argv"]
            argv[argv.index("-wi") + 1] = "5"
            s["selection"] = {"benchmarks": ["x.BigDecimalBenchmark.read"], "params": {}}
            later.append(s)
    manifest["steps"] += later
    path.write_text(json.dumps(manifest))
    got = _invocations(run_dir)
    assert len(got) == 4  # round 1 of each side, then rounds 2–3 of each side once each
    captions = [c for c, _ in got]
    assert "rounds 2–3" in captions[2] and "rounds 2–3" in captions[3]
    for caption in captions[2:]:
        assert "`-wi 5` instead of the plan's `-wi 3`" in caption
        assert "read had started unsettled in round 1" in caption
    assert "instead of" not in captions[0]
