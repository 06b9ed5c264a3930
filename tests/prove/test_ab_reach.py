"""``ab`` knows the diff: each key gets its reach, and a verdict on a key the change does not
reach is marked in results.json, the report's summary and warnings, and the terminal."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from perfproof.demo.project import write_demo_repo
from perfproof.model.documents.compare import CompareDocument
from perfproof.model.documents.prove_reach import NO_PATH_NOTE, UNEXPLAINED_NOTE, bench_reach
from perfproof.model.documents.reach import BenchReach, RunReach
from perfproof.model.reach import Reach
from perfproof.pipeline.ab.reach import (
    annotate,
    reach_of_run,
    static_reach,
    unconfirmed_of,
    unexplained_of,
)
from perfproof.workspace.worktree import ensure_worktree

from .conftest import compare_doc

REPORTER = "perfdemo.bench.ErrorReporterBench.report"
BUS = "perfdemo.bench.EventBusBench.publishNoListeners"


def _git(repo: Path, *args: str) -> str:
    env = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@x.invalid", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@x.invalid", "GIT_CONFIG_GLOBAL": "/dev/null",
           "PATH": "/usr/bin:/bin"}  # fmt: skip
    out = subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True,
                         text=True, env=env)  # fmt: skip
    return out.stdout.strip()


KT = "perfdemo.bench.KtBench.run"


def _keys(repo: Path, shas: dict[str, str], tree: Path, verdicts: tuple[str, str]) -> dict:
    reach = static_reach(repo, shas, tree, [REPORTER, BUS, KT])
    assert reach.of(KT).kind is Reach.NOT_INDEXED or reach.of(KT).kind is Reach.OUTSIDE_JAVA
    return {
        k.benchmark: k
        for k in reach_of_run(reach, compare_doc(_comparisons(*verdicts)).comparisons)
    }


def _comparisons(reporter: str, bus: str) -> list[dict[str, object]]:
    return [
        {"benchmark": REPORTER, "metric": "primary", "verdict": reporter},
        {"benchmark": REPORTER, "metric": "gc.alloc.rate.norm", "verdict": reporter},
        {"benchmark": BUS, "metric": "primary", "verdict": bus},
    ]


def test_reach_from_the_diff_and_the_call_graph(tmp_path: Path) -> None:
    demo = write_demo_repo(tmp_path / "demo")
    cache = tmp_path / "cache"
    shas = {"base": demo.shas["baseline"], "head": demo.shas["feature"]}
    tree = ensure_worktree(demo.path, shas["head"], cache)
    reach = static_reach(demo.path, shas, tree, [REPORTER, BUS, KT])
    assert reach.of(REPORTER).kind is Reach.STATIC_PATH
    assert reach.of(KT).kind is Reach.NOT_INDEXED  # unknown to the index: no claim
    kotlin = compare_doc([{"benchmark": KT, "metric": "primary", "verdict": "regressed"}])
    assert reach_of_run(reach, kotlin.comparisons) == ()
    moved = compare_doc(_comparisons("improved", "improved")).comparisons
    keys = {k.benchmark: k for k in reach_of_run(reach, moved)}
    assert set(keys) == {REPORTER, BUS}  # primary metrics only
    assert all(k.reached and not k.unexplained for k in keys.values())
    assert keys[REPORTER].path[-1] == "ErrorReporter.report(short)"

    # a commit that only adds a method no benchmark calls reaches neither benchmark
    _git(demo.path, "checkout", "--quiet", "--detach", shas["head"])
    bus = next(demo.path.rglob("EventBus.java"))
    text = bus.read_text()
    cut = text.rstrip().rindex("}")
    bus.write_text(text[:cut] + '    public String debugName() { return "bus"; }\n}\n')
    # with a changelog, a checked-in JMH results file and notes: files no build reads
    for path, body in (("src/changes/changes.xml", "<document/>"), ("README.md", "# demo"),
                       ("results/jmh-result.json", '[{"benchmark": "x"}]')):  # fmt: skip
        (demo.path / path).parent.mkdir(parents=True, exist_ok=True)
        (demo.path / path).write_text(body)
    _git(demo.path, "add", "-A")
    _git(demo.path, "commit", "--quiet", "-m", "debug name, changelog, results")
    later = {"base": shas["head"], "head": _git(demo.path, "rev-parse", "HEAD")}
    tree = ensure_worktree(demo.path, later["head"], cache)
    keys = _keys(demo.path, later, tree, ("regressed", "same"))
    # no static path is no evidence the change never runs there: never "not explained"
    assert not keys[REPORTER].reached and not keys[REPORTER].unexplained
    assert keys[REPORTER].unconfirmed and keys[REPORTER].reach is Reach.NO_STATIC_PATH
    assert not keys[BUS].reached and not keys[BUS].unconfirmed  # "same" claims nothing
    assert "no static call path found within 6 calls" in keys[REPORTER].why

    # a resource the build packages reaches every benchmark
    resource = demo.path / "src/main/resources/limits.properties"
    resource.parent.mkdir(parents=True, exist_ok=True)
    resource.write_text("max=3\n")
    _git(demo.path, "add", "-A")
    _git(demo.path, "commit", "--quiet", "-m", "resource")
    packaged = {"base": later["head"], "head": _git(demo.path, "rev-parse", "HEAD")}
    reach = static_reach(demo.path, packaged, tree, [REPORTER, BUS])
    assert reach.of(BUS).kind is Reach.OUTSIDE_JAVA and "limits.properties" in reach.of(BUS).why
    later = packaged

    # a build file reaches every benchmark
    pom = demo.path / "pom.xml"
    pom.write_text(pom.read_text().replace("</project>", "<!-- tuned -->\n</project>"))
    _git(demo.path, "commit", "--quiet", "-am", "pom")
    build = {"base": later["head"], "head": _git(demo.path, "rev-parse", "HEAD")}
    tree = ensure_worktree(demo.path, build["head"], cache)
    keys = _keys(demo.path, build, tree, ("regressed", "same"))
    assert keys[REPORTER].reached and "outside the Java sources" in keys[REPORTER].why


@pytest.mark.parametrize("recorded", [True, False], ids=["recorded-absent", "no-static-path"])
def test_a_verdict_the_change_may_not_explain_is_marked_in_every_output(
    make_run_folder, run_cli, tmp_path: Path, recorded: bool
) -> None:
    """A moved verdict on a benchmark the call graph does not reach: "not explained by the
    change" only with a recording that shows the change never runs there; without one, "no
    static call path found" and why a path can be missed. Never "noise"."""
    run = tmp_path / "run"
    shutil.copytree(make_run_folder("ab"), run)
    doc = json.loads((run / "results.json").read_text())
    primary = [c for c in doc["comparisons"] if c["metric"] == "primary"]
    moved = next(c for c in primary if c["verdict"] in ("improved", "regressed"))
    unreached = moved["benchmark"]
    absent = "its baseline recording has 412 CPU samples and none in the changed code"
    others = {b: BenchReach(benchmark=b, kind=Reach.STATIC_PATH, why="call path: X", path=("X",))
              for b in {str(c["benchmark"]) for c in primary} - {unreached}}  # fmt: skip
    static = bench_reach(unreached, {}, (), depth=6)
    mine = (
        BenchReach(benchmark=unreached, kind=Reach.NOT_RECORDED, why=absent) if recorded else static
    )
    typed = annotate(
        CompareDocument.read(doc, "results.json"), RunReach(benchmarks={**others, unreached: mine})
    )
    expected = [c for c in primary if c["benchmark"] == unreached
                and c["verdict"] in ("improved", "regressed")]  # fmt: skip
    shown = unexplained_of(typed.comparisons)
    assert shown == ([unreached] * len(expected) if recorded else [])
    assert unconfirmed_of(typed.comparisons) == ([] if recorded else [unreached] * len(expected))
    doc = typed.dump()
    assert all("reach" in c for c in doc["comparisons"] if c["metric"] == "primary")
    (run / "results.json").write_text(json.dumps(doc))

    md = run_cli("report", run, "--format", "md")
    assert md.code == 0, md.err
    assert "noise" not in md.out
    summary = next(line for line in md.out.splitlines() if line.startswith("**Summary"))
    counts = [(v, sum(1 for c in expected if c["verdict"] == v)) for v in ("regressed", "improved")]
    nouns = [f"{n} {'regression' if v == 'regressed' else 'improvement'}{'s' if n > 1 else ''}"
             for v, n in counts if n]  # fmt: skip
    if recorded:
        words = f"{UNEXPLAINED_NOTE}: a recording shows the changed code never runs"
        assert absent in md.out
    else:
        words = f"with {NO_PATH_NOTE}, not confirmed by a recording"
        assert UNEXPLAINED_NOTE not in md.out
        assert "no static call path found within 6 calls" in md.out and "reflection" in md.out
    assert f"; {' and '.join(nouns)} {words} (see Warnings)." in summary
    as_json = json.loads(run_cli("report", run, "--format", "json").out)
    assert (UNEXPLAINED_NOTE in json.dumps(as_json)) is recorded
    html = run_cli("report", run, "--format", "html")
    assert html.code == 0 and words in html.out and "noise" not in html.out


