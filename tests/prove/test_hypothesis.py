"""``prove --hypothesis ID --from HUNT``: the flags are checked before any build, and the
hunt's hypothesis is read, found and set beside what the change measured."""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path
from typing import cast

import pytest

from perfproof.errors import InputError
from perfproof.model.documents.hunt import (
    GroupCost,
    HuntResult,
    Hypothesis,
    Workload,
    hunt_document,
)
from perfproof.model.documents.prove_reach import KeyShare
from perfproof.pipeline.prove.hypothesis import (
    focus_of,
    hypothesis_focus,
    load_hypothesis,
)
from perfproof.profile.census import Census
from perfproof.render.prove_measured import hypothesis_lines

from .conftest import round_trip

BENCH = "perfdemo.bench.ErrorReporterBench.report"


def hypothesis(method: str, frame: str, gain: float, bench: str = BENCH) -> Hypothesis:
    from perfproof.model.documents.hunt import hypothesis_id

    return Hypothesis(
        id=hypothesis_id(frame),
        rank=1,
        method=method,
        frame=frame,
        file="src/main/java/perfdemo/ErrorReporter.java",
        line=21,
        end_line=30,
        expected_gain=gain,
        costs=(GroupCost(bench, None, None, ceiling=gain, ceiling_discounted=gain),),
        fact="allocates a String per call",
        benchmarks=(bench,),
    )


def write_hunt(folder: Path, *hyps: Hypothesis) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    workload = Workload(kind="jmh", description="ErrorReporterBench", repo="/repo",
                        ref="baseline", sha="a" * 40, groups=[])  # fmt: skip
    result = HuntResult(workload=workload, hypotheses=list(hyps))
    (folder / "hunt.json").write_text(json.dumps(hunt_document(result)))
    return folder


REPORT = hypothesis("ErrorReporter.report", "perfdemo.ErrorReporter.report", 0.8)
PUBLISH = hypothesis("EventBus.publish", "perfdemo.EventBus.publish", 0.3)


def test_found_by_id_or_method_from_the_folder_or_the_file(tmp_path: Path) -> None:
    hunt = write_hunt(tmp_path / "hunt", REPORT, PUBLISH)
    assert load_hypothesis(str(hunt), REPORT.id) == REPORT
    assert load_hypothesis(str(hunt / "hunt.json"), "EventBus.publish") == PUBLISH
    assert load_hypothesis(None, None) is None


@pytest.mark.parametrize(
    ("source", "wanted", "said"),
    [
        ("hunt", None, "--from HUNT needs --hypothesis"),
        (None, "H123", "--hypothesis H123 needs --from"),
        ("nowhere", "H123", "--from nowhere: no hunt.json"),
        ("hunt", "Hffffffffff", f"not one of its hypotheses .*{REPORT.id} \\(ErrorReporter"),
    ],
)
def test_bad_flags_are_named(tmp_path: Path, source, wanted, said, monkeypatch) -> None:
    write_hunt(tmp_path / "hunt", REPORT, PUBLISH)
    monkeypatch.chdir(tmp_path)
    with pytest.raises(InputError, match=said):
        load_hypothesis(source, wanted)


def test_a_malformed_hunt_is_bad_input(tmp_path: Path) -> None:
    (tmp_path / "hunt.json").write_text('{"schema": "perfproof.hunt/1", "hypotheses": [{}]}')
    with pytest.raises(InputError, match="malformed"):
        load_hypothesis(str(tmp_path), "H1")


def test_prove_refuses_bad_flags_before_building(run_cli, tmp_path: Path) -> None:
    res = run_cli("prove", "--repo", tmp_path, "--base", "a", "--head", "b",
                  "--hypothesis", "H1", "--from", tmp_path / "missing")  # fmt: skip
    assert res.code == 2
    assert res.err.splitlines() == [f"perfproof: error: --from {tmp_path / 'missing'}: no "
                                    "hunt.json (run perfproof hunt first)"]  # fmt: skip


def test_focus_puts_the_hypothesis_class_first_once() -> None:
    changed = ("perfdemo.EventBus", "perfdemo.ErrorReporter")
    assert focus_of(REPORT, changed) == ("perfdemo.ErrorReporter", "perfdemo.EventBus")
    assert focus_of(None, changed) == changed


