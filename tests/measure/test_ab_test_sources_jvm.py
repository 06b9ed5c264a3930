"""A project shaped like the Apache Commons libraries, built and measured for real: JMH
benchmarks in ``src/test/java``, compiled only under a ``benchmark`` profile that widens the
compiler's test includes and hooks ``exec-maven-plugin`` (``org.openjdk.jmh.Main``) to the
``test`` phase, and a plugin (apache-rat-plugin 0.18, as in those projects) that refuses a Maven
older than 3.9, with no wrapper.

One flow, in one cache, as a new user would try it: a first ``ab`` with a build argument that
turns annotation processing off (so no benchmark list is generated), then ``ab`` with no build
flags at all. The second must build clean (the first try's classes would otherwise be "up to
date" and still lack the list), with a Maven that meets the plugin's need, run no JMH inside
Maven, and give the right verdicts.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

import pytest

from perfproof.workspace.maven_fetch import program_version
from perfproof.workspace.maven_need import MavenNeed

pytestmark = [pytest.mark.jvm, pytest.mark.slow, pytest.mark.timeout(1200)]

JMH_ARGS = "-f 1 -wi 1 -i 2 -w 100ms -r 100ms"

POM = """<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>tsb</groupId><artifactId>tsb</artifactId><version>1.0</version>
  <properties>
    <maven.compiler.release>17</maven.compiler.release>
    <project.build.sourceEncoding>UTF-8</project.build.sourceEncoding>
    <bench.include>**/*Test.java</bench.include>
    <benchmark>tsb</benchmark>
  </properties>
  <dependencies>
    <dependency><groupId>org.openjdk.jmh</groupId><artifactId>jmh-core</artifactId>
      <version>1.37</version><scope>test</scope></dependency>
    <dependency><groupId>org.openjdk.jmh</groupId><artifactId>jmh-generator-annprocess</artifactId>
      <version>1.37</version><scope>test</scope></dependency>
  </dependencies>
  <build><plugins>
    <plugin><artifactId>maven-compiler-plugin</artifactId><version>3.13.0</version>
      <configuration><testIncludes><testInclude>${bench.include}</testInclude></testIncludes>
      </configuration></plugin>
    <plugin><groupId>org.apache.rat</groupId><artifactId>apache-rat-plugin</artifactId>
      <version>0.18</version>
      <executions><execution><phase>validate</phase><goals><goal>check</goal></goals>
      </execution></executions></plugin>
  </plugins></build>
  <profiles>
    <profile><id>benchmark</id>
      <properties><bench.include>**/*</bench.include></properties>
      <build><plugins>
        <plugin><groupId>org.codehaus.mojo</groupId><artifactId>exec-maven-plugin</artifactId>
          <version>3.1.0</version>
          <executions><execution><id>benchmark</id><phase>test</phase><goals><goal>exec</goal></goals>
            <configuration><classpathScope>test</classpathScope><executable>java</executable>
              <arguments><argument>-classpath</argument><classpath/>
                <argument>org.openjdk.jmh.Main</argument><argument>-rf</argument>
                <argument>json</argument><argument>-rff</argument>
                <argument>target/exec-ran.json</argument><argument>${benchmark}</argument>
              </arguments>
            </configuration></execution></executions></plugin>
      </plugins></build>
    </profile>
  </profiles>
</project>
"""

SUM = """package tsb;

public final class Sum {
    public static long of(int[] values) {
        long total = 0;
        for (int round = 0; round < %d; round++) {
            for (int v : values) {
                total += v ^ round;
            }
        }
        return total;
    }
}
"""

BENCH = """package tsb;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;

@State(Scope.Thread)
public class %s {
    int[] values = new int[256];