def test_a_failing_reach_costs_the_run_nothing(tmp_path: Path, monkeypatch) -> None:
    """Reach annotates a run whose forks are measured: a failure in it is a note, not a
    lost run."""
    from perfproof.pipeline.ab import reach as ab_reach

    def broken(*_a: object, **_k: object) -> None:
        raise TypeError("index went wrong")

    monkeypatch.setattr(ab_reach, "static_reach", broken)
    reach = ab_reach.reach_before_looks(tmp_path, {"base": "a", "head": "b"}, tmp_path, [BUS])
    assert reach.error == "the change's reach was not computed: TypeError: index went wrong"
    assert reach.of(BUS).kind is Reach.NOT_INDEXED and not reach.reaches(BUS)
    doc, why = ab_reach.explain(compare_doc(_comparisons("regressed", "same")), reach)
    assert why == reach.error
    assert all("reach" not in c for c in doc.dump()["comparisons"])


def test_every_verdict_on_a_benchmark_no_static_path_reaches_says_so_beside_it(
    make_run_folder, run_cli, tmp_path: Path
) -> None:
    """Whatever its verdict (inconclusive too), a key whose benchmark no static path leads to
    says so beside the verdict in the terminal table, report.md, the HTML and the JSON; the
    benchmarks the change reaches say nothing more."""
    from perfproof.compare import CompareResult
    from perfproof.pipeline.ab.run import AbOutcome
    from perfproof.render.comparison import rows

    run = tmp_path / "run"
    shutil.copytree(make_run_folder("ab"), run)
    doc = json.loads((run / "results.json").read_text())
    primary = [c for c in doc["comparisons"] if c["metric"] == "primary"]
    benches = sorted({str(c["benchmark"]) for c in primary})
    unreached = benches[0]
    reach = {
        b: BenchReach(benchmark=b, kind=Reach.STATIC_PATH, why="call path: X", path=("X",))
        for b in benches[1:]
    }
    reach[unreached] = bench_reach(unreached, {}, (), depth=6)
    plain = CompareDocument.read(doc, "results.json")
    typed = annotate(plain, RunReach(benchmarks=reach))
    (run / "results.json").write_text(json.dumps(typed.dump()))
    verdicts = {str(c["verdict"]) for c in primary if c["benchmark"] == unreached}

    outcome = AbOutcome(run, CompareResult(list(plain.comparisons), []), typed, run / "report.md")
    table = {r.benchmark: r.cells()[6] for r in rows(outcome.shown)[0]}
    short = {b: next(r for r in table if b.endswith(r)) for b in benches}
    assert table[short[unreached]].endswith(" (no static path)")
    assert all("(" not in table[short[b]] for b in benches[1:])

    md = run_cli("report", run, "--format", "md")
    assert md.code == 0, md.err
    cells = [line for line in md.out.splitlines() if "(no static path)" in line]
    assert cells and all(line.startswith("|") for line in cells)
    assert {v for v in verdicts if f"| {v} (no static path) |" in md.out} == verdicts
    rows_json = json.loads(run_cli("report", run, "--format", "json").out)["results"]
    said = {t["benchmark"]: {r["reach"] for r in t["rows"]} for t in rows_json}
    assert said[unreached] == {"no static path"}
    assert all(said[b] == {None} for b in benches[1:])
    html = run_cli("report", run, "--format", "html").out
    assert any(f"{v} (no static path)</td>" in html for v in verdicts)