class _Row:
    def __init__(self, kind: str, frame: str, total: float) -> None:
        self.kind, self.frame, self.total = kind, frame, total


class _Census:
    """The two fields of a census the focus reads: the sample total and the focus rows."""

    def __init__(self, cpu: int, rows: list[_Row]) -> None:
        self.cpu_samples, self.focus_rows = cpu, rows


def test_prediction_beside_measurement() -> None:
    census = _Census(200, [_Row("cpu", REPORT.frame, 150), _Row("alloc", REPORT.frame, 9)])
    gains = {BENCH: 3.0, "other.Bench.x": 9.0}
    got = hypothesis_focus(REPORT, "/h", cast(Census, census), gains, [REPORT.frame])
    assert got.cpu_share == pytest.approx(0.75) and got.touched
    assert got.benchmark == BENCH and got.per_call_gain == 3.0
    # Amdahl: 1 / (0.25 + 0.75 / 4) - 1
    assert got.ceiling_speedup == pytest.approx(1 / (0.25 + 0.75 / 4) - 1)
    assert round_trip(got) == got
    text = "\n".join(hypothesis_lines(got))
    assert REPORT.id in text and "75.0%" in text and "4.00× as fast" in text and "+128.6%" in text
    assert "does not edit" not in text
    elsewhere = hypothesis_focus(
        REPORT, "/h", cast(Census, census), {}, ["perfdemo.EventBus.publish"]
    )
    text = "\n".join(hypothesis_lines(elsewhere))
    assert not elsewhere.touched and "does not edit that method" in text
    assert "no benchmark the hunt names was measured" in text


def test_the_hunts_own_benchmark_gives_the_share_when_its_forks_hold_enough_samples() -> None:
    """A method can be most of one benchmark and nothing in the others: the hunt's benchmark's
    own forks give the share, and the ceiling is what removing the method would give it."""
    census = _Census(1000, [_Row("cpu", REPORT.frame, 100)])  # 10 % across every benchmark
    gains = {BENCH: 1.0}
    own = KeyShare(benchmark=BENCH, cpu_share=0.8, samples=400, ceiling=4.0, gain=1.0)
    got = hypothesis_focus(REPORT, "/h", cast(Census, census), gains, [REPORT.frame], own)
    assert got.cpu_share == pytest.approx(0.8) and got.share_of == BENCH
    assert got.ceiling_speedup == 4.0 and not got.beyond_ceiling
    text = "\n".join(hypothesis_lines(got))
    assert (
        f"forks of `{BENCH}` it held" in text and "80.0%" in text and "every profiled" not in text
    )
    assert "at most +400.0% faster" in text and "within it" in text
    assert round_trip(got) == got
    few = KeyShare(benchmark=BENCH, cpu_share=0.8, samples=50, ceiling=4.0, gain=1.0)  # too few
    pooled = hypothesis_focus(REPORT, "/h", cast(Census, census), gains, [REPORT.frame], few)
    assert pooled.cpu_share == pytest.approx(0.1) and pooled.share_of is None
    assert pooled.ceiling_speedup == pytest.approx(1 / (0.9 + 0.1 / 2) - 1)  # Amdahl
    assert "every profiled benchmark" in "\n".join(hypothesis_lines(pooled))


def test_a_gain_beyond_what_removing_the_method_could_give_is_said() -> None:
    """JCTools' OpenHashSet.contains: 3.4 % of its benchmark's samples (ceiling +5.3 %), yet
    the benchmark ran 1.52x as fast: the sampler cannot place a nanosecond call."""
    gains = {BENCH: 0.52}
    own = KeyShare(benchmark=BENCH, cpu_share=0.034, samples=940, ceiling=0.053, gain=0.52)
    got = hypothesis_focus(REPORT, "/h", None, gains, [REPORT.frame], own)
    assert got.beyond_ceiling
    text = "\n".join(hypothesis_lines(got))
    assert "**beyond that ceiling**" in text and "lower bound" in text