    @Benchmark
    public Object run() {
        return %s;
    }
}
"""


@dataclass(frozen=True)
class Tries:
    repo: Path
    cache: Path
    first: object
    second: object
    run: Path


@pytest.fixture(scope="module")
def tries(tmp_path_factory: pytest.TempPathFactory, write_git_repo, request) -> Tries:
    root = tmp_path_factory.mktemp("testsrc")
    repo = write_git_repo(root / "repo", [
        ("c1", "2026-03-01T10:00:00Z", {
            "pom.xml": POM, ".gitignore": "target/\n",
            "src/main/java/tsb/Sum.java": SUM % 1,
            "src/test/java/tsb/SumBenchmark.java": BENCH % ("SumBenchmark", "Sum.of(values)"),
            "src/test/java/tsb/CopyBenchmark.java": BENCH % ("CopyBenchmark", "values.clone()"),
        }),
        # 2000 times the work: three forks a side on a busy machine (fork means apart by x10)
        # still tell it from noise
        ("c2", "2026-03-02T10:00:00Z", {"src/main/java/tsb/Sum.java": SUM % 2000}),
    ])  # fmt: skip
    cache = root / "cache"
    monkeypatch = pytest.MonkeyPatch()
    monkeypatch.setenv("XDG_CACHE_HOME", str(cache))
    run_cli = request.getfixturevalue("run_cli_module")
    common = ["ab", "--repo", str(repo), "--base", "c1", "--head", "c2", "--rounds", "3",
              "--jmh-args", JMH_ARGS, "--explain", "off", "--lock-timeout", "600",
              "--format", "json"]  # fmt: skip
    try:
        first = run_cli(*common, "--build-arg=-Dmaven.compiler.proc=none", "--out", root / "r1")
        second = run_cli(*common, "--out", root / "r2")
    finally:
        monkeypatch.undo()
    return Tries(repo, cache, first, second, root / "r2")


@pytest.fixture(scope="module")
def run_cli_module():
    """``perfproof ARGS`` in a child process (a module fixture cannot hold capsys)."""
    import subprocess
    import sys
    from types import SimpleNamespace

    def _run(*args: object):
        res = subprocess.run([sys.executable, "-m", "perfproof", *map(str, args)],
                             capture_output=True, text=True)  # fmt: skip
        return SimpleNamespace(code=res.returncode, out=res.stdout, err=res.stderr)

    return _run


def test_a_first_try_without_the_benchmark_list_says_so(tries: Tries) -> None:
    assert tries.first.code == 2, tries.first.err
    assert "hold no META-INF/BenchmarkList" in tries.first.err


def test_ab_with_no_build_flags_measures_the_test_source_benchmarks(tries: Tries) -> None:
    assert tries.second.code == 0, tries.second.err
    assert "benchmarks in the test sources: 2 classes with @Benchmark in src/test/java" in (
        tries.second.err
    )
    assert "-Pbenchmark" in tries.second.err and "never its exec-maven-plugin" in tries.second.err
    verdicts = {
        row["benchmark"].rsplit(".", 2)[-2]: row["verdict"]
        for row in json.loads(tries.second.out)["comparisons"]
        if row["metric"] == "primary"  # time (beside it bytes/op and the costs families)
    }
    assert verdicts["SumBenchmark"] == "regressed"  # head sums the array 2000 times
    assert verdicts["CopyBenchmark"] not in ("regressed", "improved")  # nothing it runs changed
    reach = json.loads((tries.run / "manifest.json").read_text())["reach"]["benchmarks"]
    kinds = {r["benchmark"].rsplit(".", 2)[-2]: r["kind"] for r in reach}
    assert kinds == {"SumBenchmark": "static path", "CopyBenchmark": "no static path"}


def test_the_second_try_builds_clean_and_never_runs_the_exec_plugin(tries: Tries) -> None:
    manifest = json.loads((tries.run / "manifest.json").read_text())
    for build in manifest["builds"]:
        assert build["layout"] == "test-classes"
        assert "test-compile" in build["command"] and "-Pbenchmark" in build["command"]
    base_log = (tries.run / "logs" / "build-base.log").read_text()
    assert "the last build in this worktree had other settings: building clean" in base_log
    assert re.search(r"Compiling \d+ source files? .*test-classes", base_log)
    for log in (tries.run / "logs").glob("build-*.log"):
        assert not re.search(r"--- exec(-maven-plugin)?:", log.read_text())
    worktrees = list((tries.cache / "perfproof" / "worktrees").glob("*/*/target"))
    assert worktrees and not any((t / "exec-ran.json").exists() for t in worktrees)


def test_each_side_is_built_by_a_maven_that_meets_the_plugin_and_the_report_names_it(
    tries: Tries,
) -> None:
    manifest = json.loads((tries.run / "manifest.json").read_text())
    tools = [b["tool"] for b in manifest["builds"]]
    assert len(tools) == 2
    for tool in tools:
        version = re.match(r"Apache Maven (\S+)", tool)
        assert version and MavenNeed("3.9", "rat").allows(version.group(1)), tool
    path_maven = program_version("mvn") or "0"
    if not MavenNeed("3.9", "rat").allows(path_maven):
        assert all("fetched from Maven Central" in t for t in tools)
        assert "fetched Maven 3.9" in tries.first.err + tries.second.err
    report = (tries.run / "report.md").read_text()
    assert f"built with {tools[0]}" in report
    # the project's own run of what was measured (every benchmark: no --bench) in Reproduce
    assert all(b["own_run"] == {"argv": ["mvn", "-Pbenchmark", "test"], "selector": "benchmark"}
               for b in manifest["builds"])  # fmt: skip
    assert "&& mvn -Pbenchmark test" in report
