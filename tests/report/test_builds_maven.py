"""The Maven that built each side, as the manifest records it: named on the report's Builds
line, and in Reproduce as the ``mvn`` a reader puts on PATH rather than a path into this
machine's cache."""

from __future__ import annotations

import json
from pathlib import Path

from perfproof.model.enums import Format
from perfproof.report import render
from perfproof.report.reproduce import steps
from perfproof.report.rundir import load_run

FETCHED = "/root/.cache/perfproof/maven/apache-maven-3.9.16"


def test_the_report_names_the_maven_of_each_build(make_run_folder) -> None:
    run = make_run_folder("ab")
    manifest = json.loads((run / "manifest.json").read_text())
    for build in manifest["builds"]:
        build["command"] = [f"{FETCHED}/bin/mvn", "-B", "-Pbenchmark", "test-compile"]
        build["tool"] = f"Apache Maven 3.9.16 (fetched from Maven Central into {FETCHED})"
    (run / "manifest.json").write_text(json.dumps(manifest))
    report = render(run, Format.MD)
    assert "baseline: fresh build (42.5 s), built with Apache Maven 3.9.16 (fetched" in report
    builds = [s for s in steps(load_run(Path(run)))[0] if s.caption.startswith("Build")]
    assert builds[0].caption == "Build the baseline (with Apache Maven 3.9.16 as mvn on PATH)"
    assert "&& mvn -B -Pbenchmark test-compile" in builds[0].command
    assert FETCHED not in builds[0].command


def test_reproduce_gives_the_projects_own_run_only_when_it_selects_the_same_benchmarks(
    make_run_folder,
) -> None:
    run = make_run_folder("ab")
    manifest = json.loads((run / "manifest.json").read_text())
    own = {"argv": ["mvn", "-Pbenchmark", "test"], "selector": "benchmark"}
    for build in manifest["builds"]:
        build["own_run"], build["layout"] = own, "test-classes"
    for step in manifest["steps"]:
        if step.get("argv"):
            jar = step["argv"].index("-jar")
            tree = step["argv"][jar + 1].rsplit("/target/", 1)[0]
            cp = f"{tree}/target/test-classes:{tree}/target/classes:/m2/jmh-core.jar"
            step["argv"][jar : jar + 2] = ["-cp", cp, "org.openjdk.jmh.Main"]
    manifest["plan"]["benchmarks"] = ["SumBenchmark", "CopyBenchmark"]
    (run / "manifest.json").write_text(json.dumps(manifest))
    shown = steps(load_run(Path(run)))[0]
    assert any(s.caption.endswith("(the test classes the run used, then its dependencies)")
               for s in shown)  # fmt: skip
    last = shown[-2]
    assert last.caption.startswith("Or run them on the feature as the project does itself")
    assert last.command.endswith("&& mvn -Pbenchmark test '-Dbenchmark=SumBenchmark|CopyBenchmark'")

    own["selector"] = None  # its JMH run takes no regex: it would run other benchmarks too
    (run / "manifest.json").write_text(json.dumps(manifest))
    assert not any(s.caption.startswith("Or run") for s in steps(load_run(Path(run)))[0])


def test_a_pair_run_on_test_classes_names_them_for_its_classpath(make_run_folder) -> None:
    run = make_run_folder("ab")
    manifest = json.loads((run / "manifest.json").read_text())
    manifest["variants"] = {"pairs": [["SumBenchmark.run", "CopyBenchmark.run"]], "text": "x"}
    manifest["builds"] = [dict(manifest["builds"][0], layout="test-classes")]
    tree = manifest["builds"][0]["cwd"]
    for step in manifest["steps"]:
        if step.get("argv"):
            jar = step["argv"].index("-jar")
            cp = f"{tree}/target/test-classes:{tree}/target/classes:/m2/jmh-core.jar"
            step["argv"][jar : jar + 2] = ["-cp", cp, "org.openjdk.jmh.Main"]
            step["side"] = "pair"
    (run / "manifest.json").write_text(json.dumps(manifest))
    captions = [s.caption for s in steps(load_run(Path(run)))[0]]
    assert "Set the pair classpath (the test classes the run used, then its dependencies)" in (
        captions
    )
