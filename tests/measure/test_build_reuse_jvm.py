"""Faster builds of a real Maven reactor (real builds, real JMH forks): the second build of the
same poms runs offline, and a head that changes only a module the benchmark build does not
include is served by the base's build, which the manifest and the report say.

The reactor: ``core`` (the code under test), ``bench`` (JMH, depends on core) and ``other``
(a module bench does not need). Commit c2 changes core; c3 changes only other.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytestmark = [pytest.mark.jvm, pytest.mark.slow, pytest.mark.timeout(900)]

JMH_ARGS = "-f 1 -wi 1 -i 2 -w 100ms -r 100ms"

ROOT = """<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>reuse</groupId><artifactId>parent</artifactId><version>1.0</version>
  <packaging>pom</packaging>
  <modules><module>core</module><module>bench</module><module>other</module></modules>
  <properties>
    <maven.compiler.release>17</maven.compiler.release>
    <project.build.sourceEncoding>UTF-8</project.build.sourceEncoding>
  </properties>
  <build><pluginManagement><plugins>
    <plugin><groupId>org.apache.maven.plugins</groupId><artifactId>maven-compiler-plugin</artifactId>
      <version>3.13.0</version>
      <configuration><annotationProcessorPaths><path><groupId>org.openjdk.jmh</groupId>
        <artifactId>jmh-generator-annprocess</artifactId><version>1.37</version>
      </path></annotationProcessorPaths></configuration></plugin>
  </plugins></pluginManagement></build>
</project>
"""

MODULE = """<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <parent><groupId>reuse</groupId><artifactId>parent</artifactId><version>1.0</version></parent>
  <artifactId>{name}</artifactId>
  <dependencies>{deps}</dependencies>
</project>
"""

DEPS = """<dependency><groupId>reuse</groupId><artifactId>core</artifactId><version>1.0</version>
  </dependency><dependency><groupId>org.openjdk.jmh</groupId><artifactId>jmh-core</artifactId>
  <version>1.37</version></dependency>"""

CODE = "package reuse;\npublic final class Code {{\n"
CODE += "public static int f(int x) {{ return {body}; }} }}\n"
OTHER = "package other;\npublic final class Other {{ public static int g() {{ return {n}; }} }}\n"
BENCH = """package reuse.bench;
import org.openjdk.jmh.annotations.*;
@State(Scope.Thread)
public class CodeBench {
    int x = 7;
    @Benchmark public int f() { return reuse.Code.f(x); }
}
"""


@pytest.fixture(scope="module")
def reactor_repo(tmp_path_factory: pytest.TempPathFactory, write_git_repo) -> Path:
    return write_git_repo(tmp_path_factory.mktemp("reuse") / "repo", [
        ("c1", "2026-02-01T10:00:00Z", {
            "pom.xml": ROOT, ".gitignore": "target/\n",
            "core/pom.xml": MODULE.format(name="core", deps=""),
            "core/src/main/java/reuse/Code.java": CODE.format(body="x + 1"),
            "bench/pom.xml": MODULE.format(name="bench", deps=DEPS),
            "bench/src/main/java/reuse/bench/CodeBench.java": BENCH,
            "other/pom.xml": MODULE.format(name="other", deps=""),
            "other/src/main/java/other/Other.java": OTHER.format(n=1),
        }),
        ("c2", "2026-02-02T10:00:00Z", {"core/src/main/java/reuse/Code.java":
                                        CODE.format(body="x + 2")}),
        ("c3", "2026-02-03T10:00:00Z", {"other/src/main/java/other/Other.java": OTHER.format(n=2)}),
    ])  # fmt: skip


def _ab(run_cli, repo: Path, out: Path, base: str, head: str):
    return run_cli(
        "ab", "--repo", str(repo), "--base", base, "--head", head, "--module", "bench",
        "--maven", "mvn", "--bench", "CodeBench", "--rounds", "2", "--jmh-args", JMH_ARGS,
        "--explain", "off", "--out", str(out), "--lock-timeout", "300", "--format", "json",
    )  # fmt: skip


def test_offline_second_build_and_the_base_build_serving_an_unrelated_head(
    run_cli, reactor_repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))  # nothing built or known yet
    first = _ab(run_cli, reactor_repo, tmp_path / "run1", "c1", "c2")
    assert first.code == 0, first.err
    builds = json.loads((tmp_path / "run1/manifest.json").read_text())["builds"]
    by_side = {b["side"]: b for b in builds}
    assert "-o" not in by_side["base"]["command"]  # first resolution: online
    assert by_side["head"]["command"][1] == "-o"  # same poms, resolved here before: offline
    assert "reused" not in by_side["head"]  # c2 changes core, which bench includes

    second = _ab(run_cli, reactor_repo, tmp_path / "run2", "c2", "c3")
    assert second.code == 0, second.err
    builds = json.loads((tmp_path / "run2/manifest.json").read_text())["builds"]
    head = next(b for b in builds if b["side"] == "head")
    assert "in no module that the build of bench includes" in head["reused"]
    assert "the base build serves it" in second.err
    report = (tmp_path / "run2/report.md").read_text()
    assert "feature: the other side's build" in report
