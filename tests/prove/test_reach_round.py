"""``prove``'s reach round records one baseline fork of each dispatch-only benchmark and no
head fork: its run folder names the baseline alone, plans one step, resumes without measuring
again, judges from the baseline's recordings, and gives the profile stage nothing to reuse
(a replicate of the diff is a fork of each side)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import pytest

from perfproof.errors import InputError
from perfproof.measure.plan import parse_jmh_args
from perfproof.model.documents.prove_stages import (
    BenchmarksResult,
    ChangesResult,
    ReachedBenchmark,
)
from perfproof.model.documents.run import JavaInfo
from perfproof.pipeline.ab import recorded
from perfproof.pipeline.ab.options import AbOptions
from perfproof.pipeline.ab.run import resume_ab
from perfproof.pipeline.prove import dispatch
from perfproof.pipeline.prove.profile_forks import reusable_reach
from perfproof.report.rundir import read_manifest

from .conftest import commit

IDLE, BUSY = "acme.bench.ShapeBench.circles", "acme.bench.ShapeBench.squares"
RARE = "acme.bench.ShapeBench.mixed"
CHANGED = "acme.Square.area"
STACKS = {IDLE: "acme.Circle.area 400", BUSY: f"{CHANGED} 400"}
"""Each benchmark's collapsed stacks under its own frame: the circles never run the change,
the squares do."""


@dataclass
class _Bundle:
    path: Path

    def folder(self, name: str) -> Path:
        return self.path / name


def _fake_measuring(monkeypatch: pytest.MonkeyPatch, seen: dict[str, object]) -> None:
    """No JVM: the build, the listing and the scheduler stand in, saying what they were asked."""

    class Builder:
        def __init__(self, side: str, *args: object, **kwargs: object) -> None:
            seen.setdefault("built", []).append(side)  # type: ignore[attr-defined]

        def prepare(self, round_no: int | None = None) -> None: ...

        def launcher(self, step: object) -> list[str]:
            return []

        def jmh_version(self) -> str:
            return "1.37"

    class Scheduler:
        def __init__(self, store, targets, reporter, **kwargs) -> None:
            self.store = store
            seen["targets"] = sorted(targets)
            seen["jfr_dir"] = kwargs.get("jfr_dir")

        def run_pending(self) -> None:
            for step in self.store.pending_steps():
                seen.setdefault("ran", []).append(step.id)  # type: ignore[attr-defined]
                self.store.result_path(step).write_text("[]")  # a finished step's file

    jdk = JavaInfo(path="java", home="/jdk", vendor="", version="", runtime_version="",
                   vm_name="")  # fmt: skip
    monkeypatch.setattr(recorded, "java_info", lambda java=None: jdk)
    monkeypatch.setattr(recorded, "SideBuilder", Builder)
    monkeypatch.setattr(recorded, "Scheduler", Scheduler)
    monkeypatch.setattr(recorded, "list_side", lambda *a: ([IDLE], 1, []))


def test_the_reach_round_plans_and_runs_the_baseline_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = tmp_path / "repo"
    base = commit(repo, {"a.txt": "1"})
    head = commit(repo, {"a.txt": "2"})
    seen: dict[str, object] = {}
    _fake_measuring(monkeypatch, seen)
    ab = AbOptions(base=base, head=head, repo=str(repo), jmh_args=parse_jmh_args("-f 3 -wi 1"))
    folder = tmp_path / "bundle" / "reach"
    regexes = [f"^{IDLE}$"]
    assert recorded.recorded_side(folder, ab, regexes, "base", _Reporter()) == folder
    manifest = read_manifest(folder / "manifest.json")
    assert set(manifest.refs) == {"base"} and manifest.refs["base"].sha == base
    assert manifest.plan is not None
    assert [(s.side, s.round) for s in manifest.plan.steps] == [("base", 1)]
    options = list(manifest.plan.jmh_options)
    assert options[options.index("-f") + 1] == "1" and options.count("-f") == 1
    assert manifest.plan.benchmarks == regexes and manifest.options.jfr
    assert seen["built"] == ["base"] and seen["targets"] == ["base"]
    assert seen["ran"] == ["01-base"] and seen["jfr_dir"] == folder / "jfr"
    assert manifest.status == "done" and manifest.benchmarks == {"base": [IDLE]}
    # a resumed bundle finds the round done: nothing is built or run again
    seen.clear()
    assert recorded.recorded_side(folder, ab, regexes, "base", _Reporter()) == folder
    assert seen == {}
    # the folder is no A/B: ab --resume says so, and how the round is resumed
    with pytest.raises(InputError) as refused:
        resume_ab(folder, _Reporter())  # type: ignore[arg-type]
    said = str(refused.value)
    assert "records the base side alone" in said and "perfproof prove --resume" in said
    assert seen == {}


class _Reporter:
    def message(self, text: str) -> None: ...

    def close(self) -> None: ...


def _reach_folder(
    folder: Path, sides: tuple[str, ...], stacks: dict[str, str] | None = None
) -> None:
    """A finished reach round of ``sides``: one fork of each benchmark of ``stacks`` a side,
    its recording a collapsed-stack file, the A/B's build keys and JMH options, ``prim`` and
    ``gc.alloc.rate.norm`` for each fork."""
    stacks = STACKS if stacks is None else stacks
    (folder / "jmh").mkdir(parents=True, exist_ok=True)
    results = [
        {
            "benchmark": b, "mode": "avgt", "forks": 1,
            "primaryMetric": {"score": 1.0, "scoreUnit": "us/op", "rawData": [[1.0, 1.1]]},
            "secondaryMetrics": {"gc.alloc.rate.norm": {
                "score": 0.0, "scoreUnit": "B/op", "rawData": [[0.0, 0.0]]}},
        }
        for b in stacks
    ]  # fmt: skip
    steps, builds = [], []
    for side in sides:
        (folder / "jmh" / f"r1-{side}.json").write_text(json.dumps(results))
        recordings = []
        for n, (bench, lines) in enumerate(stacks.items(), 1):
            rel = f"jfr/r1-{side}/fork-{n}.collapsed"
            (folder / rel).parent.mkdir(parents=True, exist_ok=True)
            (folder / rel).write_text("".join(f"{bench};{x}\n" for x in lines.split(",")))
            recordings.append(rel)
        steps.append({"id": f"r1-{side}", "side": side, "round": 1, "status": "done",
                      "result": f"jmh/r1-{side}.json", "recordings": recordings})  # fmt: skip
        builds.append({"side": side, "key": f"k-{side}", "status": "done"})
    one = parse_jmh_args("-wi 1").with_forks(1)
    manifest = {
        "schema": "perfproof.run/1",
        "refs": {side: {"ref": side, "sha": side * 4} for side in sides},
        "plan": {
            "rounds": 1,
            "order": "abab",
            "stopping": "fixed",
            "jmh_options": list(one.options),
            "steps": [],
        },
        "steps": steps,
        "builds": builds,
    }
    (folder / "manifest.json").write_text(json.dumps(manifest))


def test_the_probe_records_the_baseline_and_leaves_out_what_never_runs_the_change(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    asked: list[tuple[str, tuple[str, ...]]] = []

    def record(folder: Path, ab: AbOptions, regexes, side: str, reporter) -> Path:
        asked.append((side, tuple(regexes)))
        # the mixed shapes run the change in 2 of 3,000 samples: at most 0.3 % of it
        _reach_folder(folder, (side,), {**STACKS, RARE: f"acme.Circle.area 2998,{CHANGED} 2"})
        return folder

    monkeypatch.setattr(dispatch, "recorded_side", record)
    via = "Shapes.total(Shape[]) → Shape.area()"
    reached = tuple(
        ReachedBenchmark(benchmark=b, path=(b, CHANGED), changed=CHANGED, via_dispatch=True,
                         dispatch=via)
        for b in (IDLE, BUSY, RARE)
    )  # fmt: skip
    benchmarks = BenchmarksResult(source="call graph", depth=6, reached=reached)
    method = {"class": "acme.Square", "name": "area", "params": [], "kind": "modified",
              "file": "Square.java", "lines": [1, 3]}  # fmt: skip
    changes = ChangesResult.model_validate({"methods": [method]})
    ab = AbOptions(base="b", head="h", jmh_args=parse_jmh_args("-wi 1"))
    bundle = _Bundle(tmp_path)
    probed, left_out = dispatch.probe_dispatch(bundle, ab, benchmarks, changes)  # type: ignore[arg-type]
    assert asked == [("base", tuple(r.regex for r in reached))]  # one side, the baseline
    assert probed == (IDLE, BUSY, RARE)
    said = capsys.readouterr().err
    assert "one recorded baseline fork of each of the 3 benchmark(s)" in said
    assert "in 1 JMH step (at least " in said and "@Param keys" in said
    skip, rare = left_out  # the squares run the change: measured
    assert skip.benchmark == IDLE and skip.cpu_samples == 400 and skip.cpu_inside == 0
    assert skip.recording == "reach/jfr/r1-base/fork-1.collapsed"
    assert "never sampled the changed code: 0 of 400 samples" in skip.reason
    assert rare.benchmark == RARE and (rare.cpu_inside, rare.cpu_samples) == (2, 3000)
    assert rare.ceiling is not None and rare.ceiling < ab.threshold
    assert rare.recording == "reach/jfr/r1-base/fork-3.collapsed"
    assert "the changed code is 2 of 3000 baseline samples" in rare.reason
    assert "under the 1% threshold" in rare.reason
    # a stricter threshold than the bound can clear measures the mixed shapes too
    strict = AbOptions(base="b", head="h", jmh_args=ab.jmh_args, threshold=0.002)
    _, left_out = dispatch.probe_dispatch(bundle, strict, benchmarks, changes)  # type: ignore[arg-type]
    assert [s.benchmark for s in left_out] == [IDLE]
    # the profile stage reuses no fork of a baseline-only round, however alike its builds
    _reach_folder(tmp_path / "ab", ("base", "head"))
    assert reusable_reach(bundle, ab, tmp_path / "ab") == {}  # type: ignore[arg-type]


def test_a_round_of_both_sides_lends_the_forks_each_side_has(tmp_path: Path) -> None:
    """A bundle an earlier perfproof began, with a reach round of both sides, keeps its
    reuse: the profile takes a fork of a key the round recorded on both sides."""
    bundle = _Bundle(tmp_path)
    _reach_folder(tmp_path / "reach", ("base", "head"))
    _reach_folder(tmp_path / "ab", ("base", "head"))
    ab = AbOptions(base="b", head="h", jmh_args=parse_jmh_args("-wi 1"))
    found = reusable_reach(bundle, ab, tmp_path / "ab")  # type: ignore[arg-type]
    assert found == {IDLE: 1, BUSY: 1}


def test_the_benchmark_list_says_which_dispatch_only_benchmarks_the_round_left_out(
    tmp_path: Path,
) -> None:
    """The benchmarks stage is written before the reach round runs; the PR body, written
    after, says of each dispatch-only benchmark what the round did with it, never "measured
    last" of one the A/B never ran."""
    from perfproof.model.documents.prove import ProveResults, ProveSettings
    from perfproof.model.documents.prove_measured import AbStageResult
    from perfproof.model.documents.prove_stages import DispatchSkip
    from perfproof.model.documents.run import SideRef
    from perfproof.pipeline.prove.bundle import Bundle
    from perfproof.render.prove import _benchmarks_md

    via = "Shapes.total(Shape[]) → Shape.area()"
    reached = tuple(
        ReachedBenchmark(benchmark=b, path=(b, CHANGED), changed=CHANGED, via_dispatch=True,
                         dispatch=via)
        for b in (IDLE, BUSY)
    )  # fmt: skip
    bundle = Bundle.create(
        tmp_path / "b", ProveSettings(), {"base": SideRef(ref="a"), "head": SideRef(ref="b")}
    )
    bundle.finish("benchmarks", BenchmarksResult(source="call graph", depth=6, reached=reached), 0)
    before = "\n".join(_benchmarks_md(ProveResults.of(bundle)))  # no A/B yet: its plan
    assert before.count("measured last (a budget cuts it first)") == 2
    skip = DispatchSkip(benchmark=IDLE, dispatch=via, cpu_samples=400, reason="never sampled")
    bundle.finish("ab", AbStageResult(run_dir="ab", left_out=(skip,), probed=(IDLE, BUSY)), 0)
    lines = {
        b: next(x for x in _benchmarks_md(ProveResults.of(bundle)) if x.startswith(f"- `{b}`"))
        for b in (IDLE, BUSY)
    }
    assert lines[IDLE].endswith(
        "the call graph cannot say it runs the changed override; its baseline recording left "
        "it out of the A/B (below)"
    )
    assert lines[BUSY].endswith("measured last (a budget cuts it first)")