SET_FILES = {
    "src/main/java/p/OpenSet.java": """package p;
import java.util.AbstractSet;
import java.util.Iterator;
public class OpenSet<E> extends AbstractSet<E> {
    @Override public boolean contains(Object o) { return o == null; }
    @Override public Iterator<E> iterator() { return null; }
    @Override public int size() { return 0; }
}
""",
    "src/jmh/java/p/bench/SetBench.java": """package p.bench;
import java.util.Set;
import org.openjdk.jmh.annotations.*;
@State(Scope.Thread)
public class SetBench {
    @Param("p.OpenSet") String type;
    Set<Object> set;
    @Setup @SuppressWarnings("unchecked")
    public void make() throws Exception {
        set = (Set<Object>) Class.forName(type).getDeclaredConstructor().newInstance();
    }
    @Benchmark public boolean contains() {
        return java.util.Collections.unmodifiableSet(set).contains(this);
    }
}
""",
}
SET_BENCH = "p.bench.SetBench.contains"


def _set_hypothesis() -> Hypothesis:
    """What a hunt of SetBench records: the method's cost under the key (the call graph of
    the hunt found no benchmark reaching it)."""
    h = hypothesis(
        "OpenSet.contains", "p.OpenSet.contains", 0.4, f"{SET_BENCH}(type=p.OpenSet) [avgt]"
    )
    return dataclasses.replace(h, benchmarks=(), path=("SetBench.contains",))


def test_the_hunts_recordings_reach_what_the_call_graph_cannot(tmp_path: Path) -> None:
    """A call through a JDK wrapper (``Collections.unmodifiableSet``) of an instance made by
    reflection: no call path, yet the hunt's recordings saw the benchmark run the method, so
    prove measures it."""
    from tests.code.conftest import write_sources

    from perfproof.code.query import open_project
    from perfproof.model.changes import ChangedMethod
    from perfproof.model.documents.prove import ProveResults, ProveSettings
    from perfproof.model.documents.prove_stages import ChangesResult
    from perfproof.model.documents.run import SideRef
    from perfproof.pipeline.prove.bundle import Bundle
    from perfproof.pipeline.prove.code import benchmarks_stage
    from perfproof.render.prove import _benchmarks_md

    root = write_sources(tmp_path / "src", SET_FILES)
    project = open_project(root)
    edit = ChangedMethod("p.OpenSet", "contains", ("Object",), "modified",
                         "src/main/java/p/OpenSet.java", (5, 5))  # fmt: skip
    changes = ChangesResult(methods=(edit,), classes=("p.OpenSet",),
                            files={"production": (edit.file,)})  # fmt: skip
    plain = benchmarks_stage(project, root, changes, ())
    assert plain.reached == () and plain.unreached == (edit.label,)  # the call graph alone

    hunt = write_hunt(tmp_path / "hunt", _set_hypothesis())
    got = benchmarks_stage(project, root, changes, (), hunt=(_set_hypothesis(), str(hunt)))
    (reached,) = got.reached
    assert reached.benchmark == SET_BENCH and reached.changed == edit.label
    assert reached.path == ("SetBench.contains", edit.label)
    assert reached.seen_in == str(hunt / "hunt.json") and got.unreached == ()
    assert got.regexes == (f"^{re.escape(SET_BENCH)}$",)
    assert round_trip(reached) == reached
    bundle = Bundle.create(
        tmp_path / "b", ProveSettings(), {"base": SideRef(ref="a"), "head": SideRef(ref="b")}
    )
    bundle.finish("benchmarks", got, 0.1)
    text = "\n".join(_benchmarks_md(ProveResults.of(bundle)))
    assert f"`{SET_BENCH}`: `SetBench.contains` → `{edit.label}`" in text
    assert f"seen in the recordings of the hunt `{hunt / 'hunt.json'}`" in text

    other = ChangedMethod("p.OpenSet", "size", (), "modified", edit.file, (7, 7))
    elsewhere = ChangesResult(methods=(other,), classes=("p.OpenSet",),
                              files={"production": (edit.file,)})  # fmt: skip
    assert (
        benchmarks_stage(project, root, elsewhere, (), hunt=(_set_hypothesis(), "h")).reached == ()
    )
