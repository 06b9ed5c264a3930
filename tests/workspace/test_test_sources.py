"""Benchmarks kept in a module's test sources (the Apache Commons layout), read from the pom and
the sources on disk: which profile compiles them, which build steps would start JMH, the
build perfproof plans for them and what it takes from it. No Maven runs here; the real build
is in ``tests/measure/test_ab_test_sources_jvm.py``."""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest

from perfproof.errors import InputError
from perfproof.workspace import build_maven, maven_steps
from perfproof.workspace.artifact import Artifact
from perfproof.workspace.spec import BuildSpec

EXEC = """<plugin><groupId>org.codehaus.mojo</groupId><artifactId>exec-maven-plugin</artifactId>
  <executions><execution><id>benchmark</id><phase>{phase}</phase><goals><goal>exec</goal></goals>
    <configuration><executable>java</executable><arguments><argument>-classpath</argument>
      <classpath/><argument>org.openjdk.jmh.Main</argument><argument>${{benchmark}}</argument>
    </arguments></configuration></execution>
  <execution><id>codegen</id><phase>generate-sources</phase><goals><goal>exec</goal></goals>
    <configuration><executable>python3</executable></configuration></execution>
  </executions></plugin>"""

POM = """<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>t</groupId><artifactId>t</artifactId><version>1</version>
  <profiles>
    <profile><id>largeheap</id></profile>
    <profile><id>benchmark</id><build><plugins>
      <plugin><artifactId>maven-compiler-plugin</artifactId><configuration combine.self="override">
        <testIncludes><testInclude>**/*</testInclude></testIncludes></configuration></plugin>
      {exec}
    </plugins></build></profile>
  </profiles>
</project>
"""

BENCH = "import org.openjdk.jmh.annotations.Benchmark;\nclass B {\n  @Benchmark\n  void b() {}\n}\n"


def _project(root: Path, *, where: str = "src/test/java", phase: str = "test") -> Path:
    (root / where / "p").mkdir(parents=True)
    (root / where / "p" / "FooBenchmark.java").write_text(BENCH)
    (root / where / "p" / "FooTest.java").write_text("class FooTest {}\n")
    (root / "pom.xml").write_text(POM.format(exec=EXEC.format(phase=phase)))
    return root


def test_benchmarks_in_the_tests_are_found_with_the_profile_that_runs_them(tmp_path: Path) -> None:
    found = maven_steps.find_test_benchmarks(_project(tmp_path))
    assert found is not None
    assert (found.source_dir, found.classes, found.profile) == ("src/test/java", 1, "benchmark")
    assert [s.words() for s in found.launches] == [
        "exec-maven-plugin execution 'benchmark' (profile benchmark, phase test)"
    ]  # the code generator starts no JMH
    own = found.own_run([])
    assert own is not None
    assert own.command(["Foo", "Bar"]) == ["mvn", "-Pbenchmark", "test", "-Dbenchmark=Foo|Bar"]
    assert own.command([]) == ["mvn", "-Pbenchmark", "test"]


def test_benchmarks_in_the_main_sources_are_not_a_test_layout(tmp_path: Path) -> None:
    assert maven_steps.find_test_benchmarks(_project(tmp_path, where="src/main/java")) is None


def test_the_plan_compiles_the_tests_with_the_profile_and_stops_before_its_jmh(
    tmp_path: Path,
) -> None:
    plan = build_maven.plan(_project(tmp_path), BuildSpec(), fresh=False, env={})
    argv = list(plan.command.argv)
    assert "-Pbenchmark" in argv and "test-compile" in argv and "package" not in argv
    assert "-Dmdep.includeScope=test" in argv
    assert "-Dexec.skip=true" not in argv  # test-compile never reaches the exec in `test`
    assert "never its exec-maven-plugin execution 'benchmark'" in plan.note
    assert "JMH runs from target/test-classes on the test classpath" in plan.note


