"""``perfproof hunt --jfr`` end to end on the demo's sources with collapsed stacks: the files
it writes, what --top and --compare do, and one-line refusals of bad workloads."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from perfproof.demo.project import write_demo_repo

STUB = "perfdemo.bench.jmh_generated.X_jmhTest"
LOOP = f"java.lang.Thread.run;{STUB}.report_AverageTime;{STUB}.report_avgt_jmhStub"


def stacks(report: int, publish: int, setup: int = 0) -> str:
    lines = [
        f"{LOOP};perfdemo.bench.ErrorReporterBench.report;perfdemo.ErrorReporter.report;"
        f"java.util.HashMap.merge {report}",
        f"{LOOP};perfdemo.bench.EventBusBench.publishNoListeners;perfdemo.EventBus.publish;"
        f"java.util.stream.ReferencePipeline.collect {publish}",
        f"{LOOP};perfdemo.bench.EventBusBench.publishNoListeners;"
        "perfdemo.EventBus.lambda$publish$0 3",
        f"{LOOP};org.openjdk.jmh.infra.Blackhole.consume 20",
    ]
    if setup:
        lines.append(
            f"java.lang.Thread.run;{STUB}._jmh_tryInit_f_x0_0;perfdemo.bench.ErrorReporterBench.setup;"
            f"perfdemo.ErrorReporter.<init> {setup}"
        )
    return "\n".join(lines) + "\n"


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_demo_repo(tmp_path_factory.mktemp("demo") / "project").path


def test_ranked_hypotheses_with_file_line_pattern_and_prove_line(
    run_cli, demo: Path, tmp_path: Path
) -> None:
    files = []
    for i, (r, p) in enumerate([(300, 100), (320, 90), (310, 110)]):
        f = tmp_path / f"f{i}.collapsed"
        f.write_text(stacks(r, p, setup=5000))
        files.append(f)
    args = ["hunt", "--repo", demo, "--ref", "baseline", "--out", tmp_path / "h"]
    for f in files:
        args += ["--jfr", f]
    res = run_cli(*args, "--top", "1")
    assert res.code == 0, res.err
    # --top limits what is printed ...
    assert "ErrorReporter.report" in res.out and "EventBus.publish" not in res.out
    doc = json.loads((tmp_path / "h" / "hunt.json").read_text())
    # ... never what is stored
    assert doc["schema"] == "perfproof.hunt/1"
    methods = [h["method"] for h in doc["hypotheses"]]
    assert methods == ["ErrorReporter.report", "EventBus.publish"]
    first = doc["hypotheses"][0]
    assert first["file"] == "src/main/java/perfdemo/ErrorReporter.java"
    assert (first["line"], first["end_line"]) == (25, 32)
    assert first["costs"][0]["cpu_share"]["forks"] == 3
    assert first["costs"][0]["cpu_share"]["lo"] < first["costs"][0]["cpu_share"]["mean"]
    assert first["benchmarks"] == ["perfdemo.bench.ErrorReporterBench.report"]
    assert "--bench" in first["prove"] and "ErrorReporterBench" in first["prove"]
    assert doc["hypotheses"][1]["pattern"]["rule"] == "stream-on-empty"
    # the set-up's 5000 samples dwarf everything, yet they are a row of their own
    labels = [o["label"] for o in doc["other"]]
    assert "JMH @Setup/@TearDown" in labels
    assert all("setup" not in h["method"] for h in doc["hypotheses"])
    for name in ("hunt.md", "hunt.html", "flamegraph.html"):
        assert (tmp_path / "h" / name).stat().st_size > 0
    assert "<iframe" in (tmp_path / "h" / "hunt.html").read_text()
    md = (tmp_path / "h" / "hunt.md").read_text()
    assert "### 1. `ErrorReporter.report` — src/main/java/perfdemo/ErrorReporter.java:25-32" in md
    assert "### 2. `EventBus.publish`" in md and "stream-on-empty" in md
    assert "- Production callers: none" in md and "perfproof prove --repo" in md
    assert md.index("### Not hypotheses") > md.index("### 2.")
    json.loads((tmp_path / "h" / "hunt.json").read_text(), parse_constant=pytest.fail)


def test_compare_names_what_a_fix_removed(run_cli, demo: Path, tmp_path: Path) -> None:
    before, after = tmp_path / "before.collapsed", tmp_path / "after.collapsed"
    before.write_text(stacks(300, 100))
    after.write_text(stacks(0, 100).replace("ErrorReporter.report;java.util.HashMap.merge 0\n", ""))
    assert run_cli("hunt", "--repo", demo, "--jfr", before, "--out", tmp_path / "a").code == 0
    res = run_cli(
        "hunt", "--repo", demo, "--jfr", after, "--out", tmp_path / "b",
        "--compare", tmp_path / "a", "--format", "json",
    )  # fmt: skip
    assert res.code == 0, res.err
    changes = {c["method"]: c["status"] for c in json.loads(res.out)["changes"]}
    assert changes["ErrorReporter.report"] == "gone"  # absent from the new hunt
    assert changes["EventBus.publish"] in ("same", "changed")


@pytest.mark.parametrize(
    ("extra", "words"),
    [
        (["--jfr", "missing.jfr"], "missing.jfr: no such file"),
        (["--jfr", "x.collapsed", "--run", "true"], "give one"),
        (["--jfr", "x.collapsed", "--bench", "Foo"], "--bench"),
        (["--jfr", "x.collapsed", "--compare", "nowhere.json"], "--compare"),
        (["--jfr", "x.collapsed", "--base", "HEAD"], "--base"),
        (["--base", "no-such-ref-anywhere"], "no-such-ref-anywhere"),
        (["--ref", "no-such-ref", "--jfr", "x.collapsed"], "no-such-ref"),
    ],
)
def test_bad_workloads_are_one_line_exit_2(
    run_cli, demo: Path, tmp_path: Path, monkeypatch, extra, words
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "x.collapsed").write_text(stacks(10, 10))
    res = run_cli("hunt", "--repo", demo, "--out", tmp_path / "o", *extra)
    assert res.code == 2
    lines = res.err.strip().splitlines()
    assert lines[-1].startswith("perfproof: error:") and words in lines[-1]


def test_a_truncated_recording_exits_2(run_cli, demo: Path, tmp_path: Path) -> None:
    bad = tmp_path / "cut.jfr"
    bad.write_bytes(b"FLR\0" + b"\0" * 20)
    res = run_cli("hunt", "--repo", demo, "--jfr", bad, "--out", tmp_path / "o")
    assert res.code == 2
    assert "cut.jfr" in res.err.strip().splitlines()[-1]


def test_recordings_of_both_sides_of_an_ab_run_are_named(
    run_cli, demo: Path, tmp_path: Path
) -> None:
    # the head's step ran in parts: its folder is r1-head-p2
    for side, folder in (("base", "r1-base"), ("head", "r1-head-p2")):
        (tmp_path / "jfr" / folder).mkdir(parents=True)
        # two forks never record the same bytes: a copy would be refused as given twice
        weight = 10 if side == "base" else 11
        (tmp_path / "jfr" / folder / "fork-1.collapsed").write_text(stacks(weight, 10))
    files = sorted((tmp_path / "jfr").rglob("*.collapsed"))
    res = run_cli("hunt", "--repo", demo, "--jfr", files[0], "--jfr", files[1],
                  "--out", tmp_path / "o", "--format", "json")  # fmt: skip
    assert res.code == 0, res.err
    [warning] = [w for w in json.loads(res.out)["warnings"] if "sides of an A/B run" in w]
    assert "base, head" in warning


def test_a_recording_given_twice_is_refused_as_profile_refuses_it(
    run_cli, demo: Path, tmp_path: Path
) -> None:
    """One recording counted as two forks would narrow every share's interval to nothing."""
    one = tmp_path / "a.collapsed"
    one.write_text(stacks(300, 100))
    copy = tmp_path / "copy.collapsed"
    copy.write_bytes(one.read_bytes())
    link = tmp_path / "link.collapsed"
    link.symlink_to(one)
    folder = tmp_path / "recs"
    folder.mkdir()
    (folder / "fork-1.jfr").write_bytes(b"FLR\0" + b"\1" * 60)
    for pair in ((one, one), (one, copy), (one, link), (folder, folder / "fork-1.jfr")):
        out = tmp_path / f"out-{pair[1].name}"
        res = run_cli("hunt", "--repo", demo, "--jfr", pair[0], "--jfr", pair[1], "--out", out)
        assert res.code == 2, res.err
        [line] = res.err.strip().splitlines()
        assert line.startswith("perfproof: error: --jfr: ") and "is the same recording as" in line
        assert not out.exists()


def test_a_stack_deeper_than_the_recursion_limit_is_hunted(
    run_cli, demo: Path, tmp_path: Path
) -> None:
    """JFR keeps up to 2048 frames (--stack-depth); the flame graph is built without recursion."""
    chain = ";".join(f"perfdemo.Deep.level{i}" for i in range(2048))
    deep = tmp_path / "deep.collapsed"
    deep.write_text(f"{LOOP};{chain};perfdemo.ErrorReporter.report 50\n" + stacks(300, 100))
    res = run_cli("hunt", "--repo", demo, "--jfr", deep, "--out", tmp_path / "h")
    assert res.code == 0, res.err
    page = (tmp_path / "h" / "flamegraph.html").read_text()
    assert page.count("[") > 2048 and "perfdemo.Deep.level2047" in page