def test_a_jmh_step_the_build_would_reach_is_skipped_and_said(tmp_path: Path) -> None:
    root = _project(tmp_path, phase="process-test-resources")
    plan = build_maven.plan(root, BuildSpec(build_args=("-Pbenchmark",)), fresh=False, env={})
    argv = list(plan.command.argv)
    assert argv.count("-Pbenchmark") == 1 and "-Dexec.skip=true" in argv
    assert "skipped exec-maven-plugin execution 'benchmark'" in plan.note
    assert "it starts JMH inside the build" in plan.note


def test_a_package_build_with_the_profile_skips_its_jmh_too(tmp_path: Path) -> None:
    root = _project(tmp_path, where="src/main/java", phase="package")
    plain = build_maven.plan(root, BuildSpec(), fresh=False, env={})
    assert "-Dexec.skip=true" not in plain.command.argv  # the profile is off
    asked = build_maven.plan(root, BuildSpec(build_args=("-Pbenchmark",)), fresh=False, env={})
    assert "package" in asked.command.argv and "-Dexec.skip=true" in asked.command.argv


def _benchmark_list(folder: Path) -> None:
    (folder / "META-INF").mkdir(parents=True)
    (folder / "META-INF" / "BenchmarkList").write_text("JMH S 1 p.B\n")


def test_the_test_classes_run_on_the_test_classpath(tmp_path: Path) -> None:
    root = _project(tmp_path)
    _benchmark_list(root / "target" / "test-classes")
    (root / "target" / "classes").mkdir()
    jar = tmp_path / "jmh-core-1.37.jar"
    (root / build_maven.CLASSPATH_FILE).write_text(f"{jar}")
    outputs = build_maven.collect(root, BuildSpec())
    target = root / "target"
    assert outputs.jar is None
    assert outputs.classpath == [target / "test-classes", target / "classes", jar]
    artifact = Artifact("s", "maven", None, outputs.classpath, [], root, False, None)
    assert artifact.layout == "test-classes"
    assert artifact.jmh_argv()[-1] == "org.openjdk.jmh.Main"


def test_test_classes_without_a_benchmark_list_say_what_to_check(tmp_path: Path) -> None:
    root = _project(tmp_path)
    (root / "target" / "test-classes").mkdir(parents=True)
    with pytest.raises(InputError, match="hold no META-INF/BenchmarkList: is jmh-generator"):
        build_maven.collect(root, BuildSpec())


def test_a_tests_jar_holding_the_benchmark_list_is_named_not_denied(tmp_path: Path) -> None:
    (tmp_path / "pom.xml").write_text("<project/>")
    (tmp_path / "target").mkdir()
    with zipfile.ZipFile(tmp_path / "target" / "lib-1.0-tests.jar", "w") as zf:
        zf.writestr("META-INF/BenchmarkList", "JMH S 1 p.B\n")
    with pytest.raises(InputError) as caught:
        build_maven.collect(tmp_path, BuildSpec())
    assert "lib-1.0-tests.jar holds it: the benchmarks are compiled with the tests" in str(
        caught.value
    )


@pytest.mark.parametrize(
    ("args", "on", "off"),
    [
        (("-Pbenchmark",), {"benchmark"}, set()),
        (("-P", "a,!b"), {"a"}, {"b"}),
        (("-Pa,b", "-Dx", "-P-c"), {"a", "b"}, {"c"}),
        ((), set(), set()),
    ],
)
def test_profiles_asked_by_the_build_arguments(
    args: tuple[str, ...], on: set[str], off: set[str]
) -> None:
    assert maven_steps.profiles_asked(args) == (on, off)


def test_a_benchmark_profile_the_user_switches_off_is_not_added(tmp_path: Path) -> None:
    spec = BuildSpec(build_args=("-P!benchmark",))
    plan = build_maven.plan(_project(tmp_path), spec, fresh=False, env={})
    assert "-Pbenchmark" not in plan.command.argv and "-P!benchmark" in plan.command.argv
    assert "to test-compile without their profile benchmark, as asked" in plan.note
